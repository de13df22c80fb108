"""Retrieval sees an edit at once, through the Workspace: a merged entity is one seed, a deleted triple is never a
candidate, an added triple is found and expanded."""

from __future__ import annotations

import pytest
from editgraph import bio_graph

from vgrag.text import entity_id, relation_id


@pytest.fixture
def g(ws, request):
    yield from bio_graph(ws, request, "rt")


def seen(trace) -> tuple[set[str], set[str]]:
    """The entity and relation ids a query touched anywhere: seeds, hops, candidates."""
    ents = {h.id for h in trace.seeds.entity_hits} | {e.id for e in trace.entities}
    ents |= {i for h in trace.hops for i in h.new_entity_ids}
    rels = {h.id for h in trace.seeds.relation_hits} | {r.id for r in trace.relations}
    rels |= {i for h in trace.hops for i in h.new_relation_ids}
    return ents, rels


def test_a_merged_entity_is_one_seed(ws, g):
    q = "What does CLL affect, the chronic lymphocytic leukemia?"
    ents, _ = seen(ws.query(q, graph=g, use_llm=False))
    assert entity_id("CLL") in ents  # before: the abbreviation is an entity of its own
    ws.merge_entities("CLL", "Chronic lymphocytic leukemia", graph=g)
    trace = ws.query(q, graph=g, use_llm=False)
    ents, rels = seen(trace)
    assert entity_id("CLL") not in ents and entity_id("Chronic lymphocytic leukemia") in ents
    assert relation_id("Chronic lymphocytic leukemia", "affects", "B cells") in rels
    assert not {relation_id("CLL", "affects", "B cells"), relation_id("CLL", "is a", "cancer")} & rels


def test_a_deleted_triple_is_never_a_candidate(ws, g):
    junk = relation_id("zy:t", "born", "December 22, 1955")
    q = "Who was born December 22, 1955?"
    assert junk in seen(ws.query(q, graph=g, use_llm=False))[1]
    ws.delete_relation(junk, graph=g)
    assert junk not in seen(ws.query(q, graph=g, use_llm=False))[1]


def test_an_added_triple_is_found_and_expanded(ws, g):
    graph = ws.graph(g)
    (pid,) = [p.id for p in graph.iter_passages() if p.title == "Prize 2"]
    ws.add_relation(pid, "Göttingen", "is a city in", "Lower Saxony", graph=g)
    added = relation_id("Göttingen", "is a city in", "Lower Saxony")
    trace = ws.query("Thomas C. Sudhof studied in which city of Lower Saxony?", graph=g, use_llm=False)
    ents, rels = seen(trace)
    assert added in rels and entity_id("Lower Saxony") in ents
    assert pid in trace.passage_ids()

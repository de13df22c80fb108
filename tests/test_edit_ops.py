"""The edit operations on a real Milvus Lite graph: each leaves a consistent graph (check_graph), is logged, and
undoes exactly."""

from __future__ import annotations

import pytest
from editgraph import bio_graph, snapshot

from vgrag.editing import EditError
from vgrag.extraction.entities import graph_aliases
from vgrag.storage.check import check_graph
from vgrag.text import entity_id, relation_id


@pytest.fixture
def g(ws, request):
    yield from bio_graph(ws, request, "ed")


def ok(ws, name):
    report = check_graph(ws.graph(name))
    assert report.ok, report.problems


def test_merge_repoints_collapses_and_records_the_alias(ws, g):
    graph = ws.graph(g)
    n_rel = graph.counts()["relations"]
    edit = ws.merge_entities("CLL", "Chronic lymphocytic leukemia", graph=g)
    assert edit.status == "done" and edit.op == "merge" and edit.docs
    assert graph.get_entities([entity_id("CLL")]) == []
    b = graph.get_entities([entity_id("Chronic lymphocytic leukemia")])[0]
    cancer = relation_id("Chronic lymphocytic leukemia", "is a", "cancer")
    affects = relation_id("Chronic lymphocytic leukemia", "affects", "B cells")
    assert {cancer, affects} <= set(b.relation_ids)
    assert graph.get_relations([relation_id("CLL", "is a", "cancer")]) == []
    assert graph.counts()["relations"] == n_rel - 1  # (CLL, is a, cancer) collapsed into B's own
    (psg,) = graph.get_passages(list(b.passage_ids))
    assert entity_id("CLL") not in psg.entity_ids and b.id in psg.entity_ids
    assert graph_aliases(graph).all()["Chronic lymphocytic leukemia"] == ("CLL",)
    ok(ws, g)


def test_undo_restores_the_graph_exactly_and_stops_at_the_log_start(ws, g):
    graph = ws.graph(g)
    before = snapshot(graph)
    ws.merge_entities("Dr. Mignot", "Emmanuel Mignot", graph=g)
    ws.delete_relation(relation_id("zy:t", "born", "December 22, 1955"), graph=g)
    assert snapshot(graph) != before
    undone = ws.undo(2, graph=g)
    assert [u.op for u in undone] == ["undo", "undo"]
    assert snapshot(graph) == before
    assert "Emmanuel Mignot" not in graph_aliases(graph).all()
    ok(ws, g)
    with pytest.raises(EditError, match="no edit left to undo"):
        ws.undo(graph=g)
    assert [e.undone_by is not None for e in ws.edits(g) if e.op != "undo"] == [True, True]


def test_rename_rekeys_relations_and_refuses_an_existing_name(ws, g):
    graph = ws.graph(g)
    ws.rename_entity("zy:t", "Zyta Kowalska", graph=g)
    assert graph.get_entities([entity_id("zy:t")]) == []
    rid = relation_id("Zyta Kowalska", "born", "December 22, 1955")
    assert graph.get_relations([rid])[0].subject == "Zyta Kowalska"
    with pytest.raises(EditError, match="exists already; merge"):
        ws.rename_entity("Zyta Kowalska", "Nobel Prize", graph=g)
    ws.rename_entity("Nobel Prize", "nobel prize", graph=g)  # same key: same ids, new texts
    (prize,) = graph.get_entities([entity_id("Nobel Prize")])
    assert prize.name == "nobel prize"
    assert graph.get_relations([relation_id("Thomas C. Südhof", "won", "Nobel Prize")])[0].object == "nobel prize"
    ok(ws, g)


def test_delete_entity_removes_its_relations_and_keeps_the_passages(ws, g):
    graph = ws.graph(g)
    n_psg = graph.counts()["passages"]
    ws.delete_entity("Thomas C. Sudhof", graph=g)
    assert graph.get_entities([entity_id("Thomas C. Sudhof")]) == []
    assert graph.get_relations([relation_id("Thomas C. Sudhof", "studied", "synapses")]) == []
    assert graph.counts()["passages"] == n_psg
    ok(ws, g)


def test_edit_relation_moves_it_and_retires_a_junk_endpoint(ws, g):
    graph = ws.graph(g)
    old = relation_id("zy:t", "born", "December 22, 1955")
    edit = ws.edit_relation(old, subject="Thomas C. Südhof", graph=g)
    new = relation_id("Thomas C. Südhof", "born", "December 22, 1955")
    assert edit.relations == (new,)
    assert graph.get_relations([old]) == [] and graph.get_relations([new])[0].passage_ids
    assert graph.get_entities([entity_id("zy:t")]) == []  # it lost its only relation
    assert new in graph.get_entities([entity_id("Thomas C. Südhof")])[0].relation_ids
    ok(ws, g)
    with pytest.raises(EditError, match="no relation"):  # another session's edit removed it
        ws.delete_relation(old, graph=g)


def test_add_relation_from_a_passage(ws, g):
    graph = ws.graph(g)
    (pid,) = [p.id for p in graph.iter_passages() if p.title == "Prize 2"]
    ws.add_relation(pid, "Thomas C. Sudhof", "worked in", "Göttingen", graph=g)
    rid = relation_id("Thomas C. Sudhof", "worked in", "Göttingen")
    assert graph.get_relations([rid])[0].passage_ids == (pid,)
    assert rid in graph.get_passages([pid])[0].relation_ids
    with pytest.raises(EditError, match="already in the graph"):
        ws.add_relation(pid, "Thomas C. Sudhof", "worked in", "Göttingen", graph=g)
    ws.add_relation(pid, "Göttingen", "is in", "Germany", graph=g)  # a new entity
    assert graph.get_entities([entity_id("Germany")])[0].passage_ids == (pid,)
    ok(ws, g)


def test_split_alias_after_a_merge(ws, g):
    graph = ws.graph(g)
    ws.merge_entities("Dr. Mignot", "Emmanuel Mignot", graph=g)
    ws.split_alias("Emmanuel Mignot", "Dr. Mignot", graph=g)
    assert graph.get_entities([entity_id("Dr. Mignot")])[0].name == "Dr. Mignot"
    assert "Emmanuel Mignot" not in graph_aliases(graph).all()
    with pytest.raises(EditError, match="not an alias"):
        ws.split_alias("Emmanuel Mignot", "Dr. Mignot", graph=g)
    ok(ws, g)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda ws, g: ws.merge_entities("CLL", "cll", graph=g), "same entity"),
        (lambda ws, g: ws.merge_entities("CLL", "Nobody", graph=g), "no entity 'Nobody'"),
        (lambda ws, g: ws.rename_entity("CLL", "   ", graph=g), "empty"),
        (lambda ws, g: ws.rename_entity("CLL", "x" * 10_000, graph=g), "10,000 characters"),
        (lambda ws, g: ws.rename_entity("CLL", "C\x07LL", graph=g), "control character"),
        (lambda ws, g: ws.rename_entity("CLL", "**", graph=g), "no letter or digit"),
        (lambda ws, g: ws.edit_relation("rel-nope", predicate="is", graph=g), "no relation"),
        (lambda ws, g: ws.add_relation("psg-nope", "a", "b", "c", graph=g), "no passage"),
        (lambda ws, g: ws.undo(0, graph=g), "at least 1"),
    ],
)
def test_bad_input_is_refused_and_writes_nothing(ws, g, call, message):
    before = snapshot(ws.graph(g))
    with pytest.raises(EditError, match=message):
        call(ws, g)
    assert snapshot(ws.graph(g)) == before and ws.edits(g) == []


def test_merge_into_a_deleted_entity_is_refused(ws, g):
    ws.delete_entity("Emmanuel Mignot", graph=g)
    with pytest.raises(EditError, match="deleted or merged"):
        ws.merge_entities("Dr. Mignot", "Emmanuel Mignot", graph=g)

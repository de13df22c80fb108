"""The passage step follows the bridge entity: a passage sharing an entity with an evidence passage is its next hop,
weighted by how few passages name that entity (vgrag/query/links.py)."""

from __future__ import annotations

import pytest

from ui.render import step_table
from vgrag.config import QueryParams
from vgrag.models import Triple
from vgrag.query.links import evidence_scores, linked_passages
from vgrag.query.retrieve import retrieve
from vgrag.query.scope import Scope
from vgrag.present.explain import explain
from vgrag.query.trace import ScoredId, Step
from vgrag.storage.writer import SourceChunk, write_chunks
from vgrag.text import entity_id, relation_id

T = Triple
# MuSiQue's shape: the question names the river; the river's passage ends at the country (the bridge); the answer's
# passage names the country but neither the river nor the question's words more than the look-alike waterfalls do.
PASSAGES = [
    (
        "Bubye River",
        "The Bubye River is a tributary of the Limpopo River in southern Zimbabwe.",
        (T("Bubye River", "is a tributary of", "Limpopo River"), T("Bubye River", "flows through", "Zimbabwe")),
    ),
    (
        "Victoria Falls",
        "Victoria Falls, the waterfall found on the Zambezi, lies between Zambia and Zimbabwe.",
        (
            T("Victoria Falls", "lies on", "Zambezi"),
            T("Victoria Falls", "lies between", "Zambia"),
            T("Victoria Falls", "lies between", "Zimbabwe"),
        ),
    ),
    (
        "Metlako Falls",
        "Metlako Falls is the name of a waterfall on Eagle Creek in the country's Columbia River Gorge.",
        (T("Metlako Falls", "is on", "Eagle Creek"),),
    ),
    (
        "Hopetoun Falls",
        "Hopetoun Falls is the name of a waterfall on the Aire River in the country of Australia.",
        (T("Hopetoun Falls", "is on", "Aire River"),),
    ),
    (
        "Devon Falls",
        "Devon Falls is the name of a waterfall in the country of New Zealand, found near Taranaki.",
        (T("Devon Falls", "is near", "Taranaki"),),
    ),
    (
        "Limpopo River",
        "The Limpopo River rises in South Africa and flows east to the Indian Ocean.",
        (T("Limpopo River", "rises in", "South Africa"), T("Limpopo River", "flows to", "Indian Ocean")),
    ),
]
QUESTION = "What is the name of the waterfall in the country where the Bubye River is found?"


def _write(graph, embedder, passages) -> dict[str, str]:
    write_chunks(
        graph, embedder, [SourceChunk("doc", t, text, i, triples) for i, (t, text, triples) in enumerate(passages)]
    )
    return {p.title: p.id for p in graph.iter_passages()}


def test_the_answer_passage_is_reached_through_the_bridge_entity_the_first_passage_names(graph, embedder):
    ids = _write(graph, embedder, PASSAGES)
    tr = retrieve(QUESTION, graph, embedder, QueryParams(passage_top_k=3))
    top = [p.title for p in tr.passages.passages]
    assert top[0] == "Bubye River"
    assert "Victoria Falls" in top  # without the link, the three look-alike waterfalls fill the top 3
    falls = next(p for p in tr.passages.passages if p.title == "Victoria Falls")
    assert (falls.source, falls.named_by) == ("linked", ids["Bubye River"])
    # the Ask page's step text and table say how it was found
    assert "1 sharing an entity with an evidence passage" in explain(tr, Step.ANSWER)
    table, _ = step_table(tr, Step.ANSWER)
    assert "shares an entity with “Bubye River”" in list(table["found by"])


def test_an_entity_many_passages_name_links_each_of_them_less_than_a_rare_one(graph, embedder):
    towns = [
        (f"Town {n}", f"Town {n} is a market town in Zimbabwe's Matabeleland.", (T(f"Town {n}", "is in", "Zimbabwe"),))
        for n in range(4)
    ]
    ids = _write(graph, embedder, PASSAGES[:2] + towns)
    river = T("Bubye River", "is a tributary of", "Limpopo River")
    rid = relation_id(river.subject, river.predicate, river.object)
    rels = {r.id: r for r in graph.get_relations([rid])}
    pool = {p.id: (p, v) for p, v in graph.get_with_vectors("passages", [ids["Bubye River"]])}
    evidence = evidence_scores([ScoredId(rid, 0.9, "graph")], rels)
    assert evidence == {ids["Bubye River"]: 0.9}
    linked = linked_passages(graph, pool, evidence, {entity_id("Bubye River")})
    # Zimbabwe is named by 5 other passages: each gets a fifth; Limpopo River by no other passage (no link)
    assert set(linked) == {ids["Victoria Falls"]} | {ids[f"Town {n}"] for n in range(4)}
    assert linked[ids["Victoria Falls"]] == (ids["Bubye River"], pytest.approx(0.9 / 5))
    # the question's own names are no bridges
    assert linked_passages(graph, pool, evidence, {entity_id("Bubye River"), entity_id("Zimbabwe")}) == {}


def test_only_the_best_facts_passage_is_followed_not_a_look_alikes(graph, embedder):
    # the third selected fact is the look-alike Hopetoun Falls's ("is on Aire River"); the Aire River's own passage
    # shares that entity with it, and nothing with the river the question asks about: following it would only spread
    # the look-alike further
    aire = ("Rivers of the Otway Ranges", "The Aire River rises in the Otway Ranges and flows into Bass Strait.",
            (T("Aire River", "rises in", "Otway Ranges"),))  # fmt: skip
    ids = _write(graph, embedder, [*PASSAGES, aire])
    tr = retrieve(QUESTION, graph, embedder, QueryParams(passage_top_k=10))
    rels = {r.id: r for r in tr.relations}
    evidence = [pid for rid in tr.rerank.selected[:3] for pid in rels[rid].passage_ids]
    assert ids["Hopetoun Falls"] in evidence  # the look-alike is an evidence passage ...
    source = {p.title: (p.source, p.named_by) for p in tr.passages.passages}
    assert source["Victoria Falls"] == ("linked", ids["Bubye River"])
    assert source["Rivers of the Otway Ranges"][1] != ids["Hopetoun Falls"]  # ... but its links are not followed


def test_a_passage_outside_the_questions_scope_is_never_linked(graph, embedder):
    ids = _write(graph, embedder, PASSAGES)
    scope = Scope(excluded=frozenset({ids["Victoria Falls"]}))
    tr = retrieve(QUESTION, graph, embedder, QueryParams(passage_top_k=10), scope=scope)
    listed = [p.id for p in tr.passages.passages] + list(tr.passages.cut)
    assert ids["Victoria Falls"] not in listed and ids["Bubye River"] in listed

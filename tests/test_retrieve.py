from __future__ import annotations

import json

import pytest

from vgrag.config import QueryParams
from vgrag.models import Triple
from vgrag.query.baselines import retrieve_naive
from vgrag.query.pipeline import run_query
from vgrag.query.retrieve import retrieve
from vgrag.query.trace import trace_from_dict
from vgrag.storage.writer import SourceChunk, write_chunks
from vgrag.text import entity_id, relation_id

FACTS = [
    ("Alice Smith founded Acme Corp in 1990.", Triple("Alice Smith", "founded", "Acme Corp")),
    ("Acme Corp is headquartered in Springfield.", Triple("Acme Corp", "is headquartered in", "Springfield")),
    ("Bob Jones works at Acme Corp.", Triple("Bob Jones", "works at", "Acme Corp")),
    ("Springfield is located in Oregon.", Triple("Springfield", "is located in", "Oregon")),
    (
        "Zenith Labs, the company Carol Lee founded, is headquartered in Shelbyville.",
        Triple("Zenith Labs company", "is headquartered in", "Shelbyville"),
    ),
    ("Carol Lee founded Zenith Labs.", Triple("Carol Lee", "founded", "Zenith Labs company")),
]
Q = "In which city is the company founded by Alice Smith headquartered?"


def rid(t: Triple) -> str:
    return relation_id(t.subject, t.predicate, t.object)


@pytest.fixture
def small(graph, embedder):
    write_chunks(graph, embedder, [SourceChunk("doc", "facts", text, i, (t,)) for i, (text, t) in enumerate(FACTS)])
    return graph


def test_exact_hop_sets_from_an_exact_name(small, embedder):
    p = QueryParams(entity_top_k=0, relation_top_k=0, hops=2, eviction_cap=100)
    tr = retrieve(Q, small, embedder, p)
    assert [q.text for q in tr.query_entities.entities if q.method == "exact-name"] == ["Alice Smith"]
    assert [s.id for s in tr.seeds.entity_hits] == [entity_id("Alice Smith")]
    h1, h2 = tr.hops
    assert set(h1.new_relation_ids) == {rid(FACTS[0][1])}
    assert set(h1.new_entity_ids) == {entity_id("Acme Corp")}
    assert set(h2.new_relation_ids) == {rid(FACTS[1][1]), rid(FACTS[2][1])}
    assert set(h2.new_entity_ids) == {entity_id("Springfield"), entity_id("Bob Jones")}
    tr1 = retrieve(Q, small, embedder, QueryParams(entity_top_k=0, relation_top_k=0, hops=1))
    assert len(tr1.hops) == 1 and {r.id for r in tr1.relations} == {rid(FACTS[0][1])}
    tr0 = retrieve(Q, small, embedder, QueryParams(entity_top_k=0, relation_top_k=0, hops=0))
    assert tr0.hops == () and tr0.relations == ()


def test_eviction_keeps_the_relations_closest_to_the_question(small, embedder):
    p = QueryParams(entity_top_k=0, relation_top_k=0, hops=2, eviction_cap=2)
    tr = retrieve(Q, small, embedder, p)
    assert (tr.eviction.before, tr.eviction.after, tr.eviction.cap) == (3, 2, 2)
    kept = {r.id for r in tr.relations}
    sims = {
        r.id: r.similarity
        for r in retrieve(Q, small, embedder, QueryParams(entity_top_k=0, relation_top_k=0, hops=2)).relations
    }
    assert tr.eviction.evicted == (min(sims, key=sims.get),)
    assert min(sims[k] for k in kept) >= sims[tr.eviction.evicted[0]]
    assert not set(tr.eviction.evicted) & {c.id for c in tr.rerank.candidates}  # evicted means gone


def test_graph_rerank_prefers_the_bridge_path_over_a_lookalike(small, embedder):
    base = dict(entity_top_k=0, relation_top_k=3, hops=2, sim_threshold=0.0)
    acme_hq, zenith_hq = rid(FACTS[1][1]), rid(FACTS[4][1])
    sim = retrieve(Q, small, embedder, QueryParams(rerank="similarity", **base)).rerank
    order = [c.id for c in sim.candidates]
    assert order.index(zenith_hq) < order.index(acme_hq)  # the lookalike is lexically closer
    graph_rr = retrieve(Q, small, embedder, QueryParams(rerank="graph", **base)).rerank
    order = [c.id for c in graph_rr.candidates]
    assert graph_rr.method == "graph"
    assert order.index(acme_hq) < order.index(zenith_hq)  # PageRank from Alice Smith flows via Acme Corp


def test_answer_cites_passages_and_shows_the_path(small, embedder):
    tr = run_query(Q, small, embedder, QueryParams(hops=2, passage_top_k=3))
    assert tr.answer.method == "extractive" and tr.answer.citations
    assert all(f"[{c.n}]" in tr.answer.text for c in tr.answer.citations)
    paths = [[tr.relation(r).text for r in p] for p in tr.answer.paths]
    assert ["Alice Smith founded Acme Corp", "Acme Corp is headquartered in Springfield"] in paths
    assert "Springfield" in " ".join(p.text for p in tr.passages.passages)
    assert tr.llm_calls == ()


def test_naive_baseline_has_the_same_trace_shape(small, embedder):
    tr = retrieve_naive(Q, small, embedder, QueryParams(passage_top_k=2))
    assert tr.method == "naive" and len(tr.passages.passages) == 2
    assert all(p.source == "dense" for p in tr.passages.passages)
    assert tr.passages.passages[0].score >= tr.passages.passages[1].score


def test_trace_survives_json_round_trip(small, embedder):
    tr = run_query(Q, small, embedder, QueryParams(hops=2))
    back = trace_from_dict(json.loads(tr.to_json()))
    assert back == tr


def test_empty_graph_and_empty_question(graph, embedder):
    tr = run_query("Who founded anything?", graph, embedder)
    assert tr.passages.passages == () and "No passage" in tr.answer.text
    with pytest.raises(ValueError, match="Ask a question"):
        run_query("   ", graph, embedder)


def test_words_find_a_rare_name_that_dense_search_ranks_below_lookalikes(graph, embedder):
    """BM25 weighs a rare name above common question words: the hybrid baseline and the graph's passage step
    (lexical fusion on, the default) return the one passage naming "Zorblax Quintessa"; dense search alone ranks
    30 look-alike passages above it."""
    from dataclasses import replace

    from vgrag.query.baselines import retrieve_hybrid

    filler = [
        SourceChunk(
            "doc", f"Filler {i}", f"Which city company was founded where and headquartered in which city {i}?", i
        )
        for i in range(30)
    ]
    target = SourceChunk(
        "doc", "Notes", "Zorblax Quintessa moved to Tromsø.", 99, (Triple("Zorblax Quintessa", "moved to", "Tromsø"),)
    )
    write_chunks(graph, embedder, filler + [target])
    q = "Which city was the company of Zorblax Quintessa founded and headquartered in?"
    p = QueryParams(passage_top_k=5)

    def found(trace) -> bool:
        return any(x.title == "Notes" for x in trace.passages.passages)

    assert not found(retrieve_naive(q, graph, embedder, p))
    assert found(retrieve_hybrid(q, graph, embedder, p))
    assert found(retrieve(q, graph, embedder, p))
    off = retrieve(q, graph, embedder, replace(p, lexical="off"))
    assert found(off)  # the graph reaches it anyway, by the exact entity name in the question
    assert all(x.source != "lexical" for x in off.passages.passages)


def test_personalised_pagerank_matches_networkx_on_random_subgraphs():
    """The rerank's PageRank (numpy power iteration) reaches networkx's fixed point: parallel relations add up,
    self-loops count once, restarts only at seeds inside the subgraph."""
    import random

    import networkx as nx

    from vgrag.config import QueryParams
    from vgrag.models import Relation
    from vgrag.query.rerank import RerankInput, entity_ppr

    rng = random.Random(5)
    for trial in range(20):
        names = [f"e{i}" for i in range(rng.randint(2, 40))]
        rels, sims = {}, {}
        for j in range(rng.randint(1, 80)):
            s, o = rng.choice(names), rng.choice(names)  # repeats and self-loops on purpose
            rid = f"r{trial}_{j}"
            rels[rid] = Relation(rid, s, "p", o, s, o, ())
            sims[rid] = rng.uniform(-0.2, 0.9)
        seeds = {rng.choice(names): rng.uniform(0.1, 1.0) for _ in range(3)} | {"not-in-subgraph": 1.0}
        params = QueryParams()
        mine = entity_ppr(RerankInput("q", rels, sims, seeds, params))
        g = nx.Graph()
        for rid, r in rels.items():
            w = max(sims[rid], 0.01)
            if g.has_edge(r.subject_id, r.object_id):
                g[r.subject_id][r.object_id]["weight"] += w
            else:
                g.add_edge(r.subject_id, r.object_id, weight=w)
        personal = {e: s for e, s in seeds.items() if e in g}
        if not personal:
            assert mine == {}
            continue
        ref = nx.pagerank(g, alpha=params.ppr_damping, personalization=personal, weight="weight", tol=1e-8)
        assert set(mine) == set(ref)
        assert max(abs(mine[e] - ref[e]) for e in ref) < 1e-9, trial


def test_a_name_ending_in_a_stop_word_is_matched_exactly(graph, embedder):
    """ "Black Hawk Down" ends in a stop word: its n-gram must still be looked up as an exact name."""
    write_chunks(graph, embedder, [SourceChunk("doc", "film", "Ridley Scott directed Black Hawk Down.", 0,
                                               (Triple("Ridley Scott", "directed", "Black Hawk Down"),))])  # fmt: skip
    trace = retrieve("Who directed Black Hawk Down?", graph, embedder)
    exact = [q for q in trace.query_entities.entities if q.method == "exact-name"]
    assert [q.text for q in exact] == ["Black Hawk Down"] and exact[0].entity_id == entity_id("Black Hawk Down")
    assert "What" not in " ".join(q.text for q in retrieve("What is Black Hawk Down?", graph, embedder)
                                  .query_entities.entities if q.method == "exact-name")  # fmt: skip


def test_a_name_in_the_possessive_is_matched_exactly(small, embedder):
    """ "Alice Smith's company": the name is Alice Smith (and an exact name that ends in 's, "McDonald's", still is)."""
    write_chunks(small, embedder, [SourceChunk("doc", "food", "McDonald's opened in Springfield in 1961.", 9,
                                               (Triple("McDonald's", "opened in", "Springfield"),))])  # fmt: skip
    tr = retrieve("In which city is Alice Smith's company headquartered?", small, embedder)
    exact = [q for q in tr.query_entities.entities if q.method == "exact-name"]
    assert [(q.text, q.entity_id) for q in exact] == [("Alice Smith", entity_id("Alice Smith"))]
    assert not [q for q in tr.query_entities.entities if q.entity_id is None]  # nothing left to guess by meaning
    tr = retrieve("Where did McDonald's open?", small, embedder)
    assert [q.entity_id for q in tr.query_entities.entities if q.method == "exact-name"] == [entity_id("McDonald's")]

from __future__ import annotations

from test_retrieve import FACTS, Q, rid

from vgrag.config import QueryParams
from vgrag.present.diagnose import explain_entity, explain_passage
from vgrag.query.retrieve import retrieve
from vgrag.storage.writer import SourceChunk, write_chunks
from vgrag.text import entity_id


def _graph(graph, embedder):
    chunks = [SourceChunk("doc", "facts", t, i, (tr,)) for i, (t, tr) in enumerate(FACTS)]
    write_chunks(graph, embedder, chunks)
    return {FACTS[i][1].object: c.passage_id for i, c in enumerate(chunks)}


def _passages(graph):
    return [SourceChunk("doc", "facts", t, i, (tr,)).passage_id for i, (t, tr) in enumerate(FACTS)]


def test_each_way_a_passage_can_drop_out(graph, embedder):
    pid = _graph(graph, embedder)
    exact = dict(entity_top_k=0, relation_top_k=0)
    one_hop = retrieve(Q, graph, embedder, QueryParams(hops=1, passage_top_k=1, **exact))
    assert explain_passage(one_hop, graph, one_hop.passage_ids()[0]).step == "retrieved"
    # "Springfield is located in Oregon" is two hops past Acme Corp: out of reach with one hop
    assert explain_passage(one_hop, graph, pid["Oregon"]).step in ("beyond hop limit", "never a seed")
    two = retrieve(Q, graph, embedder, QueryParams(hops=2, passage_top_k=1, rerank_keep=1, **exact))
    d = explain_passage(two, graph, pid["Springfield"])
    assert d.step in ("not selected by rerank", "cut at top-k"), d
    capped = retrieve(Q, graph, embedder, QueryParams(hops=2, eviction_cap=1, passage_top_k=1, **exact))
    by_relation = {rid(t): p for (_, t), p in zip(FACTS, _passages(graph), strict=True)}
    evicted_pid = by_relation[capped.eviction.evicted[0]]
    assert explain_passage(capped, graph, evicted_pid).step == "evicted"


def test_entity_diagnosis(graph, embedder):
    _graph(graph, embedder)
    tr = retrieve(Q, graph, embedder, QueryParams(hops=1, entity_top_k=0, relation_top_k=0))
    assert explain_entity(tr, graph, entity_id("Acme Corp")).step == "retrieved"
    assert explain_entity(tr, graph, entity_id("Oregon")).step == "beyond hop limit"
    assert explain_entity(tr, graph, entity_id("nobody")).detail == "no such entity in this graph"

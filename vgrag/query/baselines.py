"""The baselines a user would pick without a graph, in the same trace shape as the graph method: dense passage
search alone (naive), and dense + BM25 fused by reciprocal rank (hybrid)."""

from __future__ import annotations

import time
from collections.abc import Sequence

from ..config import QueryParams
from ..embed import Embedder, embed_queries
from ..models import Passage
from ..storage.store import Graph
from .scope import Scope, lexical_search, scope_for, search
from .state import QueryState
from .trace import PassageStep, QueryTrace, RankedPassage, ms_since


def retrieve_naive(
    question: str, graph: Graph, embedder: Embedder, params: QueryParams = QueryParams(), scope: Scope | None = None
) -> QueryTrace:
    """Dense passage retrieval alone, as the baseline, in the same trace shape; only the scope's passages."""
    t_all = time.perf_counter()
    scope = scope if scope is not None else scope_for(graph, params)
    qvec = embed_queries(embedder, [question])[0]
    t0 = time.perf_counter()
    hits = search(graph, "passages", qvec[None, :], params.passage_top_k, scope)[0]
    ps = tuple(
        RankedPassage(
            id=h.record.id,
            title=h.record.title,
            text=h.record.text,
            score=round(h.score, 4),
            source="dense",
            sentences=h.record.sentences,
        )  # type: ignore[union-attr]
        for h in hits
    )
    step = PassageStep(passages=ps, dense_ids=tuple(p.id for p in ps), cut=(), ms=ms_since(t0))
    ms = ms_since(t_all)
    return QueryTrace(question, "naive", params, passages=step, total_ms=ms, retrieval_ms=ms,
                      state=QueryState(question, qvec, scope=scope))  # fmt: skip


RRF_K = 60  # reciprocal rank fusion's usual constant (Cormack, Clarke & Büttcher 2009); not tuned here


def rrf(rankings: Sequence[Sequence[str]], k: int = RRF_K) -> list[tuple[str, float]]:
    """Reciprocal rank fusion of id rankings: sum of 1/(k + rank), best first (ties by first appearance)."""
    score: dict[str, float] = {}
    for ranking in rankings:
        for rank, i in enumerate(ranking, 1):
            score[i] = score.get(i, 0.0) + 1.0 / (k + rank)
    return sorted(score.items(), key=lambda x: -x[1])


def retrieve_hybrid(
    question: str, graph: Graph, embedder: Embedder, params: QueryParams = QueryParams(), scope: Scope | None = None
) -> QueryTrace:
    """The baseline a user would pick without a graph: dense + BM25 passage search fused by reciprocal rank."""
    t_all = time.perf_counter()
    scope = scope if scope is not None else scope_for(graph, params)
    qvec = embed_queries(embedder, [question])[0]
    t0 = time.perf_counter()
    depth = 2 * params.passage_top_k
    dense = search(graph, "passages", qvec[None, :], depth, scope)[0]
    lexical = lexical_search(graph, [question], depth, scope)[0]
    fused = rrf([[h.record.id for h in dense], [pid for pid, _ in lexical]])[: params.passage_top_k]
    records: dict[str, Passage] = {h.record.id: h.record for h in dense}  # type: ignore[misc]
    records.update((p.id, p) for p in graph.get_passages([pid for pid, _ in fused if pid not in records]))
    ps = tuple(
        RankedPassage(
            id=pid,
            title=records[pid].title,
            text=records[pid].text,
            score=round(sc, 5),
            source="dense",
            sentences=records[pid].sentences,
        )
        for pid, sc in fused
        if pid in records
    )
    step = PassageStep(passages=ps, dense_ids=tuple(h.record.id for h in dense), cut=(), ms=ms_since(t0))
    ms = ms_since(t_all)
    return QueryTrace(question, "hybrid", params, passages=step, total_ms=ms, retrieval_ms=ms,
                      state=QueryState(question, qvec, scope=scope))  # fmt: skip

"""Offline reranks of candidate relations: similarity alone, and personalised PageRank over the subgraph."""

from __future__ import annotations

import time
from dataclasses import dataclass

import networkx as nx

from .config import QueryParams
from .models import Relation
from .trace import RerankStep, ScoredId


@dataclass(frozen=True)
class RerankInput:
    question: str
    rels: dict[str, Relation]
    sims: dict[str, float]  # cosine similarity of each relation to the question
    personalization: dict[str, float]  # seed entity → seed score
    params: QueryParams


def _step(method: str, scores: dict[str, float], keep: int, t0: float, error: str | None = None) -> RerankStep:
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    cands = tuple(ScoredId(rid, round(s, 5), method) for rid, s in ranked)
    return RerankStep(
        method, cands, tuple(rid for rid, _ in ranked[:keep]), round((time.perf_counter() - t0) * 1000, 2), error=error
    )


def rerank_similarity(inp: RerankInput) -> RerankStep:
    """Relations ordered by cosine similarity to the question."""
    t0 = time.perf_counter()
    return _step("similarity", {r: inp.sims.get(r, 0.0) for r in inp.rels}, inp.params.rerank_keep, t0)


def entity_ppr(inp: RerankInput) -> dict[str, float]:
    """Personalised PageRank over the candidate subgraph: edges weighted by relation similarity, restarts at seeds."""
    g = nx.Graph()
    for rid, r in inp.rels.items():
        w = max(inp.sims.get(rid, 0.0), 0.01)
        if g.has_edge(r.subject_id, r.object_id):
            g[r.subject_id][r.object_id]["weight"] += w
        else:
            g.add_edge(r.subject_id, r.object_id, weight=w)
    personal = {e: s for e, s in inp.personalization.items() if e in g and s > 0}
    if not personal or g.number_of_edges() == 0:
        return {}
    return nx.pagerank(
        g, alpha=inp.params.ppr_damping, personalization=personal, weight="weight", max_iter=200, tol=1e-8
    )


def rerank_graph(inp: RerankInput) -> RerankStep:
    """Relations scored by their similarity and by the PageRank mass of the entities they join.

    Both parts are scaled to [0, 1] by their maximum and averaged, so a relation that bridges two
    strongly reached entities can outrank a lexically closer relation that leads nowhere.
    """
    t0 = time.perf_counter()
    if not inp.rels:
        return _step("graph", {}, inp.params.rerank_keep, t0)
    ppr = entity_ppr(inp)
    if not ppr:
        return _step(
            "similarity",
            {r: inp.sims.get(r, 0.0) for r in inp.rels},
            inp.params.rerank_keep,
            t0,
            error="no seed entity in the subgraph: ranked by similarity",
        )
    pair = {rid: ppr.get(r.subject_id, 0.0) + ppr.get(r.object_id, 0.0) for rid, r in inp.rels.items()}
    top_pair = max(pair.values()) or 1.0
    top_sim = max(max(inp.sims.get(r, 0.0) for r in inp.rels), 1e-9)
    scores = {rid: 0.5 * max(inp.sims.get(rid, 0.0), 0.0) / top_sim + 0.5 * pair[rid] / top_pair for rid in inp.rels}
    return _step("graph", scores, inp.params.rerank_keep, t0)

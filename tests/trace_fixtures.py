"""Small hand-made QueryTraces for the pure comparison and funnel tests: every step's ids chosen so each step's
difference and each gold passage's fate is known by reading them."""

from __future__ import annotations

from vgrag.config import QueryParams
from vgrag.query.trace import (
    AnswerStep,
    EntityView,
    Evidence,
    EvictionStep,
    HopStep,
    PassageStep,
    QueryEntitiesStep,
    QueryEntity,
    QueryTrace,
    RankedPassage,
    RelationView,
    RerankStep,
    ScoredId,
    SeedStep,
)

# relation id -> (subject, object, passages)
RELS = {
    "r1": ("a", "b", ("p1",)),
    "r2": ("b", "c", ("p2",)),
    "r3": ("c", "d", ("p3",)),
    "r4": ("d", "e", ("p4",)),
    "r5": ("a", "f", ("p5",)),
}


def view(rid: str) -> RelationView:
    s, o, ps = RELS[rid]
    return RelationView(rid, s.upper(), "links", o.upper(), s, o, ps, 0.5)


def trace(
    seeds=("r1",),
    hop1=("r2",),
    hop2=(),
    evicted=(),
    selected=("r1", "r2"),
    ranked=("p1", "p2"),
    cut=(),
    dense=(),
    hops=1,
    path=("r1",),
    evidence=("A links B.",),
    method="graph",
    cap=200,
) -> QueryTrace:
    """A graph run: seed relations, the relations each hop found, those evicted, the rerank's selection, and the
    ranked passages (plus those cut below the top k)."""
    hop_steps = [HopStep(1, tuple(x for r in hop1 for x in RELS[r][:2]), tuple(hop1), 1.0)]
    if hops >= 2:
        hop_steps.append(HopStep(2, tuple(x for r in hop2 for x in RELS[r][:2]), tuple(hop2), 1.0))
    alive = [r for r in (*seeds, *hop1, *hop2) if r not in evicted]
    cands = tuple(ScoredId(r, 1.0 - n / 10) for n, r in enumerate(alive))
    passages = tuple(RankedPassage(p, p.upper(), f"text {p}", 1.0 - n / 10, "graph") for n, p in enumerate(ranked))
    ents = sorted({x for r in alive for x in RELS[r][:2]})
    return QueryTrace(
        question="Who links A?",
        method=method,
        params=QueryParams(hops=hops, eviction_cap=cap),
        query_entities=QueryEntitiesStep((QueryEntity("A", "exact-name", "a"),), 1.0),
        seeds=SeedStep((ScoredId("a", 1.0, "A"),), tuple(ScoredId(r, 0.8) for r in seeds), (), 1.0),
        hops=tuple(hop_steps),
        eviction=EvictionStep(len(alive) + len(evicted), len(alive), cap, tuple(evicted), 1.0),
        rerank=RerankStep("graph", cands, tuple(selected), 1.0),
        passages=PassageStep(passages, tuple(dense), tuple(cut), 1.0),
        answer=AnswerStep(
            "answer",
            (),
            (tuple(path),),
            "extractive",
            1.0,
            short="B",
            evidence=tuple(Evidence(1, "p1", "P1", s) for s in evidence),
        ),  # fmt: skip
        entities=tuple(EntityView(e, e.upper()) for e in ents),
        relations=tuple(view(r) for r in alive),
    )


def naive(ranked=("p1", "p3"), dense=("p1", "p3", "p4")) -> QueryTrace:
    passages = tuple(RankedPassage(p, p.upper(), f"text {p}", 1.0, "dense") for p in ranked)
    return QueryTrace("Who links A?", "naive", QueryParams(), passages=PassageStep(passages, tuple(dense), (), 1.0))

"""Where the gold was lost: for a question whose expected passages are known, how many of them each step of a run
still reaches — seeds, each hop, eviction, rerank, the ranked pool, the top k — and the step that dropped each one.
A pure function over a trace and the gold; its last stage counts exactly what Recall@k counts (evaluation/bench.py)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..query.trace import QueryTrace, Step

NEVER = "never reached"


@dataclass(frozen=True)
class Gold:
    """One expected source: a label (a title, a document name, a passage key) and the passages that satisfy it —
    any one of them reached counts (a document is found when one of its passages is)."""

    label: str
    passage_ids: frozenset[str]


@dataclass(frozen=True)
class Stage:
    """A step of the run and the gold it still reaches (labels); `step` is the Ask page's step to open for it."""

    name: str
    step: Step
    reached: tuple[str, ...]

    @property
    def count(self) -> int:
        return len(self.reached)


@dataclass(frozen=True)
class GoldFate:
    """What became of one gold: retrieved at `rank`, or lost at the stage `lost_at` (NEVER: no stage reached it)."""

    label: str
    lost_at: str | None
    rank: int | None
    step: Step

    @property
    def found(self) -> bool:
        return self.lost_at is None


@dataclass(frozen=True)
class Funnel:
    stages: tuple[Stage, ...]
    fates: tuple[GoldFate, ...]
    k: int

    @property
    def n_gold(self) -> int:
        return len(self.fates)

    @property
    def final(self) -> int:
        return self.stages[-1].count if self.stages else 0

    @property
    def recall(self) -> float:
        """|gold in the top k| / |gold|, as bench.recall_at (0 for no gold)."""
        return self.final / self.n_gold if self.n_gold else 0.0

    def losing_step(self) -> Step | None:
        """The Ask step to open: where the first lost gold was dropped (None when every gold was retrieved)."""
        return next((f.step for f in self.fates if not f.found), None)


def _passages(t: QueryTrace, rids: Iterable[str], extra: Mapping[str, Sequence[str]]) -> set[str]:
    out: set[str] = set()
    for rid in rids:
        r = t.relation(rid)
        out.update(r.passage_ids if r is not None else extra.get(rid, ()))
    return out


def _stage_sets(t: QueryTrace, k: int, evicted: Mapping[str, Sequence[str]]) -> list[tuple[str, Step, set[str]]]:
    """(stage, Ask step, passage ids reachable there) in order."""
    ranked = [p.id for p in t.passages.passages] if t.passages else []
    top = set(ranked[:k])
    if t.method != "graph" or t.seeds is None:
        pool = set(ranked) | set(t.passages.dense_ids if t.passages else ())
        return [("search", Step.ANSWER, pool), ("top-k", Step.ANSWER, top)]
    rels = [s.id for s in t.seeds.relation_hits]
    out = [("seeds", Step.SEEDS, _passages(t, rels, evicted))]
    for h in sorted(t.hops, key=lambda h: h.depth):
        if h.depth <= t.params.hops:
            rels += h.new_relation_ids
            out.append((f"hop {h.depth}", Step.HOP_1 if h.depth == 1 else Step.HOP_2, _passages(t, rels, evicted)))
    for depth in range(len(t.hops) + 1, t.params.hops + 1):  # a hop that stopped early (no frontier) adds nothing
        out.append((f"hop {depth}", Step.HOP_1 if depth == 1 else Step.HOP_2, set(out[-1][2])))
    gone = set(t.eviction.evicted) if t.eviction else set()
    out.append(("eviction", Step.EVICTION, _passages(t, [r for r in rels if r not in gone], evicted)))
    out.append(("rerank", Step.RERANK, _passages(t, t.rerank.selected if t.rerank else (), evicted)))
    pool = set(ranked) | set(t.passages.cut if t.passages else ())
    out.append(("ranked", Step.ANSWER, pool))
    out.append(("top-k", Step.ANSWER, top))
    return out


def funnel(
    trace: QueryTrace,
    gold: Sequence[Gold],
    k: int | None = None,
    evicted_passages: Mapping[str, Sequence[str]] | None = None,
) -> Funnel:
    """How many gold each stage of the run reaches, and where each lost one was dropped: the stage after the last
    that reached it (a gold the graph lost at eviction but dense search found again is dropped where it fell last).

    `k`: the top-k cut (default: the run's whole list). `evicted_passages`: the passages of the relations the run
    evicted (the trace keeps no view of them; `evicted_relation_passages` reads them), so the hops count them."""
    ranked = [p.id for p in trace.passages.passages] if trace.passages else []
    k = len(ranked) if k is None else k
    sets = _stage_sets(trace, k, evicted_passages or {})
    stages = tuple(Stage(name, step, tuple(g.label for g in gold if g.passage_ids & ids)) for name, step, ids in sets)
    fates = []
    for g in gold:
        present = [bool(g.passage_ids & ids) for _, _, ids in sets]
        if present[-1]:
            rank = min(n for n, pid in enumerate(ranked[:k], 1) if pid in g.passage_ids)
            fates.append(GoldFate(g.label, None, rank, Step.ANSWER))
        elif not any(present):
            fates.append(GoldFate(g.label, NEVER, None, sets[0][1]))
        else:
            last = max(n for n, p in enumerate(present) if p)
            fates.append(GoldFate(g.label, sets[last + 1][0], None, sets[last + 1][1]))
    return Funnel(stages, tuple(fates), k)


def evicted_relation_passages(trace: QueryTrace, graph: object) -> dict[str, tuple[str, ...]]:
    """The passages of the relations the run evicted, read from the graph by id (one look-up)."""
    ids = list(trace.eviction.evicted) if trace.eviction else []
    return {r.id: tuple(r.passage_ids) for r in graph.get_relations(ids)} if ids else {}  # type: ignore[attr-defined]


@dataclass(frozen=True)
class FunnelTotals:
    """A question set's funnel: per stage, the gold reached summed over the questions, and the mean per-question
    share (the last stage's share is Recall@k); per stage, the lost gold dropped there."""

    stages: tuple[str, ...]
    reached: tuple[int, ...]
    share: tuple[float, ...]
    dropped: tuple[int, ...]
    n_gold: int
    n_questions: int


def totals(funnels: Sequence[Funnel]) -> FunnelTotals:
    """Sum funnels of the same method (same stage names; a question whose run has fewer hops counts its last)."""
    names: list[str] = []
    for f in funnels:
        for s in f.stages:
            if s.name not in names:
                names.append(s.name)
    order = {"seeds": 0, "hop 1": 1, "hop 2": 2, "eviction": 3, "rerank": 4, "search": 5, "ranked": 5, "top-k": 6}
    names.sort(key=lambda n: order.get(n, 9))
    reached, share, dropped = [0] * len(names), [0.0] * len(names), [0] * len(names)
    for f in funnels:
        by = {s.name: s.count for s in f.stages}
        for i, n in enumerate(names):
            c = by.get(n, by.get(names[i - 1], 0) if i else 0)
            reached[i] += c
            share[i] += c / f.n_gold if f.n_gold else 0.0
        for fate in f.fates:
            if fate.lost_at in names:
                dropped[names.index(fate.lost_at)] += 1
            elif fate.lost_at == NEVER:
                dropped[0] += 1
    n = len(funnels)
    return FunnelTotals(tuple(names), tuple(reached), tuple(round(100 * x / n, 1) if n else 0.0 for x in share),
                        tuple(dropped), sum(f.n_gold for f in funnels), n)  # fmt: skip

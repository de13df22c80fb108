"""Where the gold was lost (vgrag/present/funnel.py): hand-made traces whose every gold passage's fate is known."""

from __future__ import annotations

from trace_fixtures import naive, trace

from vgrag.present.funnel import NEVER, Gold, funnel, totals
from vgrag.query.trace import Step


def gold(*ids: str) -> list[Gold]:
    return [Gold(i.upper(), frozenset({i})) for i in ids]


def test_each_gold_is_named_with_the_step_that_dropped_it():
    t = trace(
        seeds=("r1",), hop1=("r2", "r3"), evicted=("r3",), selected=("r1", "r2"), ranked=("p1",), cut=("p2",),
        hops=1,
    )  # fmt: skip
    f = funnel(t, gold("p1", "p2", "p3", "p4"), evicted_passages={"r3": ("p3",)})
    assert [s.name for s in f.stages] == ["seeds", "hop 1", "eviction", "rerank", "ranked", "top-k"]
    assert [s.count for s in f.stages] == [1, 3, 2, 2, 2, 1]
    fate = {x.label: x for x in f.fates}
    assert fate["P1"].found and fate["P1"].rank == 1
    assert fate["P2"].lost_at == "top-k" and fate["P2"].step is Step.ANSWER
    assert fate["P3"].lost_at == "eviction" and fate["P3"].step is Step.EVICTION
    assert fate["P4"].lost_at == NEVER and fate["P4"].step is Step.SEEDS
    assert f.final == 1 and f.recall == 0.25 and f.losing_step() is Step.ANSWER


def test_the_rerank_drop_and_a_gold_dense_search_found_again():
    t = trace(seeds=("r1",), hop1=("r2", "r5"), selected=("r1",), ranked=("p1", "p5"), cut=())
    f = funnel(t, gold("p2", "p5"))
    fate = {x.label: x for x in f.fates}
    assert fate["P2"].lost_at == "rerank"
    assert fate["P5"].found and fate["P5"].rank == 2  # lost by the rerank, found again by the passage search


def test_a_gold_document_counts_once_when_any_of_its_passages_is_reached():
    t = trace(ranked=("p1", "p2"))
    f = funnel(t, [Gold("doc", frozenset({"p2", "p9"}))])
    assert f.final == 1 and f.fates[0].rank == 2


def test_the_top_k_cut_counts_what_recall_at_k_counts():
    from vgrag.evaluation.bench import recall_at

    t = trace(ranked=("p3", "p1", "p2"))
    for k in (1, 2, 3):
        f = funnel(t, gold("p1", "p2"), k=k)
        assert f.recall == recall_at(["p3", "p1", "p2"], frozenset({"p1", "p2"}), k)


def test_naive_runs_have_search_and_top_k_and_totals_sum_them():
    f1 = funnel(naive(ranked=("p1", "p3"), dense=("p1", "p3", "p4")), gold("p1", "p4", "p9"))
    assert [(s.name, s.count) for s in f1.stages] == [("search", 2), ("top-k", 1)]
    assert {x.label: x.lost_at for x in f1.fates} == {"P1": None, "P4": "top-k", "P9": NEVER}
    f2 = funnel(naive(ranked=("p2",), dense=("p2",)), gold("p2"))
    tot = totals([f1, f2])
    assert tot.stages == ("search", "top-k") and tot.reached == (3, 2) and tot.n_gold == 4
    assert tot.share[-1] == round(100 * (1 / 3 + 1) / 2, 1)
    assert tot.dropped == (1, 1)

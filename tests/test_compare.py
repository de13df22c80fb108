"""Two runs compared step by step (vgrag/present/compare.py), on hand-made traces whose differences are known."""

from __future__ import annotations

from trace_fixtures import naive, trace

from vgrag.present.compare import compare_runs, diff_graph, id_diff, passages_table, run_label
from vgrag.query.trace import Step


def test_id_diff_keeps_each_runs_order():
    d = id_diff(["x", "y", "z"], ["z", "w", "x"])
    assert d.kept == ("x", "z") and d.gained == ("w",) and d.lost == ("y",) and d.changed
    assert not id_diff(["a"], ["a"]).changed


def test_two_hops_against_one_gains_the_hop_2_step_and_its_relations():
    a = trace(hops=1)
    b = trace(hops=2, hop2=("r3",), selected=("r1", "r2", "r3"), ranked=("p3", "p1", "p2"))
    d = compare_runs(a, b)
    assert [k.name for k in d.knobs] == ["hops"] and (d.knobs[0].a, d.knobs[0].b) == ("1", "2")
    assert "hop 2" in d.step_labels
    hop2 = d.step(Step.HOP_2)
    assert not hop2.in_a and hop2.in_b
    assert hop2.relations.gained == ("r3",) and hop2.relations.lost == ()
    assert set(hop2.entities.gained) == {"c", "d"}
    assert not d.step(Step.SEEDS).changed and not d.step(Step.HOP_1).changed
    rerank = d.step(Step.RERANK)
    assert rerank.relations.gained == ("r3",) and rerank.relations.kept == ("r1", "r2")
    assert "d" in rerank.subgraph_entities.gained  # r3's far end stands in the new run's subgraph only


def test_the_final_passages_kept_gained_and_lost_with_their_ranks():
    a = trace(ranked=("p1", "p2", "p5"))
    b = trace(ranked=("p3", "p1", "p2"))
    moves = {m.id: m for m in compare_runs(a, b).passages}
    assert (moves["p3"].status, moves["p3"].rank_a, moves["p3"].rank_b) == ("gained", None, 1)
    assert (moves["p1"].status, moves["p1"].rank_a, moves["p1"].rank_b) == ("kept", 1, 2)
    assert (moves["p5"].status, moves["p5"].rank_a, moves["p5"].rank_b) == ("lost", 3, None)
    rows = passages_table(compare_runs(a, b))
    assert [r["status"] for r in rows] == ["gained", "kept", "kept", "lost"]  # B's order, then what only A had


def test_eviction_differences_and_evidence():
    a = trace(hop1=("r2", "r3"), cap=200, evidence=("A links B.", "B links C."))
    b = trace(hop1=("r2", "r3"), evicted=("r3",), cap=2, evidence=("A links B.",))
    d = compare_runs(a, b)
    ev = d.step(Step.EVICTION)
    assert ev.relations.gained == ("r3",)  # evicted in the new run only
    assert ev.subgraph_relations.lost == ("r3",)
    assert d.evidence.lost == ("B links C.",) and d.evidence.kept == ("A links B.",)
    assert {k.name for k in d.knobs} == {"eviction_cap"}


def test_graph_against_naive_names_the_method_and_loses_every_graph_step():
    a, b = trace(), naive()
    d = compare_runs(a, b)
    assert d.knobs[0].name == "method" and (d.knobs[0].a, d.knobs[0].b) == ("graph", "naive")
    assert d.step(Step.SEEDS).relations.lost == ("r1",)
    assert run_label(b, a) == "naive"


def test_the_difference_graph_colours_and_marks_what_changed():
    a = trace(hops=1)
    b = trace(hops=2, hop2=("r3",), selected=("r1", "r2", "r3"))
    d = compare_runs(a, b)
    g = diff_graph(a, b, d.step(Step.RERANK))
    roles = {n.id: n.role for n in g.nodes}
    assert roles["d"] == "gained" and roles["a"] == "both"
    assert next(n for n in g.nodes if n.id == "d").label.startswith("+ ")
    edge = next(e for e in g.edges if e.id == "r3")
    assert edge.role == "gained" and edge.label == "+ links"
    assert set(g.focus) == {"d"} and all(n.x is not None for n in g.nodes)
    same = diff_graph(a, a, compare_runs(a, a).step(Step.RERANK))
    assert {n.role for n in same.nodes} == {"both"}


def test_one_layout_for_every_step_of_a_comparison():
    """Nodes keep their place while stepping (and a step costs no layout): every step's graph at the pair's one
    layout."""
    from vgrag.present.compare import diff_layout

    a = trace(hops=1)
    b = trace(hops=2, hop2=("r3",), selected=("r1", "r2", "r3"))
    d = compare_runs(a, b)
    pos = diff_layout(a, b, d)
    for s in d.steps:
        g = diff_graph(a, b, s, pos=pos)
        assert all((n.x, n.y) == pos[n.id] for n in g.nodes), s.step

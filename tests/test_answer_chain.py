"""The answer step draws the chain that leads to the passages the answer cites (the top-ranked reasoning path could
lead elsewhere), and a comparison's answer step is coloured like the step-through's (it was all grey: both runs
selected the same relations)."""

from __future__ import annotations

from dataclasses import replace

from trace_fixtures import trace

from vgrag.present.chain import answer_chain
from vgrag.present.compare import compare_runs, diff_graph
from vgrag.present.viz import trace_graph
from vgrag.query.trace import Evidence, Step
from ui.compare import legend_html


def cited(t, paths, passage):
    """`t` whose answer ranks `paths` and cites one evidence sentence of `passage`."""
    ev = (Evidence(1, passage, passage.upper(), f"Sentence of {passage}."),)
    return replace(t, answer=replace(t.answer, paths=tuple(paths), evidence=ev))


def base(**kw):
    return trace(seeds=("r1", "r5"), hop1=("r2",), selected=("r1", "r5", "r2"), ranked=("p1", "p2", "p5"), **kw)


def path_edges(g):
    return {e.id for e in g.edges if e.role == "path"}


def test_the_drawn_chain_is_the_ranked_path_that_reaches_a_cited_passage():
    t = cited(base(), [("r5",), ("r1", "r2")], "p2")  # the top path (A–F) leads to no cited passage
    assert answer_chain(t) == ("r1", "r2")
    assert path_edges(trace_graph(t, Step.ANSWER)) == {"r1", "r2"}  # was {"r5"}
    # nothing cited: the top-ranked path, as before
    uncited = replace(t, answer=replace(t.answer, evidence=()))
    assert answer_chain(uncited) == ("r5",)


def test_when_no_ranked_path_reaches_a_cited_passage_the_shortest_chain_to_one_is_drawn():
    t = cited(base(), [("r5",)], "p2")
    assert answer_chain(t) == ("r1", "r2")  # from A (named in the question) to r2, stated in p2
    assert path_edges(trace_graph(t, Step.ANSWER)) == {"r1", "r2"}


def test_the_comparison_colours_its_answer_step_like_the_step_through():
    a = cited(base(), [("r1", "r2")], "p2")
    b = cited(base(hops=2, hop2=()), [("r1", "r2")], "p2")
    d = compare_runs(a, b)
    g = diff_graph(a, b, d.step(Step.ANSWER))
    roles = {e.id: e.role for e in g.edges}
    assert roles == {"r1": "path", "r2": "path", "r5": "context"}, roles  # was all "both" (grey)
    assert {n.id: n.role for n in g.nodes if n.role == "path"}.keys() == {"a", "b", "c"}
    assert set(g.focus) == {"a", "b", "c"}  # the view opens on the chain
    assert "reasoning path" in legend_html(g)  # the compare legend names the chain's colour
    # the runs' chains differ: each run's own part marked, the shared part in the path colour
    b2 = cited(base(hops=2, hop2=()), [("r5",)], "p5")
    g2 = diff_graph(a, b2, compare_runs(a, b2).step(Step.ANSWER))
    roles2 = {e.id: (e.role, e.label) for e in g2.edges}
    assert roles2["r5"] == ("gained", "+ links") and roles2["r1"] == ("lost", "− links"), roles2
    assert compare_runs(a, b2).step(Step.ANSWER).relations.gained == ("r5",)

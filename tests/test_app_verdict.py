"""The Ask page's verdict and document filter through AppTest (real Milvus Lite file, offline models)."""

from __future__ import annotations

from apptest import app_workspace, page


def _to_answer(at):
    steps = at.segmented_control(key="step_pick").options
    at.segmented_control(key="step_pick").set_value(steps[-1]).run()
    assert not at.exception and at.session_state["step"] == "answer"


def test_the_answer_step_shows_the_verdict_and_evidence_above_the_graph(app_env):
    at = page("pages/ask.py")
    at.text_input(key="question").input("What is Northwind Cloud's annual revenue?")
    at.button(key="ask").click().run()
    _to_answer(at)
    v = at.session_state["trace"].answer.verdict
    assert v.kind != "found"
    top = at.get("markdown")  # the verdict badge line and the step sentence both say it
    shown = [m.value for m in top if v.label.capitalize() in m.value]
    assert any(m.startswith((":red-badge[", ":orange-badge[")) for m in shown), shown  # the badge above the graph
    assert any(v.said.split(":")[0] in m.value for m in at.markdown if m.value.startswith("**Step"))
    html = " ".join(h.proto.body for h in at.get("html"))
    assert all(e.sentence.split()[0] in html for e in at.session_state["trace"].answer.evidence)


def test_excluding_the_only_document_leaves_nothing_to_read(app_env):
    at = page("pages/ask.py")
    docs = at.multiselect(key="exclude_docs")
    [doc] = app_workspace(at).documents("demo")
    assert docs.options == [doc.name]  # the demo graph's one document, shown by name
    docs.set_value([doc.id]).run()
    at.text_input(key="question").input("Who leads the team that owns Tollgate?")
    at.button(key="ask").click().run()
    assert not at.exception
    trace = at.session_state["trace"]
    assert trace.params.exclude_documents and not trace.passages.passages and not trace.relations
    assert trace.answer.verdict.kind == "missing"
    at.multiselect(key="exclude_docs").set_value([]).run()
    at.multiselect(key="only_docs").set_value([doc.id]).run()
    at.button(key="ask").click().run()
    trace = at.session_state["trace"]
    assert trace.params.only_documents and trace.passages.passages and trace.answer.verdict.kind != "missing"

"""The Ask page's comparison, stale mark, "How this works", marked gold and history, through AppTest against a real
Milvus Lite file and the offline models."""

from __future__ import annotations

from apptest import APP, T, page
from streamlit.testing.v1 import AppTest

Q = "Who is the escalation contact for the service that Beacon depends on?"


def _url(at) -> dict[str, str]:
    return {k: (v[0] if isinstance(v, list) else v) for k, v in ((k, at.query_params[k]) for k in at.query_params)}


def _ask(at, hops: int | None = None):
    if hops is not None:
        at.radio(key="hops").set_value(hops)
    at.button(key="ask").click().run()
    assert not at.exception, at.exception
    return at


def _compared(hops_a: int = 1, hops_b: int = 2):
    at = page("pages/ask.py")
    at.text_input(key="question").input(Q)
    _ask(at, hops_a)
    at.button(key="pin_btn").click().run()
    return _ask(at, hops_b)


def test_pin_change_a_knob_and_ask_again_shows_both_runs_step_by_step(app_env):
    at = _compared()
    a, b = at.session_state["pinned"], at.session_state["trace"]
    assert a is not b and (a.params.hops, b.params.hops) == (1, 2)
    steps = at.segmented_control(key="step_pick").options
    assert "hop 2" in [o.split(" ∅")[0] for o in steps]  # the union of both runs' steps
    text = " ".join(m.value for m in at.markdown)
    assert "**Pinned run** · graph · hops 1" in text and "**New run** · graph · hops 2" in text
    assert any("●" in m.value and "in both runs" in m.value for m in at.markdown)  # the legend
    at.segmented_control(key="step_pick").set_value("hop 2").run()
    assert not at.exception
    assert any("●" in m.value and "only in the new run" in m.value for m in at.markdown)
    assert "(this run has no such step)" in " ".join(m.value for m in at.markdown)  # the pinned run had 1 hop
    said = next(m.value for m in at.markdown if m.value.startswith("**This step in the new run"))
    assert "**+" in said and "relations**" in said and "−0" not in said
    at.segmented_control(key="step_pick").set_value("answer").run()
    statuses = set(next(d.value for d in at.dataframe if "rank in new run" in d.value.columns)["status"])
    assert statuses <= {"kept", "gained", "lost"} and statuses
    url = _url(at)
    assert url["a_hops"] == "1" and url["hops"] == "2" and url["a_q"] == Q and url["step"] == "answer"


def test_a_comparison_link_reopens_both_runs_at_the_same_step(app_env):
    at = _compared(hops_a=1, hops_b=2)
    at.segmented_control(key="step_pick").set_value("eviction").run()
    url = _url(at)
    again = AppTest.from_file(APP, default_timeout=T)
    for k, v in url.items():
        again.query_params[k] = v
    again.run()
    again.switch_page("pages/ask.py")
    for k, v in url.items():
        again.query_params[k] = v
    again.run()
    assert not again.exception, again.exception
    a, b = again.session_state["pinned"], again.session_state["trace"]
    assert (a.params.hops, b.params.hops) == (1, 2) and again.session_state["step"] == "eviction"
    assert a.passage_ids() == at.session_state["pinned"].passage_ids()
    assert "**Pinned run**" in " ".join(m.value for m in again.markdown)


def test_a_changed_knob_marks_the_run_stale_and_how_this_works_tells_the_runs_knobs(app_env):
    at = page("pages/ask.py")
    at.text_input(key="question").input(Q)
    at.number_input(key="k_psg").set_value(3)
    _ask(at)
    said = next(e for e in at.expander if e.label == "How this works").markdown[0].value
    assert "the top 3 (Passages)" in said  # the run's own knob, not the default 5
    assert not any("Stale" in m.value for m in at.markdown)
    at.number_input(key="cap").set_value(50).run()
    assert any("Stale: Eviction cap 200 → 50" in m.value for m in at.markdown)
    _ask(at)
    assert not any("Stale" in m.value for m in at.markdown)
    at.selectbox(key="method").select("naive").run()
    assert any("Method graph → naive" in m.value for m in at.markdown)
    _ask(at)
    said = next(e for e in at.expander if e.label == "How this works").markdown[0].value
    assert at.session_state["trace"].method == "naive" and said.startswith("The naive method uses no graph")


def test_marked_sources_show_where_each_was_lost_and_stay_in_the_url(app_env):
    at = page("pages/ask.py")
    at.text_input(key="question").input(Q)
    _ask(at)
    trace = at.session_state["trace"]
    kept = trace.passages.passages[0].title
    at.text_input(key="gold_sources").input(f"{kept} | No Such Title").run()
    assert not at.exception
    assert any("No Such Title" in w.value for w in at.warning)
    assert _url(at)["gold"] == f"{kept} | No Such Title"
    fates = next(d.value for d in at.dataframe if "fate" in d.value.columns)
    assert list(fates["fate"]) == ["retrieved at rank 1"]
    at.segmented_control(key="step_pick").set_value("answer").run()
    assert any("Expected sources reached: ranked 1 → top-k 1 of 1" in m.value for m in at.markdown)


def test_history_keeps_runs_and_comparisons_and_reopens_one(app_env):
    at = _compared()
    history = at.session_state["history"]
    assert len(history) == 2 and history[-1][0].startswith("Compare: ")  # the first run (pinned), the comparison
    first = history[0][1]
    at.button(key="history_1").click().run()  # newest first: the second is the first run
    assert not at.exception, at.exception
    assert at.session_state["trace"].params.hops == 1 and "pinned" not in at.session_state
    assert _url(at)["hops"] == first["hops"] and "a_q" not in _url(at)


def test_stepping_sends_each_steps_drawing_to_the_same_frame(app_env):
    """A step used to send a new HTML page (vis-network loaded and the network built again in the browser: most
    of a step's time there). The drawing is now one component that keeps its identity from step to step — the
    browser keeps its page and network — and receives each step's nodes, edges and framing as data."""
    import json

    from vgrag.present.compare import compare_runs, diff_graph, diff_layout
    from vgrag.present.drawing import vis_data
    from vgrag.query.trace import Step

    at = _compared()
    ids, views = set(), []
    for step in ("seeds", "hop 2", "answer"):
        at.segmented_control(key="step_pick").set_value(step).run()
        assert not at.exception, at.exception
        [drawing] = at.get("component_instance")
        graph = json.loads(drawing.proto.json_args)["graph"]
        ids.add(drawing.proto.id)
        views.append(graph["frame"]["view"])
        a, b = at.session_state["pinned"], at.session_state["trace"]
        d = compare_runs(a, b)
        want = vis_data(diff_graph(a, b, d.step(Step(step)), 60, diff_layout(a, b, d, 60)), f"compare · {step}")
        assert graph["nodes"] == want["nodes"] and graph["edges"] == want["edges"]
    assert len(ids) == 1 and views == ["compare · seeds", "compare · hop 2", "compare · answer"]
    assert not at.get("iframe")  # no page of its own per step


def test_two_questions_compared_show_each_question_as_text_and_the_change(app_env):
    """A new user pinned one question and asked another: no panel said which question each run asked, and
    "Changed:" listed only knobs (walk20 finding 6). A question is user text: shown as text, never as Markdown."""
    at = page("pages/ask.py")
    at.text_input(key="question").input(Q)
    _ask(at)
    at.button(key="pin_btn").click().run()
    other = "Who is the **on-call** engineer for Beacon?"
    at.text_input(key="question").input(other)
    _ask(at, 2)
    texts = [t.value for t in at.text]
    assert f"Question: {Q}" in texts and f"Question: {other}" in texts, texts
    caption = next(c.value for c in at.caption if c.value.startswith("Changed: "))
    assert caption.startswith("Changed: the question") and "hops 1 → 2" in caption, caption
    at.segmented_control(key="step_pick").set_value("eviction").run()
    said = " ".join(m.value for m in at.markdown).replace("\\", "")  # Markdown escapes
    # the eviction evicted nothing in either run, but the candidates standing after it differ: not "the same"
    assert "this step did the same in both; after it +" in said and "the same at this step" not in said, said

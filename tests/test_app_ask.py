"""The Ask page through Streamlit's AppTest, against a real Milvus Lite file and the offline models."""

from __future__ import annotations

from apptest import APP, ROOT, T, app_workspace, keyed_positions, opened, page, position
from streamlit.testing.v1 import AppTest


def test_ask_steps_through_to_the_answer(app_env):
    at = page("pages/ask.py")
    assert not at.exception
    at.selectbox(key="example").select("Who is the escalation contact for the service that Beacon depends on?").run()
    at.button(key="ask").click().run()
    assert not at.exception
    steps = at.segmented_control(key="step_pick").options  # Hops = 1: no hop-2 step drawing an empty graph
    assert [o.split(" ")[0] for o in steps] == ["query", "seeds", "hop", "eviction", "rerank", "answer"], steps
    for n in range(2, len(steps) + 1):
        at.button(key="next").click().run()
        assert not at.exception and any(f"Step {n}/{len(steps)}" in m.value for m in at.markdown)
    assert at.button(key="next").disabled
    assert any("Answer" in h.value for h in at.subheader)
    trace = at.session_state["trace"]
    assert trace.answer.short in ("", "Priya Raman")  # the right short answer or none, never a wrong one
    assert trace.answer.evidence and any(c.value.startswith("Evidence") for c in at.caption)  # evidence first
    table = at.dataframe[0].value  # the answer step's passages, numbered by rank
    titles = dict(zip(table["rank"], table["title"], strict=True))
    labels = [e.label for e in at.expander if e.label.startswith("\\[")]  # "[n] title", escaped Markdown
    assert trace.answer.citations and len(labels) == len(trace.answer.citations)
    for c in trace.answer.citations:  # the answer's [n] is the n-th listed passage, and its expander says so
        assert c.n in titles and titles[c.n] == c.title and f"[{c.n}]" in trace.answer.text
        assert any(lb.replace("\\", "") == f"[{c.n}] {c.title}" for lb in labels), labels
    assert trace.answer.citations and "Keystone" in " ".join(p.title for p in trace.passages.passages)
    at.radio(key="miss_kind").set_value("entity").run()
    at.text_input(key="miss_entity").input("Priya Raman").run()
    assert not at.exception
    assert any(i.value.startswith("**retrieved**") for i in at.info), [i.value for i in at.info]


def test_ask_with_an_unreachable_llm_endpoint_falls_back_and_says_so(app_env):
    from dataclasses import replace

    from vgrag.config import LLMSettings, Settings

    at = AppTest.from_file(APP, default_timeout=T)
    bad = LLMSettings(base_url="http://127.0.0.1:9/v1", api_key="x", timeout_s=5)
    at.session_state["settings"] = replace(Settings.from_env(), llm=bad)
    at.session_state["graph"] = at.session_state["select_graph"] = "demo"
    at.run()
    at.switch_page("pages/ask.py")
    at.run()
    at.text_input(key="question").input("Who leads the team that owns Tollgate?")
    at.button(key="ask").click().run()
    assert not at.exception
    assert any("LLM rerank failed" in w.value for w in at.warning), [w.value for w in at.warning]
    trace = at.session_state["trace"]
    assert trace.rerank.method == "graph" and trace.answer.method == "extractive"
    assert "unreachable" in trace.answer.error and len(trace.llm_calls) == 1  # the answer call was not attempted
    assert trace.rerank.llm.unreachable and len(trace.rerank.llm.attempts) == 2
    at.segmented_control(key="step_pick").set_value("answer").run()
    said = [w.value for w in at.warning]
    # the answer step's top says the model was not used, before the fallback notes under the evidence and graph
    assert said[0].startswith("The LLM was not used: its call failed, so this is the offline answer"), said


def test_the_run_lives_in_the_url_and_a_new_session_reopens_it(app_env):
    """Ask, two Next clicks: the URL holds graph, question, knobs and step; a new session opened on that URL (a
    reload, a copied link) shows the same question at the same step."""
    at = page("pages/ask.py")
    at.text_input(key="question").input("Who leads the team that owns Tollgate?")
    at.number_input(key="k_psg").set_value(4)
    at.button(key="ask").click().run()
    at.button(key="next").click().run()
    at.button(key="next").click().run()
    assert not at.exception
    url = {k: at.query_params[k] for k in at.query_params}
    url = {k: v[0] if isinstance(v, list) else v for k, v in url.items()}
    assert url["q"] == "Who leads the team that owns Tollgate?" and url["step"] == "hop 1", url
    assert url["graph"] == "demo" and url["k_psg"] == "4" and url["hops"] == "1", url
    again = AppTest.from_file(APP, default_timeout=T)
    for k, v in url.items():
        again.query_params[k] = v
    again.run()
    again.switch_page("pages/ask.py")
    for k, v in url.items():  # switch_page starts the page without them, as a sidebar click would
        again.query_params[k] = v
    again.run()
    assert not again.exception
    trace = again.session_state["trace"]
    assert trace.question == url["q"] and trace.params.passage_top_k == 4
    assert any("Step 3/6 · hop 1" in m.value for m in again.markdown), [m.value for m in again.markdown][:5]
    assert again.text_input(key="question").value == url["q"]


def test_an_empty_question_gets_a_message(app_env):
    at = page("pages/ask.py")
    at.button(key="ask").click().run()
    assert not at.exception and "trace" not in at.session_state
    assert any("Type a question first" in w.value for w in at.warning), [w.value for w in at.warning]


def test_a_failed_query_is_said_and_the_page_lives_on(app_env, monkeypatch):
    """Offline, Ask runs the query in its callback, before the page is drawn: a failure there is shown in the
    question row, not raised."""
    from vgrag.workspace import Workspace

    def fail(*args, **kwargs):
        raise RuntimeError("the store went away")

    monkeypatch.setattr(Workspace, "retrieve", fail)
    at = page("pages/ask.py")
    at.text_input(key="question").input("Who leads the team that owns Tollgate?").run()
    at.button(key="ask").click().run()
    assert not at.exception and "trace" not in at.session_state
    assert any("The query failed" in e.value and "the store went away" in e.value for e in at.error), at.error


def test_a_failed_answer_step_keeps_the_previous_run_whole(app_env, monkeypatch):
    """Naive retrieval was stored for the new question before the answer step ran: when that step failed, the old
    trace was shown beside the new question's naive passages."""
    from vgrag.workspace import Workspace

    at = page("pages/ask.py")
    at.text_input(key="question").input("Who leads the team that owns Tollgate?").run()
    at.button(key="ask").click().run()
    before = at.session_state["trace"]
    assert at.session_state["naive"].question == before.question

    answer = Workspace.answer

    def fail(self, trace, *args, **kwargs):  # the graph method's answer step only (naive's query answers too)
        if trace.method == "graph":
            raise RuntimeError("the answer step broke")
        return answer(self, trace, *args, **kwargs)

    monkeypatch.setattr(Workspace, "answer", fail)
    at.text_input(key="question").input("Who founded Northwind Cloud?").run()
    at.button(key="ask").click().run()
    assert not at.exception and any("the answer step broke" in e.value for e in at.error)
    assert at.session_state["trace"].question == at.session_state["naive"].question == before.question


def test_switching_graphs_clears_the_run(app_env):
    """The old graph's trace stayed on screen under the new graph's name; now it is cleared, saying so."""
    at = page("pages/ask.py")
    at.text_input(key="question").input("Who leads the team that owns Tollgate?")
    at.button(key="ask").click().run()
    assert "trace" in at.session_state and at.query_params["q"]
    app_workspace(at).import_triples(ROOT / "data" / "demo" / "northwind.jsonl", "copy_of_demo")
    at.run()  # the picker lists it
    assert "trace" in at.session_state
    at.sidebar.selectbox(key="graph_picker").select("copy_of_demo").run()
    assert not at.exception
    assert "trace" not in at.session_state and "q" not in at.query_params
    assert any("the run on “demo” was cleared" in i.value for i in at.info), [i.value for i in at.info]
    assert at.query_params["graph"] == "copy_of_demo"
    tab = page(demo=False)  # a new tab, no URL: it opens the graph in use, not the configured "demo"
    assert tab.sidebar.selectbox(key="graph_picker").value == "copy_of_demo"
    tab.sidebar.selectbox(key="graph_picker").select("demo").run()  # and back, for the tests that follow


def test_the_question_and_the_step_controls_keep_their_place(app_env, monkeypatch):
    """Streamlit knows an element by its place: one that moves between runs is drawn anew beside the old one until
    the run ends (two "Question" boxes after the one-time loading spinner; Next and the graph in Present mode)."""
    from vgrag.storage.store import Graph

    loaded = Graph.copies_loaded
    monkeypatch.setattr(Graph, "copies_loaded", lambda self: False)  # first visit: "Loading … into memory" spinner
    at = page("pages/ask.py")
    first = position(at, "question")
    monkeypatch.setattr(Graph, "copies_loaded", loaded)
    at.text_input(key="question").input("Who leads the team that owns Tollgate?").run()
    assert position(at, "question") == first
    at.button(key="ask").click().run()
    assert not at.exception and position(at, "question") == first
    controls = keyed_positions(at)
    assert {"question", "ask", "next", "prev", "step_pick", "all_nodes", "present_btn"} <= set(controls), controls
    # Present mode hides the question row but draws every element in the same place: a run cut short by the next
    # click clears nothing, so an element the Present run left out stayed on screen (the question row of the run
    # before, 84 px above the graph's frame, seen in the browser with both cores busy)
    at.button(key="present_btn").click().run()
    assert not at.exception and keyed_positions(at) == controls
    at.button(key="next").click().run()
    assert keyed_positions(at) == controls


def test_the_llm_calls_panel_follows_the_run(app_env, monkeypatch):
    """A keyed text area is known by its key alone: after a second Ask the "Prompt" box still held the first
    question's prompt. The panel now shows each run's own prompt and reply, as literal text."""
    from dataclasses import replace

    from llm_server import ScriptedServer

    import vgrag.llm
    from vgrag.config import LLMSettings, Settings

    server = ScriptedServer([lambda body: "*The answer* [1]." if body.get("stream") else '{"selected": [1, 2]}'])
    monkeypatch.setattr(vgrag.llm, "make_llm", lambda settings, cache_dir=None: server.llm())
    at = AppTest.from_file(APP, default_timeout=T)
    at.session_state["settings"] = replace(Settings.from_env(), llm=LLMSettings(base_url="http://llm.test/v1"))
    at.session_state["graph"] = at.session_state["select_graph"] = "demo"
    at.run()
    at.switch_page("pages/ask.py")
    at.run()
    shown = []
    for question in ("Who leads the team that owns Tollgate?", "Who founded Northwind Cloud?"):
        at.text_input(key="question").input(question)
        at.button(key="ask").click().run()
        assert not at.exception
        trace = at.session_state["trace"]
        assert trace.question == question and trace.llm_calls
        texts = [c.value for c in at.code] + [t.value for t in at.text]
        for call in trace.llm_calls:
            assert call.prompt in texts and question in call.prompt, [t[:60] for t in texts]
            assert call.raw_response in texts  # the reply's "*…*" stays literal, not Markdown
        shown.append([c.prompt for c in trace.llm_calls])
    assert shown[0] != shown[1]


def test_a_link_with_a_non_finite_number_falls_back_to_the_default(app_env):
    """`?thr=nan` passed the min/max clamp (every comparison with nan is false) and broke the page: "sim_threshold
    must be a number from -1 to 1, not nan". Every numeric parameter now refuses nan and ±inf: the default is used."""
    from ui.run_link import KNOBS

    for k in KNOBS:
        for raw in ("nan", "NaN", "inf", "-inf", "Infinity"):
            assert k.parse(raw) is None, (k.key, raw)
    thr = next(k for k in KNOBS if k.key == "thr")
    assert thr.parse("0.35") == 0.35 and thr.parse("7") == 1.0  # finite values are still clamped
    url = {"graph": "demo", "q": "Who leads the team that owns Tollgate?", "thr": "nan", "k_psg": "inf"}
    at = opened(url)
    trace = at.session_state["trace"]
    assert trace.question == url["q"] and trace.params.sim_threshold == thr.default
    assert at.session_state["thr"] == thr.default and at.slider(key="thr").value == thr.default


def _children(at: AppTest, key: str) -> list:
    """The elements drawn inside the container with `key` (its nested blocks' elements too)."""

    def walk(node, inside: bool) -> list:
        here = inside or getattr(node, "key", None) == key
        found = [node] if inside and not getattr(node, "children", None) else []
        for child in getattr(node, "children", {}).values():
            found += walk(child, here)
        return found

    return walk(at._tree, False)


def test_the_answer_steps_evidence_is_drawn_beside_the_same_graph(app_env):
    """The answer step's verdict and evidence are drawn in `answer_side`, with the legend row and the graph in
    `answer_row` (ui/answer_view.py sets them side by side in a window under 900 px tall): drawn above the row, they
    left the graph's frame 160 px at 1280×720. Every other step draws `answer_side` empty, and the drawing keeps one
    place on every step (the browser keeps its frame and network from step to step)."""
    at = page("pages/ask.py")
    at.selectbox(key="example").select("Who is the escalation contact for the service that Beacon depends on?").run()
    at.button(key="ask").click().run()
    places = set()
    for step in at.segmented_control(key="step_pick").options:
        at.segmented_control(key="step_pick").set_value(step).run()
        assert not at.exception, at.exception
        where = keyed_positions(at)
        row = where["answer_row"]
        assert [where[k][: len(row)] for k in ("answer_side", "graph_legend", "graph_frame")] == [row] * 3, where
        assert where["answer_side"] < where["graph_legend"] < where["graph_frame"], where  # in that order
        places.add(where["graph_drawing"])
        said = " ".join(str(getattr(e, "value", "")) for e in _children(at, "answer_side"))
        if step == "answer":
            assert at.session_state["trace"].answer.verdict.label.capitalize() in said, said  # the verdict's badge
            assert "Evidence, cited to the listed passages:" in said and "<mark" in said, said  # escaped, marked
        else:
            assert said.strip() == "", (step, said)
    assert len(places) == 1, places

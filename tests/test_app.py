"""Every page through Streamlit's AppTest, against a real Milvus Lite file and the offline models."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
T = 120


@pytest.fixture(scope="module")
def app_db(tmp_path_factory, minilm):
    """The app's database with the demo graph already in it (through the library), so no test depends on
    another having loaded it; closed again before the app opens it."""
    from milvus_lite.server_manager import server_manager_instance

    from vgrag import Settings, Workspace

    path = str(tmp_path_factory.mktemp("app") / "app.db")
    ws = Workspace.open(Settings(milvus_uri=path), minilm)
    ws.import_triples(ROOT / "data" / "demo" / "northwind.jsonl", "demo")
    ws.close()
    server_manager_instance.release_server(path)
    return path


@pytest.fixture
def app_env(app_db, monkeypatch):
    """Set after the autouse env isolation, so the app never touches data/vgrag.db."""
    monkeypatch.setenv("VGRAG_MILVUS_URI", app_db)
    monkeypatch.chdir(ROOT)


def page(path: str | None = None, demo: bool = True) -> AppTest:
    """The app on `path`; with `demo`, the demo graph is loaded first if this database has none (any test order)."""
    at = AppTest.from_file(APP, default_timeout=T)
    if demo:  # whatever graphs other tests added, start on the demo
        at.session_state["graph"] = at.session_state["select_graph"] = "demo"
    at.run()
    assert "data/vgrag.db" not in at.session_state["settings"].milvus_uri
    if path:
        at.switch_page(path)
        at.run()
    return at


def test_overview_offers_the_demo_then_shows_counts(tmp_path, monkeypatch):
    monkeypatch.setenv("VGRAG_MILVUS_URI", str(tmp_path / "empty.db"))  # a database of its own: starts empty
    monkeypatch.chdir(ROOT)
    at = page(demo=False)
    assert not at.exception
    assert any("no graph" in i.value for i in at.info)
    at.button(key="load_demo_hint").click().run()
    assert not at.exception
    assert any("Demo graph ready: 36 passages" in t.value for t in at.toast), [t.value for t in at.toast]
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Passages"] == "36" and int(metrics["Relations"]) > 80
    assert any("Offline: no LLM" in m.value for m in at.markdown)


def test_build_from_pasted_text(app_env):
    at = page("pages/build.py")
    assert not at.exception
    at.text_area(key="pasted").input(
        "Ada Lovelace worked with Charles Babbage in London. Charles Babbage designed the Analytical Engine."
    )
    at.button(key="build").click().run()
    assert not at.exception
    assert any("Stored 1 chunks" in s.value for s in at.success), [s.value for s in at.success]


def test_build_with_nothing_warns(app_env):
    at = page("pages/build.py")
    at.button(key="build").click().run()
    assert any("Upload a file or paste" in w.value for w in at.warning)


def test_explore_entity_neighbourhood(app_env):
    at = page("pages/explore.py")
    assert not at.exception
    at.text_input(key="entity_query").input("Keystone").run()
    assert not at.exception
    assert at.selectbox(key="entity_pick").value.startswith("Keystone")
    assert len(at.dataframe) >= 2


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


def test_evaluate_runs_the_sample_benchmark_and_opens_a_question_on_its_graph(app_env):
    at = page("pages/evaluate.py")
    assert not at.exception
    at.button(key="run_bench").click().run()  # the bundled data/sample_bench
    assert not at.exception
    summary = at.dataframe[0].value
    assert list(summary["method"]) == ["naive", "hybrid", "graph"]
    assert {"R@2", "R@5", "median ms", "answer contains %", "EM", "F1"} <= set(summary.columns)
    assert summary.set_index("method").loc["graph", "R@5"] == 100.0
    result = at.session_state["bench"]
    assert (
        summary.set_index("method").loc["graph", "answer contains %"]
        == result["methods"]["graph"]["answer"]["contains"]
    )
    compare = at.dataframe[1].value  # the graph minus each other method, with its interval
    assert list(compare["comparison"]) == ["graph − naive", "graph − hybrid"]
    diff = result["compare"]["graph-naive"]["5"]
    assert compare.iloc[0]["R@5"] == f"{diff['diff']:+.1f} [{diff['ci95'][0]:+.1f}, {diff['ci95'][1]:+.1f}]"
    per = at.dataframe[2].value  # per question: the graph's answer beside the gold one
    assert {"graph answer", "gold answer", "contains"} <= set(per.columns) and len(per) == result["n_questions"]
    assert (per["contains"] == "✓").sum() == round(result["methods"]["graph"]["answer"]["contains"] * len(per) / 100)
    assert at.get("arrow_vega_lite_chart") or at.get("vega_lite_chart")  # the Recall@k chart
    bench_graph = at.session_state["bench"]["graph"]
    at.selectbox(key="drill").select_index(2).run()
    at.button(key="open_ask").click().run()
    assert not at.exception
    assert at.session_state["graph"] == bench_graph and at.session_state["question"].startswith("Where was")
    assert at.sidebar.selectbox(key="graph_picker").value == bench_graph


def test_evaluate_bad_folder_is_a_message(app_env):
    at = page("pages/evaluate.py")
    at.text_input(key="bench_dir").input("/nonexistent/folder")
    at.button(key="run_bench").click().run()
    assert not at.exception and at.error
    at.multiselect(key="bench_methods").set_value([]).run()
    at.button(key="run_bench").click().run()
    assert not at.exception and "at least one method" in at.error[0].value and "bench" not in at.session_state


def test_settings_validate_and_keep_key_in_session(app_env):
    at = page("pages/settings.py")
    assert not at.exception
    at.radio(key="llm_kind").set_value("OpenAI-compatible (Ollama, vLLM, LM Studio, llama.cpp…)").run()
    at.button(key="save_settings").click().run()
    assert any("base URL" in e.value for e in at.error)
    at.text_input(key="llm_base_url").input("http://127.0.0.1:9/v1")
    at.number_input(key="cap_answer").set_value(64)
    at.button(key="save_settings").click().run()
    assert not at.exception
    saved = at.session_state["settings"].llm
    assert saved.base_url == "http://127.0.0.1:9/v1" and saved.max_tokens_answer == 64
    assert any("Settings saved" in t.value for t in at.toast)
    labels = [m.value for m in at.sidebar.caption]
    assert any("LLM:" in x and "127.0.0.1:9" in x for x in labels), labels  # the sidebar says so at once


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


def test_locked_database_is_a_clear_message(tmp_path, monkeypatch):
    from helpers import database_held_open

    path = tmp_path / "held.db"
    with database_held_open(path):
        monkeypatch.setenv("VGRAG_MILVUS_URI", str(path))
        monkeypatch.chdir(ROOT)
        at = AppTest.from_file(APP, default_timeout=T)
        at.run()
        assert not at.exception
        assert any("already open in another process" in e.value for e in at.error), [e.value for e in at.error]


def test_a_new_session_opens_on_the_configured_graph(tmp_path, monkeypatch, minilm):
    """A database holding "bench_sample_bench" besides "demo" opened every new session on the benchmark graph (the
    first name in order); it opens on the configured graph: "demo", or VGRAG_GRAPH."""
    from milvus_lite.server_manager import server_manager_instance

    from vgrag import Settings, Workspace

    path = str(tmp_path / "two.db")
    ws = Workspace.open(Settings(milvus_uri=path), minilm)
    ws.import_triples(ROOT / "data" / "demo" / "northwind.jsonl", "demo")
    ws.graph("bench_sample_bench")
    ws.close()
    server_manager_instance.release_server(path)
    monkeypatch.setenv("VGRAG_MILVUS_URI", path)
    monkeypatch.chdir(ROOT)
    at = page(demo=False)
    assert not at.exception and at.sidebar.selectbox(key="graph_picker").value == "demo"
    monkeypatch.setenv("VGRAG_GRAPH", "bench_sample_bench")
    at = page(demo=False)
    assert not at.exception and at.sidebar.selectbox(key="graph_picker").value == "bench_sample_bench"


def test_build_creates_selects_and_confirms_a_new_graph(app_env):
    at = page("pages/build.py")
    demo_before = at.session_state["graph"]
    at.text_input(key="build_new_graph").input("notes_2")
    at.button(key="build_create_graph").click().run()
    assert not at.exception
    assert any("Created graph “notes_2”" in t.value for t in at.toast), [t.value for t in at.toast]
    assert at.sidebar.selectbox(key="graph_picker").value == "notes_2" and at.session_state["graph"] == "notes_2"
    assert any("notes\\_2" in i.value or "notes_2" in i.value for i in at.info)  # "Adding to graph notes_2"
    at.text_area(key="pasted").input("Grace Hopper worked on the Harvard Mark I in Cambridge.")
    at.button(key="build").click().run()
    assert not at.exception and any("Stored 1 chunks" in s.value for s in at.success)
    assert at.session_state["built_triples"]  # the full, filterable table of the build
    at.text_input(key="triple_filter").input("Hopper").run()
    assert not at.exception and len(at.dataframe[-1].value) >= 1
    assert demo_before != "notes_2"


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


def app_workspace(at: AppTest):
    """The workspace the app under test opened (its cached resource), to look at the database it sees."""
    from ui.state import _workspace

    s = at.session_state["settings"]
    return _workspace(s.milvus_uri, s.milvus_token, s.embedder, s.embed_model, s.embed_base_url, s.embed_api_key)


def test_visiting_every_page_on_a_fresh_database_creates_no_graph(tmp_path, monkeypatch):
    """Opening Build first created an empty "demo": the demo button vanished everywhere and Ask offered the demo's
    questions against nothing. Now no page creates a graph by being looked at, and the demo stays one click away."""
    from milvus_lite.server_manager import server_manager_instance

    path = str(tmp_path / "fresh.db")
    monkeypatch.setenv("VGRAG_MILVUS_URI", path)
    monkeypatch.chdir(ROOT)
    at = page(demo=False)
    for p in ("pages/build.py", "pages/explore.py", "pages/ask.py", "pages/evaluate.py", "pages/settings.py"):
        at.switch_page(p).run()
        assert not at.exception, p
        if p != "pages/evaluate.py" and p != "pages/settings.py":
            assert at.button(key="load_demo_hint"), p  # the demo is offered on every page that needs a graph
    wsp = app_workspace(at)
    assert wsp.db.list_graphs() == []
    at.switch_page("pages/build.py").run()
    at.button(key="load_demo_hint").click().run()
    assert not at.exception and [g.name for g in wsp.db.list_graphs()] == ["demo"]
    server_manager_instance.release_server(path)


def test_another_embedder_than_the_graphs_is_a_message_with_a_way_back(app_env):
    """Choosing e5 in Settings on a MiniLM database said "There is no graph… Load the demo", and that button raised
    a traceback. It says which embedder built the graph, and one click switches back to it."""
    from dataclasses import replace

    from vgrag.config import Settings

    at = AppTest.from_file(APP, default_timeout=T)
    at.session_state["settings"] = replace(Settings.from_env(), embedder="e5")
    at.session_state["graph"] = at.session_state["select_graph"] = "demo"
    at.run()
    at.switch_page("pages/ask.py").run()
    assert not at.exception
    warn = " ".join(w.value for w in at.warning)
    assert "built with the embedder all-MiniLM-L6-v2-int8" in warn and "multilingual-e5" in warn, warn
    assert "load_demo_hint" not in [b.key for b in at.button]
    at.button(key="embedder_back").click().run()
    assert not at.exception and at.session_state["settings"].embedder == "minilm"
    assert at.text_input(key="question")  # the Ask page is back

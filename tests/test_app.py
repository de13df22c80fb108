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
    for _ in range(6):
        at.button(key="next").click().run()
        assert not at.exception
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

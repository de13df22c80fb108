"""Overview, Explore, Evaluate, Settings and the app as a whole through Streamlit's AppTest, against a real Milvus
Lite file and the offline models (Ask: test_app_ask.py, Build: test_app_build.py)."""

from __future__ import annotations

from apptest import APP, ROOT, T, app_workspace, page
from streamlit.testing.v1 import AppTest


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
    assert any("Offline\\: no LLM" in m.value for m in at.markdown)  # escaped text (the mode may hold a URL)


def test_explore_entity_neighbourhood(app_env):
    at = page("pages/explore.py")
    assert not at.exception
    at.text_input(key="entity_query").input("Keystone").run()
    assert not at.exception
    assert at.selectbox(key="entity_pick").value.startswith("Keystone")
    assert len(at.dataframe) >= 2
    assert any("date" in d.value.columns for d in at.dataframe)  # a relation's date (#31), "" when none
    assert not any("No entity is named" in c.value for c in at.caption)
    at.text_input(key="entity_query").input("Marie Curie").run()  # not in the demo: its nearest are shown as such
    assert not at.exception and any("No entity is named “Marie Curie”" in c.value for c in at.caption)
    at.text_input(key="entity_query").input("the Keystone").run()  # a leading article: the same entity
    assert not at.exception and not any("No entity is named" in c.value for c in at.caption)


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
    assert any("LLM\\:" in x and "127\\.0\\.0\\.1\\:9" in x for x in labels), labels  # the sidebar says so at once


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
    assert "built with the embedder all\\-MiniLM\\-L6\\-v2\\-int8" in warn and "multilingual\\-e5" in warn, warn
    assert "load_demo_hint" not in [b.key for b in at.button]
    at.button(key="embedder_back").click().run()
    assert not at.exception and at.session_state["settings"].embedder == "minilm"
    assert at.text_input(key="question")  # the Ask page is back


def test_the_embedder_names_in_the_mismatch_message_are_shown_literally(app_env):
    """A graph's stored embedder id (any database may be opened; an OpenAI-compatible model name is typed by hand)
    was put into the warning and the button label as Markdown: here a link and emphasis."""
    import re

    at = page()
    odd = "openai:te*st*[l](http://x.invalid/)"
    db = app_workspace(at).db
    db.open_graph("odd_embedder", odd, 384)
    try:
        at.session_state["graph"] = at.session_state["select_graph"] = "odd_embedder"
        at.switch_page("pages/ask.py").run()
        assert not at.exception
        (warn,) = [w.value for w in at.warning if "was built with" in w.value]
        (label,) = [b.label for b in at.button if b.key == "embedder_back"]
        for shown in (warn, label):
            assert "te\\*st\\*\\[l\\]\\(" in shown and not re.search(r"(?<!\\)[*\[\]()]", shown.split("openai")[1])
    finally:
        db.drop_graph("odd_embedder")


def test_model_names_urls_and_paths_typed_in_settings_are_shown_literally(app_env):
    """The sidebar's mode caption and the Overview page showed the LLM's model name and base URL as Markdown (an image
    in the model name was fetched by the browser) and the Milvus URI in a code span that a backtick ended. Now each is
    md_escape'd text (tests/test_browser_names.py checks in a real browser that such text stays literal)."""
    from dataclasses import replace

    from ui.safe import md_escape
    from ui.state import mode_label

    at = page()
    s = at.session_state["settings"]
    model = "![p](http://127.0.0.2:9/p.png) **b** :red[x]"
    odd = replace(s, llm=replace(s.llm, base_url="http://127.0.0.2:9/v1", model_rerank=model))
    at.session_state["settings"] = odd
    at.switch_page("pages/overview.py").run()
    assert not at.exception
    shown = md_escape(mode_label(odd))
    assert "![p]" not in shown and "**b**" not in shown  # the model name is in it, escaped
    assert shown in [c.value for c in at.sidebar.caption]
    (listed,) = [m.value for m in at.markdown if "**Mode:**" in m.value]
    assert f"- **Mode:** {shown}\n" in listed and f"- **Milvus:** {md_escape(s.milvus_uri)}" in listed, listed
    assert "`" not in listed  # no code span left for a backtick to end


def test_the_database_path_is_shown_literally(tmp_path, monkeypatch):
    """The sidebar showed the path in a code span: a backtick in a folder name ended it, and the rest of the path
    was read as Markdown (here a link)."""
    import re

    folder = tmp_path / "a`[x](y)`b"
    folder.mkdir()
    monkeypatch.setenv("VGRAG_MILVUS_URI", str(folder / "v.db"))
    monkeypatch.chdir(ROOT)
    at = page(demo=False)
    (shown,) = [c.value for c in at.sidebar.caption if c.value.startswith("Database")]
    assert not re.search(r"(?<!\\)[`\[\]()]", shown.removeprefix("Database: ")), shown  # every one escaped


def test_an_unreachable_server_typed_on_settings_is_changed_there_not_in_the_environment(app_env):
    """A Milvus URI set on the Settings page that no server answers: the message named the environment variable
    (walk20 finding 8); it now names the Settings page, where the user set it."""
    from dataclasses import replace

    from vgrag.config import Settings

    at = AppTest.from_file(APP, default_timeout=T)
    at.session_state["settings"] = replace(Settings.from_env(), milvus_uri="http://127.0.0.1:9")
    at.run()
    assert not at.exception
    said = [e.value for e in at.error]
    assert any("cannot be reached" in m and "the Milvus URI on the Settings page" in m for m in said), said
    assert not any("VGRAG\\_MILVUS\\_URI" in m or "VGRAG_MILVUS_URI" in m for m in said), said


def test_explores_entity_and_depth_live_in_the_url_and_a_new_session_reopens_them(app_env):
    """Explore's search was lost on a reload and could not be shared (walk20 finding 12); Ask keeps its run so."""
    at = page("pages/explore.py")
    at.text_input(key="entity_query").input("Keystone").run()
    at.radio(key="depth").set_value(2).run()
    assert not at.exception
    url = {k: at.query_params[k] for k in at.query_params}
    url = {k: (v[0] if isinstance(v, list) else v) for k, v in url.items()}
    assert url["entity"] == "Keystone" and url["depth"] == "2", url
    again = AppTest.from_file(APP, default_timeout=T)  # a reload: a new session opening that URL
    again.session_state["graph"] = again.session_state["select_graph"] = "demo"
    for k, v in url.items():
        again.query_params[k] = v
    again.run()
    again.switch_page("pages/explore.py")
    again.run()
    assert not again.exception
    assert again.text_input(key="entity_query").value == "Keystone"
    assert again.selectbox(key="entity_pick").value.startswith("Keystone") and again.radio(key="depth").value == 2

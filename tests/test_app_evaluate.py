"""The Evaluate page through Streamlit's AppTest, against a real Milvus Lite file and the offline models: what it
reads (only allowed folders; uploads by content, their names never used as paths), the graph names it derives,
and the graphs it never touches (the happy path and a bad folder: test_app.py)."""

from __future__ import annotations

import json
import shutil

from apptest import ROOT, app_workspace, page

from vgrag.storage.schema import check_graph_name

SAMPLE = ROOT / "data" / "sample_bench"


def _run(at, folder: str | None = None, limit: int = 2):
    if folder is not None:
        at.text_input(key="bench_dir").input(folder)
    at.number_input(key="bench_limit").set_value(limit)
    at.multiselect(key="bench_methods").set_value(["graph"])
    at.checkbox(key="bench_answers").set_value(False)
    at.button(key="run_bench").click().run()
    assert not at.exception, at.exception
    return at


def _said(at) -> list[str]:
    """The page's error messages, Markdown escapes removed."""
    return [e.value.replace("\\", "") for e in at.error]


def test_a_folder_named_with_other_letters_runs_on_an_ascii_graph(app_env, tmp_path, monkeypatch):
    """`données` derived `bench_données`, which the store refuses: a traceback. Now an ASCII name (with a hash)."""
    monkeypatch.setenv("VGRAG_BENCH_DIRS", str(tmp_path))
    shutil.copytree(SAMPLE, tmp_path / "données")
    at = _run(page("pages/evaluate.py"), str(tmp_path / "données"))
    assert not at.error, _said(at)
    name = at.session_state["bench"]["graph"]
    assert check_graph_name(name) == name and name.startswith("bench_donnees_")
    app_workspace(at).drop(name)


def test_a_corpus_holding_an_object_is_a_message_naming_the_file(app_env, tmp_path, monkeypatch):
    monkeypatch.setenv("VGRAG_BENCH_DIRS", str(tmp_path))
    shutil.copytree(SAMPLE, tmp_path / "b")
    (tmp_path / "b" / "corpus.json").write_text(json.dumps({"title": "A", "text": "B"}))
    at = _run(page("pages/evaluate.py"), str(tmp_path / "b"))
    assert "bench" not in at.session_state
    assert any("corpus.json: holds an object" in e and "list" in e for e in _said(at)), _said(at)


def test_a_folder_outside_the_allowed_ones_is_not_read(app_env, tmp_path):
    """Any visitor could make the server read `*questions*.json` from any folder and show its questions."""
    shutil.copytree(SAMPLE, tmp_path / "b")
    at = _run(page("pages/evaluate.py"), str(tmp_path / "b"))
    assert "bench" not in at.session_state
    assert any("VGRAG_BENCH_DIRS" in e for e in _said(at)), _said(at)
    at = _run(page("pages/evaluate.py"), str(ROOT / "data" / "sample_bench" / ".." / ".." / "tests"))
    assert "bench" not in at.session_state and any("VGRAG_BENCH_DIRS" in e for e in _said(at))


def test_a_users_graph_with_the_benchmarks_name_is_left_whole(app_env):
    """run_bench dropped any graph called bench_<folder>, a user's own graph too."""
    at = page("pages/evaluate.py")
    ws = app_workspace(at)
    ws.import_triples(ROOT / "data" / "demo" / "northwind.jsonl", "bench_sample_bench")
    try:
        _run(at)  # the bundled sample benchmark: its graph would be bench_sample_bench
        assert "bench" not in at.session_state
        assert any("a benchmark run did not build" in e for e in _said(at)), _said(at)
        assert [d.name.rsplit("/", 1)[-1] for d in ws.documents("bench_sample_bench")] == ["northwind.jsonl"]
    finally:
        ws.drop("bench_sample_bench")


def test_uploads_are_read_by_content_and_their_names_never_used_as_paths(app_env):
    """Each upload run left a new bench_vgrag_upload_… graph; uploaded names were used as paths (`..` raised
    IsADirectoryError) and two uploads with the same name overwrote each other. Now: one graph per uploaded
    content; names are only matched and shown (the widget itself refuses a name without .json, like `..`)."""
    files = [(p.name, p.read_bytes(), "application/json") for p in sorted(SAMPLE.glob("*.json"))]
    at = page("pages/evaluate.py")
    ws = app_workspace(at)
    before = {g.name for g in ws.db.list_graphs()}
    names = []
    for extra in ([("../../notes.json", b"{}", "x")], [("notes.json", b"[]", "x"), ("/tmp/notes.json", b"[", "x")]):
        at.file_uploader(key="bench_files").set_value(files + extra)
        _run(at)
        assert not at.error, _said(at)
        names.append(at.session_state["bench"]["graph"])
    new = {g.name for g in ws.db.list_graphs()} - before
    assert names[0] == names[1] and new == {names[0]} and names[0].startswith("bench_upload_"), (names, new)
    twice = [f for f in files if f[0] != "corpus.json"] + [("corpus.json", b"[]", "x"), ("corpus.json", b"[1]", "x")]
    at.file_uploader(key="bench_files").set_value(twice)
    _run(at)
    assert any("2 different uploaded files are named corpus.json" in e for e in _said(at)), _said(at)
    ws.drop(names[0])

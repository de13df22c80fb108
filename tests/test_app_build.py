"""The Build page through Streamlit's AppTest, against a real Milvus Lite file and the offline models."""

from __future__ import annotations

import pytest
from apptest import ROOT, app_workspace, demo_copy, finish_job, page, position

from vgrag.text import relation_id


@pytest.fixture
def app_db(tmp_path, app_demo_template) -> str:
    """A fresh copy of the demo database per test: these tests build into it, and one counts the pasted documents."""
    return demo_copy(app_demo_template, tmp_path)


def test_build_from_pasted_text(app_env):
    at = page("pages/build.py")
    assert not at.exception
    at.text_area(key="pasted").input(
        "Ada Lovelace worked with Charles Babbage in London. Charles Babbage designed the Analytical Engine."
    )
    finish_job(at.button(key="build").click().run())
    assert not at.exception
    assert any("Stored 1 chunks" in s.value for s in at.success), [s.value for s in at.success]
    # a second paste is a second document (both were "pasted text.txt": the second replaced the first)
    at.text_area(key="pasted").input("Grace Hopper wrote a compiler for the UNIVAC in Philadelphia.")
    finish_job(at.button(key="build").click().run())
    assert not at.exception and any("Replaced: 0." in s.value for s in at.success), [s.value for s in at.success]
    docs = app_workspace(at).graph(at.session_state["graph"]).documents.all()
    pasted = [d.name for d in docs if d.name.startswith("pasted text")]
    assert len(pasted) == 2, pasted


def test_build_with_nothing_warns(app_env):
    at = page("pages/build.py")
    at.button(key="build").click().run()
    assert any("Upload a file or paste" in w.value for w in at.warning)


def test_build_creates_selects_and_confirms_a_new_graph(app_env):
    at = page("pages/build.py")
    demo_before = at.session_state["graph"]
    at.text_input(key="build_new_graph").input("notes_2")
    at.button(key="build_create_graph").click().run()
    assert not at.exception
    assert any("Graph “notes\\_2” created" in t.value for t in at.toast), [t.value for t in at.toast]  # escaped
    assert at.sidebar.selectbox(key="graph_picker").value == "notes_2" and at.session_state["graph"] == "notes_2"
    assert any("notes\\_2" in i.value or "notes_2" in i.value for i in at.info)  # "Adding to graph notes_2"
    # the user's own new graph: add documents to it first; the demo is offered second, not as the primary action
    assert any("is empty: add documents to it below" in i.value for i in at.info), [i.value for i in at.info]
    assert at.button(key="load_demo_hint").proto.type == "secondary"
    assert at.text_input(key="build_new_graph").value == ""  # ready for another name, not showing the last one
    at.text_area(key="pasted").input("Grace Hopper worked on the Harvard Mark I in Cambridge.")
    finish_job(at.button(key="build").click().run())
    assert not at.exception and any("Stored 1 chunks" in s.value for s in at.success)
    assert at.session_state["built_triples"]  # the full, filterable table of the build
    at.text_input(key="triple_filter").input("Hopper").run()
    assert not at.exception and len(at.dataframe[-1].value) >= 1
    assert demo_before != "notes_2"
    at.text_input(key="build_new_graph").input("notes_2")  # again: selected, said to exist, nothing touched
    at.button(key="build_create_graph").click().run()
    assert any("Graph “notes\\_2” already existed" in t.value for t in at.toast), [t.value for t in at.toast]


def test_the_tabs_keep_their_place_when_the_graph_gets_its_first_passages(tmp_path, monkeypatch):
    """An empty graph's Build page shows the demo hint above the tabs; it vanished once the graph had passages and
    everything below moved up. The browser knows an element by its place, so it took the moved tabs for new ones and
    showed the first tab again while the Import button on another was being clicked (test_browser_names)."""
    from milvus_lite.server_manager import server_manager_instance

    path = str(tmp_path / "tabs.db")
    monkeypatch.setenv("VGRAG_MILVUS_URI", path)
    monkeypatch.chdir(ROOT)
    at = page(demo=False)
    at.switch_page("pages/build.py").run()
    at.text_input(key="build_new_graph").input("notes")
    at.button(key="build_create_graph").click().run()
    assert at.button(key="load_demo_hint")  # empty: the demo is offered above the tabs
    before = {k: position(at, k) for k in ("import", "build", "triple_file")}
    at.text_area(key="pasted").input("Grace Hopper worked on the Harvard Mark I in Cambridge.")
    finish_job(at.button(key="build").click().run())
    assert not at.exception and any("Stored 1 chunks" in s.value for s in at.success)
    at.run()  # the next run (an upload, a tab's widget): the graph has passages now, no hint
    assert not at.exception and "load_demo_hint" not in [b.key for b in at.button]
    assert {k: position(at, k) for k in before} == before
    server_manager_instance.release_server(path)


def test_the_empty_graph_hint_goes_once_a_build_fills_the_graph(app_env):
    """After the first build into a new graph, "Graph “x” is empty. Load the demo graph…" still stood above the
    report of the chunks just stored."""
    at = page("pages/build.py")
    at.text_input(key="build_new_graph").input("fresh_hint")
    at.button(key="build_create_graph").click().run()
    assert any("is empty" in i.value for i in at.info)  # an empty graph: the hint, with the demo button
    at.text_area(key="pasted").input("Ada Lovelace worked with Charles Babbage in London.")
    finish_job(at.button(key="build").click().run())
    assert not at.exception and any("Stored 1 chunks" in s.value for s in at.success)
    assert not any("is empty" in i.value for i in at.info), [i.value for i in at.info]
    assert "load_demo_hint" not in [b.key for b in at.button]


def test_deleting_a_source_document_confirms_it_after_the_rerun(app_env):
    """The confirmation was an st.success right before st.rerun(), so nobody saw it; it is a toast now."""
    at = page("pages/build.py")
    at.text_input(key="build_new_graph").input("del_notes")
    at.button(key="build_create_graph").click().run()
    at.text_area(key="pasted").input("Grace Hopper worked on the Harvard Mark I in Cambridge.")
    finish_job(at.button(key="build").click().run())
    [delete] = [b for b in at.button if (b.key or "").startswith("del_doc-")]
    delete.click().run()  # asks first (one click deleted a whole document)
    assert not at.exception and any("cannot be undone" in w.value for w in at.warning)
    [cancel] = [b for b in at.button if (b.key or "").startswith("del_no_")]
    cancel.click().run()
    assert not any("No source documents yet" in i.value for i in at.info)  # still there
    [delete] = [b for b in at.button if (b.key or "").startswith("del_doc-")]
    delete.click().run()
    [yes] = [b for b in at.button if (b.key or "").startswith("del_yes_")]
    yes.click().run()
    assert not at.exception
    toasts = [t.value for t in at.toast]
    assert any(t.startswith("Deleted pasted text") and ": 1 passage, " in t for t in toasts), toasts
    assert any("No source documents yet" in i.value for i in at.info)


def test_a_chunk_without_facts_is_a_quiet_line_not_a_warning(app_env):
    # a list of figures states no fact between named things: normal for tables and lists, so no warning per chunk
    # (a document of many such chunks pushed the build's result below the fold), one line per document instead
    at = page("pages/build.py")
    at.text_area(key="pasted").input("Quarterly figures: 12, 15 and 18 percent.")
    finish_job(at.button(key="build").click().run())
    assert not at.exception and any("Stored 1 chunks" in s.value for s in at.success)
    assert not [w.value for w in at.warning if "chunk" in w.value], [w.value for w in at.warning]
    assert any("no facts found in chunk 1 " in c.value and "stored and searchable" in c.value for c in at.caption), [
        c.value for c in at.caption
    ]


def test_a_changed_file_says_how_many_of_your_edits_were_re_applied(app_env):
    """Re-uploading a changed file re-applies the user's edits of its older content (vgrag/editing), but the build
    said only "Replaced: 1" (walk21 finding 10): the edits re-applied and those that no longer apply are counted."""
    v1 = b"Ada Lovelace worked with Charles Babbage in London. Charles Babbage designed the Analytical Engine."
    v2 = b"Ada Lovelace worked with Charles Babbage in London. Grace Hopper wrote a compiler in Philadelphia."
    at = page("pages/build.py")
    at.text_input(key="build_new_graph").input("reupload")
    at.button(key="build_create_graph").click().run()
    at.file_uploader(key="doc_files").set_value([("notes.txt", v1, "text/plain")])
    finish_job(at.button(key="build").click().run())
    assert not at.exception and any("Replaced: 0." in s.value for s in at.success), [s.value for s in at.success]
    ws = app_workspace(at)
    ws.rename_entity("Ada Lovelace", "Augusta Ada King", graph="reupload")  # its sentence stays in the new content
    ws.delete_relation(relation_id("Charles Babbage", "designed", "Analytical Engine"), graph="reupload")  # gone
    at.file_uploader(key="doc_files").set_value([("notes.txt", v2, "text/plain")])
    finish_job(at.button(key="build").click().run())
    assert not at.exception
    said = [s.value for s in at.success]
    assert any("Replaced: 1. 1 of your edits re-applied to the new content; 1 no longer applies" in s for s in said)
    assert ws.entity_named("Augusta Ada King", "reupload") is not None
    assert any("no longer applies" in e.value for e in at.error)  # the reason, where the message points

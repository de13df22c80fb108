"""The Build page in a new session shows what the graph holds as stored (walk22: after a build, a new tab or a
restarted app showed only an empty uploader; the build's report is the session's own)."""

from __future__ import annotations

import pytest
from apptest import APP, T, app_workspace, demo_copy, finish_job, page
from streamlit.testing.v1 import AppTest


@pytest.fixture
def app_db(tmp_path, app_demo_template) -> str:
    """A fresh copy of the demo database: the test builds into it."""
    return demo_copy(app_demo_template, tmp_path)


def _stored(at: AppTest) -> str:
    return "\n".join(m.value for m in at.get("markdown") if "now:**" in m.value)


def test_a_new_session_sees_the_stored_graphs_last_build(app_env):
    at = page("pages/build.py")
    at.text_area(key="pasted").input(
        "The Lantern Museum in Quillhaven was founded by Mara Tressock. Mara Tressock was born in Fenwick."
    )
    finish_job(at.button(key="build").click().run())
    assert not at.exception and any("Stored 1 chunks" in s.value for s in at.success)
    ws = app_workspace(at)  # another writer (the CLI, another tab) adds a document whose name is Markdown
    ws.add_documents([("**Guide** [x](http://example.com).md", b"Fenwick lies on the river Quill near Quillhaven.")],
                     "demo")  # fmt: skip
    counts, docs = ws.graph("demo").counts(), ws.documents("demo")

    fresh = AppTest.from_file(APP, default_timeout=T)  # a new browser session: nothing of the first one's state
    fresh.session_state["graph"] = fresh.session_state["select_graph"] = "demo"
    fresh.run()
    fresh.switch_page("pages/build.py")
    fresh.run()
    assert not fresh.exception, fresh.exception
    said = _stored(fresh)
    assert f"{len(docs)} source documents, {counts['passages']} passages, {counts['relations']} triples, " \
           f"{counts['entities']} entities" in said, said  # fmt: skip
    assert "Last added: \\*\\*Guide\\*\\* \\[x\\]\\(http" in said, said  # the newest, escaped: never Markdown
    assert " UTC." in said, said
    table = fresh.dataframe[0].value  # every document, newest first, with its passages and when it was added
    newest = [d.name for d in sorted(docs, key=lambda d: -d.added_at)]
    assert list(table["Document"]) == newest and newest[0].startswith("**Guide**"), (table, newest)
    assert newest[1].startswith("pasted text"), newest  # the first session's build
    assert len(table) == len(docs) and set(table["Complete"]) == {"yes"}, table

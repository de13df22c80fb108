"""The Build page's ingest runs as a job off the request path (ui/jobs.py): the page returns while it runs, shows
its progress again after the session went elsewhere, and its report (or why it stopped, naming the file) when done.
An extractor held by a gate keeps the ingest running exactly as long as a test needs."""

from __future__ import annotations

import threading

import pytest
from apptest import finish_job, page

import vgrag.workspace as workspace_module

TEXT = "Ada Lovelace worked with Charles Babbage in London. Charles Babbage designed the Analytical Engine."
HELD_S = 30  # the gate opens by itself after this: the code before jobs returned only then, with the report


class GatedExtractor:
    """The real extractor, which waits for `gate` before it reads anything."""

    def __init__(self, inner, gate: threading.Event) -> None:
        self.inner, self.gate, self.name = inner, gate, inner.name

    def extract_many(self, texts, titles=None):
        self.gate.wait(HELD_S)
        return self.inner.extract_many(texts, titles)


@pytest.fixture
def gate(monkeypatch):
    """The app's extractors wait for this event (the ingest is slow for as long as the test holds it)."""
    gate, real = threading.Event(), workspace_module.make_extractor
    monkeypatch.setattr(workspace_module, "make_extractor", lambda *a, **k: GatedExtractor(real(*a, **k), gate))
    yield gate
    gate.set()


def _new_graph(at, name: str):
    at.text_input(key="build_new_graph").input(name)
    at.button(key="build_create_graph").click().run()
    assert not at.exception and at.session_state["graph"] == name


def _running(at) -> bool:
    return any(c.value.startswith("Building pasted text") for c in at.caption)


def _reported(at) -> bool:
    return any("Stored 1 chunks" in s.value for s in at.success)


def test_the_build_page_returns_while_the_ingest_runs_and_shows_the_report_after(app_env, gate):
    at = page("pages/build.py")
    _new_graph(at, "jobs_slow")
    at.text_area(key="pasted").input(TEXT)
    at.button(key="build").click().run()  # before: this run lasted as long as the ingest
    assert not at.exception
    assert _running(at) and not _reported(at), ([c.value for c in at.caption], [s.value for s in at.success])
    at.switch_page("pages/ask.py").run()  # the session uses another page meanwhile
    assert not at.exception
    at.switch_page("pages/build.py").run()  # and comes back: the same job's progress, still running
    assert _running(at) and not _reported(at)
    at.text_area(key="pasted").input(TEXT)  # (the page's widgets were reset when the session left it)
    at.button(key="build").click().run()  # a second build would only wait for the first: said, not started
    assert any("still running" in w.value for w in at.warning), [w.value for w in at.warning]
    other = page("pages/build.py", demo=False)  # another tab (or this one reloaded: a new session) on the graph
    other.session_state["graph"] = "jobs_slow"
    other.run()
    assert _running(other) and not _reported(other)
    # the graph has no passage yet, but it is not "empty: load the demo": the running build is what comes first
    assert not any("is empty" in i.value for i in other.info), [i.value for i in other.info]
    assert other.info[0].value.startswith("Building into graph “jobs\\_slow”"), [i.value for i in other.info]
    gate.set()
    finish_job(at)
    assert not at.exception and _reported(at) and not _running(at)
    assert at.session_state["built_triples"]  # the full, filterable table of the build
    at.run()  # shown once, as before: the next run draws no report and no progress
    assert not _reported(at) and not _running(at)
    finish_job(other)
    assert _reported(other)


def test_a_build_that_raises_says_so_naming_the_file(app_env, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("the extractor could not start")

    monkeypatch.setattr(workspace_module, "make_extractor", broken)
    at = page("pages/build.py")
    _new_graph(at, "jobs_broken")
    at.text_area(key="pasted").input(TEXT)
    finish_job(at.button(key="build").click().run())
    assert not at.exception  # before: the page's traceback
    [error] = [e.value.replace("\\", "") for e in at.error]  # as shown (md_escape's backslashes read)
    assert error.startswith("pasted text") and ".txt: nothing more was stored" in error, error
    assert "the extractor could not start" in error

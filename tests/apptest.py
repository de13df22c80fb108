"""AppTest helpers shared by the page tests (tests/test_app*.py): a database with the demo graph, the app on a
page, the workspace the app opened, and where an element sits in the page."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
T = 120


@pytest.fixture(scope="session")
def app_demo_template(tmp_path_factory, minilm) -> Path:
    """A Lite file with the demo graph imported through the library, built once per process (per xdist worker) and
    closed; `app_db` copies it, since a test may write to its module's database."""
    from milvus_lite.server_manager import server_manager_instance

    from vgrag import Settings, Workspace

    path = tmp_path_factory.mktemp("app_template") / "app.db"
    ws = Workspace.open(Settings(milvus_uri=str(path)), minilm)
    ws.import_triples(ROOT / "data" / "demo" / "northwind.jsonl", "demo")
    ws.close()
    server_manager_instance.release_server(str(path))
    return path


@pytest.fixture(scope="module")
def app_db(tmp_path_factory, app_demo_template):
    """The app's database with the demo graph already in it (a copy of `app_demo_template`: the same files an
    import in this module would write), so no test depends on another having loaded it; closed, so the app opens
    it."""
    return demo_copy(app_demo_template, tmp_path_factory.mktemp("app"))


def demo_copy(template: Path, folder: Path) -> str:
    """A copy of the demo template in `folder`; a module whose tests edit the demo graph overrides `app_db` with a
    function-scoped fixture returning one per test (tests/test_app_review.py), so each runs in any order."""
    path = folder / "app.db"
    shutil.copytree(template, path)
    return str(path)


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


def opened(url: dict[str, str], settings=None) -> AppTest:
    """A new session (a reload, or a link pasted elsewhere) opening `url` on the Ask page."""
    at = AppTest.from_file(APP, default_timeout=T)
    if settings is not None:
        at.session_state["settings"] = settings
    at.query_params.update(url)
    at.run()
    at.switch_page("pages/ask.py")
    at.query_params.update(url)
    at.run()
    assert not at.exception, at.exception
    return at


def explore_search(monkeypatch, db_path: str, graph: str, query: str) -> AppTest:
    """The app on the Lite file `db_path`, Explore on `graph`, with `query` typed into the name search."""
    monkeypatch.setenv("VGRAG_MILVUS_URI", db_path)
    monkeypatch.chdir(ROOT)
    at = AppTest.from_file(APP, default_timeout=T)
    at.session_state["graph"] = at.session_state["select_graph"] = graph
    at.run()
    at.switch_page("pages/explore.py")
    at.run()
    at.text_input(key="entity_query").input(query).run()
    assert not at.exception, at.exception
    return at


def app_workspace(at: AppTest):
    """The workspace the app under test opened (its cached resource), to look at the database it sees."""
    from ui.state import _workspace

    s = at.session_state["settings"]
    return _workspace(s.milvus_uri, s.milvus_token, s.embedder, s.embed_model, s.embed_base_url, s.embed_api_key)


def finish_job(at: AppTest, key: str = "build_job") -> AppTest:
    """Wait for the session's Build job (ui/jobs.py: the page returns while it runs), then run the page once more,
    as its poll does when the job is done: the report is drawn on that run."""
    from ui.jobs import jobs

    if key not in at.session_state:  # it finished within the run that started it: its report is drawn already
        return at
    job = jobs().get(at.session_state[key])
    assert job is not None and job.wait(T), f"the job under {key!r} did not finish in {T} s"
    return at.run()


def _keyed(node, path: tuple[int, ...], found: dict[str, tuple[int, ...]]) -> None:
    if getattr(node, "key", None):
        found[node.key] = path
    for i, child in getattr(node, "children", {}).items():
        _keyed(child, (*path, i), found)


def position(at: AppTest, key: str) -> tuple[int, ...]:
    """Where the element with `key` sits in the page (indexes from the root). The browser knows an element by this
    position: one that moves between runs is drawn anew, beside the old one until the run ends."""
    found: dict[str, tuple[int, ...]] = {}
    _keyed(at._tree, (), found)
    assert key in found, f"no element with key {key!r}"
    return found[key]


def keyed_positions(at: AppTest) -> dict[str, tuple[int, ...]]:
    """Where every keyed element sits in the main area (see `position`)."""
    found: dict[str, tuple[int, ...]] = {}
    _keyed(at._tree[0], (0,), found)  # 0: the main area (1 is the sidebar)
    return found

"""Shared fixtures: one real Milvus Lite database in a temp dir per session, a fresh graph per test."""

from __future__ import annotations

import itertools
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from apptest import app_db, app_demo_template, app_env  # noqa: E402, F401 - the AppTest fixtures of tests/test_app*.py
from cli_run import cli_run  # noqa: E402, F401 - the CLI's main() in this process (tests/cli_run.py)
from fakes import HashEmbedder  # noqa: E402

from vgrag.storage.database import Database, quiet_storage_logs  # noqa: E402

BENCH = ROOT.parent / "shared" / "bench"  # benchmark data beside the clone; absent for users: tests skip
SAMPLE_BENCH = ROOT / "data" / "sample_bench"  # bundled, always present
quiet_storage_logs()
_names = itertools.count()


# modules whose tests share a costly fixture (a graph ingested from documents, an app over it) run on one worker, so
# it is built once — split over two, each built it (setup 8 s twice, 5 s twice). The two guide modules share one
# session fixture (guide_app): one group for both.
GUIDE_TESTS = ("test_browser_seeds_fit.py", "test_browser_answer_fit.py")
ONE_BUILD = ("test_verdict_upload.py",)
ISOLATED = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "VGRAG_MILVUS_URI", "VGRAG_GRAPH", "VGRAG_EMBEDDER")


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook, which reads the groups into the tests' ids
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """With pytest-xdist's `--dist loadgroup` (pytest.ini), the real Milvus server tests run one after another on one
    worker: each server takes the same ports. (The browser tests are spread over both workers, as every green
    parallel run so far had them: docs/architecture.md, "Session 19".)"""
    for item in items:
        if item.path.name == "test_server.py":
            item.add_marker(pytest.mark.xdist_group("server"))
        elif item.path.name in GUIDE_TESTS:  # one guide_app for both (a session fixture is built once per worker)
            item.add_marker(pytest.mark.xdist_group("guide"))
        elif item.path.name in ONE_BUILD:  # its module fixture builds a graph (and an app): once, on one worker
            item.add_marker(pytest.mark.xdist_group(item.path.stem))
        elif item.path.name == "test_verdict_uploads.py" and hasattr(item, "callspec"):  # an upload's two tests on
            item.add_marker(pytest.mark.xdist_group(f"upload-{item.callspec.params['upload']}"))  # the worker that
            # built its graph (a module fixture is built once per worker that runs one of its tests)


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test sees a real key or endpoint from the machine it runs on."""
    for var in ISOLATED:
        monkeypatch.delenv(var, raising=False)


@pytest.fixture(scope="session")
def db(tmp_path_factory: pytest.TempPathFactory) -> Database:
    d = Database(str(tmp_path_factory.mktemp("milvus") / "test.db"))
    yield d
    d.close()


@pytest.fixture(scope="session")
def embedder() -> HashEmbedder:
    return HashEmbedder()


@pytest.fixture(scope="module")
def ws(db: Database, embedder: HashEmbedder):
    """A Workspace over the session's database: the front door the app and the CLI use (a module may override it)."""
    from vgrag import Settings, Workspace

    return Workspace(Settings(milvus_uri="unused"), db, embedder)


@pytest.fixture
def graph(db: Database, embedder: HashEmbedder):
    name = f"t{next(_names)}"
    g = db.open_graph(name, embedder.model_id, embedder.dim)
    yield g
    db.drop_graph(name)


@pytest.fixture(scope="session")
def minilm():
    from vgrag.embed import MiniLMEmbedder

    return MiniLMEmbedder()


@pytest.fixture(scope="session")
def _chromium() -> Iterator[dict]:
    """One Playwright driver and one headless Chromium per process (per xdist worker), launched when a test first asks
    for `browser`: starting both took ~2 s per test (the driver ~0.8 s, the launch 0.3-1 s, the close 0.3 s)."""
    playwright = pytest.importorskip("playwright.sync_api", reason="pip install playwright (see .ci/run)")
    from test_browser import ARGS, CHROMIUM

    if not Path(CHROMIUM).exists():
        pytest.skip("Debian chromium not installed (apt-get install chromium; see .ci/run)")
    driver = playwright.sync_playwright().start()
    held = {"launch": lambda: driver.chromium.launch(executable_path=CHROMIUM, args=ARGS), "browser": None}
    yield held
    if held["browser"] is not None and held["browser"].is_connected():
        held["browser"].close()
    driver.stop()


@pytest.fixture
def browser(_chromium: dict):
    """The worker's Chromium for one test. Every page a test opens is in a context of its own (`browser.new_page`,
    `browser.new_context`): no cookie, storage, cache or Streamlit session of another test; each is closed after the
    test. A browser that crashed or was closed is launched again."""
    if _chromium["browser"] is None or not _chromium["browser"].is_connected():
        _chromium["browser"] = _chromium["launch"]()
    browser = _chromium["browser"]
    for context in browser.contexts:  # none is left by a test's teardown; closed if one were
        context.close()
    yield browser
    for context in browser.contexts:
        context.close()


@pytest.fixture(scope="session")
def demo_app(tmp_path_factory: pytest.TempPathFactory, minilm) -> str:
    """One `streamlit run app.py` over a database holding the demo graph (imported as the app's "Load the demo
    graph" button does), shared by the browser tests that only read it; yields its URL. Each test opens its own
    browser, so its own Streamlit session: nothing one test clicks is seen by another. A test that writes to its
    graph (imports, merges) or needs a fresh database starts its own app instead."""
    from helpers import running_app
    from milvus_lite import server_manager_instance

    from vgrag import Settings, Workspace

    path = str(tmp_path_factory.mktemp("demo_app") / "demo.db")
    demo = ROOT / "data" / "demo" / "northwind.jsonl"
    ws = Workspace.open(Settings(milvus_uri=path), minilm)
    ws.import_triples((demo.name, demo.read_bytes()), "demo")
    ws.close()
    server_manager_instance.release_server(path)
    env = {k: v for k, v in os.environ.items() if k not in ISOLATED}  # set up before _isolated_env runs
    with running_app({**env, "VGRAG_MILVUS_URI": path}) as url:
        yield url


@pytest.fixture(scope="session")
def guide_app(tmp_path_factory: pytest.TempPathFactory, minilm) -> str:
    """The app over a database holding a new user's travel guide (three files: tests/fixtures/travel_guide*), built
    as the Build page builds it (offline extractor); yields its URL. Read by the browser tests of how a step's graph
    fits its frame (test_browser_seeds_fit.py, test_browser_answer_fit.py)."""
    from helpers import running_app
    from milvus_lite import server_manager_instance

    from vgrag import Settings, Workspace

    path = str(tmp_path_factory.mktemp("guide") / "guide.db")
    ws = Workspace.open(Settings(milvus_uri=path), minilm)
    names = ("travel_guide.md", "travel_guide_food.html", "travel_guide_events.html")
    report = ws.add_documents([ROOT / "tests" / "fixtures" / name for name in names], "guide")
    ws.close()
    server_manager_instance.release_server(path)
    assert report.triples > 50, report  # the graph the walk-through saw: ~80 triples
    env = {k: v for k, v in os.environ.items() if k not in ISOLATED}
    with running_app({**env, "VGRAG_MILVUS_URI": path}) as url:
        yield url

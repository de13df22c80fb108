"""Shared fixtures: one real Milvus Lite database in a temp dir per session, a fresh graph per test."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from apptest import app_db, app_env  # noqa: E402, F401 - the AppTest fixtures of tests/test_app*.py
from fakes import HashEmbedder  # noqa: E402

from vgrag.storage.database import Database, quiet_storage_logs  # noqa: E402

BENCH = ROOT.parent / "shared" / "bench"  # benchmark data beside the clone; absent for users: tests skip
SAMPLE_BENCH = ROOT / "data" / "sample_bench"  # bundled, always present
quiet_storage_logs()
_names = itertools.count()


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test sees a real key or endpoint from the machine it runs on."""
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "VGRAG_MILVUS_URI", "VGRAG_GRAPH", "VGRAG_EMBEDDER"):
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

"""The same store code over a Milvus server URI, and a clear error for a second process on a Lite file."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import database_held_open

from vgrag.models import Triple
from vgrag.storage.database import Database
from vgrag.storage.writer import SourceChunk, write_chunks
from vgrag.text import entity_id

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(tmp_path):
    port = _free_port()
    # the console script of the Python running the tests (a venv's bin/ need not be on PATH)
    exe = shutil.which("milvus-lite", path=str(Path(sys.executable).parent)) or shutil.which("milvus-lite")
    assert exe, "milvus-lite's console script is missing: pip install -r requirements.txt"
    proc = subprocess.Popen(
        [exe, "server", "--data-dir", str(tmp_path / "srv"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + 60
    while time.time() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.2)
    else:
        proc.kill()
        pytest.fail("milvus-lite server did not start")
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(timeout=30)


def test_store_round_trip_over_server_uri(server, embedder):
    db = Database(server)
    g = db.open_graph("srv", embedder.model_id, embedder.dim)
    t = Triple("Ada Lovelace", "worked with", "Charles Babbage")
    write_chunks(g, embedder, [SourceChunk("d", "d", "Ada Lovelace worked with Charles Babbage.", 0, (t,))])
    assert g.counts() == {"passages": 1, "entities": 2, "relations": 1}
    assert g.get_entities([entity_id("Ada Lovelace")])[0].name == "Ada Lovelace"
    hits = g.search("entities", embedder.embed(["Charles Babbage"]), 1)[0]
    assert hits[0].record.id == entity_id("Charles Babbage") and g.index.type == "HNSW"
    assert [x.name for x in Database(server).list_graphs()] == ["srv"]  # a second client sees it
    db.drop_graph("srv")


def test_second_process_on_a_lite_file_gets_a_clear_error(tmp_path):
    path = tmp_path / "locked.db"
    with database_held_open(path):
        out = subprocess.run(
            [sys.executable, "-m", "vgrag", "graphs"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            env={**os.environ, "VGRAG_MILVUS_URI": str(path), "PYTHONPATH": str(ROOT)},
            timeout=120,
        )
    assert out.returncode == 2
    assert "already open in another process" in out.stderr
    assert "milvus-lite server --data-dir" in out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) <= 3, out.stderr

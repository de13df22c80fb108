"""The same store code over a Milvus server URI, and a clear error for a second process on a Lite file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import database_held_open, lite_server

from vgrag.models import Triple
from vgrag.storage.database import Database
from vgrag.storage.writer import SourceChunk, write_chunks
from vgrag.text import entity_id

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def server(tmp_path):
    with lite_server(tmp_path / "srv") as uri:
        yield uri


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

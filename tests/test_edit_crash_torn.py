"""A process killed while Milvus Lite writes an index file leaves it empty or cut (Lite writes it after a flush, in a
background thread, straight to its final name). Reopening the database must still open every graph with every row:
the torn file is kept aside, named in a warning, and Lite builds the index again from the data. Before the fix the
reopen failed ("Milvus Lite … failed in load_collection: No data left in file", seen once in CI after
test_edit_crash's kill). Here the torn state is made exactly, by cutting the file where a kill would leave it."""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pytest
from editgraph import openie
from fakes import HashEmbedder

from vgrag import Settings, Workspace
from vgrag.storage.check import check_graph
from vgrag.storage.connection import StoreError
from vgrag.storage.lite_files import RECOVERED_DIR, unreadable
from vgrag.text import entity_id

ROOT = Path(__file__).resolve().parent.parent
# the real merge in a real process; Lite's index write (FLAT: np.save of the vectors, in its background thread after
# a flush) is cut halfway and the process killed there, as a SIGKILL landing inside that write would
KILLED_IN_INDEX_WRITE = """
import io, os, signal, sys
sys.path[:0] = [{root!r}, {tests!r}]
import numpy as np
from milvus_lite.index.brute_force import BruteForceIndex
from fakes import HashEmbedder
from vgrag import Settings, Workspace
ws = Workspace.open(Settings(milvus_uri={path!r}), HashEmbedder())
ws.graph("g")
real = BruteForceIndex.save

def save(self, path):
    if "/g_relations/" not in path and "/g_entities/" not in path:  # the merge's own writes: not the log's, or
        return real(self, path)  # a flush before the merge began
    buf = io.BytesIO()
    np.save(buf, self._vectors, allow_pickle=False)
    with open(path, "wb") as f:
        f.write(buf.getvalue()[: len(buf.getvalue()) // 2])
    os.kill(os.getpid(), signal.SIGKILL)

BruteForceIndex.save = save
ws.merge_entities("CLL", "Chronic lymphocytic leukemia", graph="g")
ws.close()
"""


def _release(path: str) -> None:
    from milvus_lite.server_manager import server_manager_instance

    server_manager_instance.release_server(path)


def _rows(ws: Workspace, kind: str) -> dict[str, dict]:
    """Every row of a kind (its vector aside), read from Milvus itself, not from the in-process copies."""
    g = ws.graph("g")
    return {r["id"]: r for batch in g.tables.scan(kind, g.tables.fields(kind)) for r in batch}  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> tuple[Path, dict[str, dict[str, str]]]:
    path = str(tmp_path_factory.mktemp("torn") / "pristine.db")
    ws = Workspace.open(Settings(milvus_uri=path), HashEmbedder())
    ws.import_triples(("bio.json", openie()), graph="g")
    rows = {k: _rows(ws, k) for k in ("entities", "relations", "passages")}
    ws.close()
    _release(path)
    return Path(path), rows


def _index_file(db: Path, collection: str) -> Path:
    files = sorted((db / "collections" / collection).glob("partitions/*/indexes/*.idx"))
    assert files, f"Milvus Lite wrote no index file for {collection} (its layout changed?)"
    return files[-1]


@pytest.mark.parametrize("collection", ["g_entities", "vgrag_meta"])  # a graph's, and the one read when a db opens
@pytest.mark.parametrize("cut", ["empty", "header", "vectors"])  # killed after open("wb"), in the header, in the data
def test_a_torn_index_file_is_kept_aside_and_rebuilt_with_every_row(pristine, tmp_path, caplog, collection, cut):
    db = tmp_path / "crash.db"
    shutil.copytree(pristine[0], db)
    torn = _index_file(db, collection)
    whole = torn.read_bytes()
    keep = {"empty": 0, "header": 64, "vectors": len(whole) - 4}[cut]  # np.save: the header, then the vectors
    torn.write_bytes(whole[:keep])
    with caplog.at_level(logging.WARNING, logger="vgrag.storage.lite_files"):
        ws = Workspace.open(Settings(milvus_uri=str(db)), HashEmbedder())  # failed before the fix
        assert {k: _rows(ws, k) for k in pristine[1]} == pristine[1]  # every row, read from Milvus
        report = check_graph(ws.graph("g"))
        assert report.ok, report.problems
        ws.close()
        _release(str(db))
    kept = list((db / RECOVERED_DIR).rglob(torn.name))
    assert len(kept) == 1 and kept[0].read_bytes() == whole[:keep]  # the torn file kept, as it was
    assert torn.read_bytes() == whole  # rebuilt by Lite from the data: the same vectors
    said = [r.getMessage() for r in caplog.records if torn.name in r.getMessage()]
    assert len(said) == 1 and collection in said[0] and str(kept[0]) in said[0]


def test_damage_outside_the_index_files_is_reported_never_moved(pristine, tmp_path):
    """A cut data file is not what a kill leaves (Lite commits one by an atomic manifest replace, and replays its log
    for a flush that was cut): it is no index file, so nothing is moved or rebuilt, and the error names the file. (A
    guard on the recovery's reach: it passes without the fix too.)"""
    db = tmp_path / "crash.db"
    shutil.copytree(pristine[0], db)
    data = sorted((db / "collections" / "g_entities").glob("partitions/*/data/*.parquet"))[-1]
    data.write_bytes(data.read_bytes()[:100])
    try:
        with pytest.raises(StoreError, match=r"g_entities/partitions/_default/data/data_.*parquet"):
            ws = Workspace.open(Settings(milvus_uri=str(db)), HashEmbedder())
            ws.graph("g")
    finally:
        _release(str(db))
    assert not (db / RECOVERED_DIR).exists()


def test_an_arrow_index_file_cut_before_its_footer_is_unreadable(tmp_path):
    """Lite's scalar index files (`.sidx`) are Arrow IPC files: whole, they read; cut, the reason is given."""
    path = tmp_path / "data_000001_000004.kind.inverted.sidx"
    table = pa.table({"value": ["entity", "relation"] * 50, "row_id": list(range(100))})
    with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table)
    assert unreadable(path) is None
    path.write_bytes(path.read_bytes()[:-20])
    assert unreadable(path) is not None


def test_killed_inside_lites_index_write_during_a_merge_then_reopened(pristine, tmp_path):
    db = tmp_path / "crash.db"
    shutil.copytree(pristine[0], db)
    code = KILLED_IN_INDEX_WRITE.format(root=str(ROOT), tests=str(ROOT / "tests"), path=str(db))
    proc = subprocess.run([sys.executable, "-c", code], env=dict(os.environ), capture_output=True, timeout=120)
    assert proc.returncode == -9, proc.stderr.decode()[-2000:]  # killed inside the write, not finished
    assert not (db / RECOVERED_DIR).exists()
    ws = Workspace.open(Settings(milvus_uri=str(db)), HashEmbedder())  # failed before the fix
    g = ws.graph("g")  # the merge (its log record pending or done when killed) is finished: the graph checks
    report = check_graph(g)
    assert report.ok, report.problems
    assert [e.status for e in ws.edits("g")] == ["done"]
    assert g.get_entities([entity_id("CLL")]) == []
    kept = list((db / RECOVERED_DIR).rglob("*.idx"))
    assert len(kept) == 1 and unreadable(kept[0]) is not None  # the half-written file, kept as the kill left it
    ws.close()
    _release(str(db))

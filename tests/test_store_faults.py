"""Storage under damage: cut or replaced side files, a read-only or full disk, hostile graph names, a graph whose
ingest was cut. Each fault gives a working graph or one clear message, never a traceback or a lost file."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from vgrag.models import Document, Triple
from vgrag.storage.check import check_graph
from vgrag.storage.database import Database, StoreError
from vgrag.storage.vectors import VectorCopy
from vgrag.storage.writer import SourceChunk, write_chunks
from vgrag.text import entity_id

ROOT = Path(__file__).resolve().parent.parent
ADA = SourceChunk("d", "Ada", "Ada Lovelace worked with Charles Babbage.", 0,
                  (Triple("Ada Lovelace", "worked with", "Charles Babbage"),))  # fmt: skip


def test_a_truncated_vector_copy_is_rebuilt_not_raised(tmp_path, embedder):
    db = Database(str(tmp_path / "cut.db"))
    g = db.open_graph("cut", embedder.model_id, embedder.dim)
    write_chunks(g, embedder, [ADA])
    files = sorted((tmp_path / "cut.db" / "vgrag-vectors").glob("*.npz"))
    assert files, "the copies are saved after a write"
    for f in files:  # a crash or a full disk cut every copy short
        f.write_bytes(f.read_bytes()[: len(f.read_bytes()) // 2])
    assert VectorCopy.load(files[0], "any", embedder.dim) is None
    db.close()
    db = Database(str(tmp_path / "cut.db"))  # a new start reads the files again
    g = db.open_graph("cut", embedder.model_id, embedder.dim)
    for _ in range(2):  # rebuilt from Milvus on the first read, and saved whole
        hits = g.search("entities", embedder.embed(["Charles Babbage"]), 1)[0]
        assert hits[0].record.id == entity_id("Charles Babbage")
    with np.load(files[0]) as z:
        assert len(z["ids"]) >= 1
    db.close()


def test_hostile_or_missing_graph_names_never_touch_files(tmp_path, db):
    assert db.vectors_dir is not None
    outside = (db.vectors_dir / "../../x_entities.npz").resolve()  # where "../../x" would have pointed
    outside.write_bytes(b"keep me")
    for bad in ("../../x", "grafé", "x\n", "", "a" * 41):
        with pytest.raises(StoreError, match="must start with a letter"):
            db.drop_graph(bad)
        with pytest.raises(StoreError, match="must start with a letter"):
            db.open_graph(bad, "m", 4)
    assert outside.read_bytes() == b"keep me"
    assert db.drop_graph("nothere") is False  # the CLI and the app say so (Workspace.drop)


def test_check_reports_documents_whose_ingest_was_cut(graph, embedder):
    write_chunks(graph, embedder, [ADA])
    graph.documents.put(Document("d", "notes.md", "h", 1, True, 1.0))
    assert check_graph(graph).ok
    graph.documents.put(Document("d", "notes.md", "h", 1, False, 1.0))
    report = check_graph(graph)
    assert not report.ok and any("notes.md" in p and "incomplete" in p for p in report.problems)


def _in_mount_namespace(tmp_path: Path, setup: str, code: str) -> subprocess.CompletedProcess:
    """Run Python `code` where `setup` (shell, as root of a private mount namespace) changed the mounts."""
    if shutil.which("unshare") is None:
        pytest.skip("needs `unshare` (util-linux) for a private mount namespace")
    probe = subprocess.run(["unshare", "-rm", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"unprivileged mount namespaces are unavailable here: {probe.stderr.decode().strip()}")
    script = tmp_path / "run.py"
    script.write_text(f"import sys\nsys.path[:0] = [{str(ROOT)!r}, {str(ROOT / 'tests')!r}]\n" + code)
    return subprocess.run(
        ["unshare", "-rm", "sh", "-c", f"{setup} && exec {sys.executable} {script}"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip


OPEN_AND_WRITE = """
from fakes import HashEmbedder
from vgrag.storage.database import Database, StoreError, quiet_storage_logs
from vgrag.storage.writer import SourceChunk, write_chunks
quiet_storage_logs()
e = HashEmbedder()
try:
    g = Database(sys.argv[1] if len(sys.argv) > 1 else DB).open_graph("g", e.model_id, e.dim)
    for i in range(400):
        write_chunks(g, e, [SourceChunk("d", "t", f"Passage {i} {j} " + "word " * 300, j) for j in range(50)])
    print("NO ERROR")
except StoreError as ex:
    print("STORE ERROR", ex)
"""


def test_a_read_only_database_is_reported_as_read_only(tmp_path, embedder):
    folder = tmp_path / "ro"
    folder.mkdir()
    db = Database(str(folder / "x.db"))
    db.open_graph("g", embedder.model_id, embedder.dim)
    db.close()
    out = _in_mount_namespace(
        tmp_path, f"mount --bind -o ro {folder} {folder}", f"DB = {str(folder / 'x.db')!r}\n" + OPEN_AND_WRITE
    )
    assert "STORE ERROR" in out.stdout, out.stdout + out.stderr[-2000:]
    assert "read-only file system" in out.stdout and "another process" not in out.stdout


def test_a_full_disk_is_one_clear_message(tmp_path):
    folder = tmp_path / "small"
    folder.mkdir()
    out = _in_mount_namespace(
        tmp_path, f"mount -t tmpfs -o size=4M tmpfs {folder}", f"DB = {str(folder / 'x.db')!r}\n" + OPEN_AND_WRITE
    )
    assert "STORE ERROR" in out.stdout and "is full" in out.stdout, out.stdout + out.stderr[-2000:]


def test_cli_drop_of_a_missing_or_hostile_name_says_so(tmp_path, monkeypatch, capsys):
    from vgrag.cli import main

    monkeypatch.setenv("VGRAG_MILVUS_URI", str(tmp_path / "cli.db"))
    for name, says in (("nothere", "No graph named 'nothere'"), ("../../x", "must start with a letter"),
                       ("grafé", "must start with a letter")):  # fmt: skip
        assert main(["graphs", "--drop", name]) == 2
        out = capsys.readouterr()
        assert says in out.err and "dropped" not in out.out

"""A process killed (SIGKILL) in the middle of an edit leaves a pending record; reopening finishes the edit and
the graph checks consistent. The edit pauses between its writes (VGRAG_EDIT_PAUSE, after a flush) to be killed
there."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from editgraph import openie
from fakes import HashEmbedder

from vgrag import Settings, Workspace
from vgrag.editing import EditLog
from vgrag.storage.check import check_graph
from vgrag.text import entity_id, relation_id

ROOT = Path(__file__).resolve().parent.parent
EDIT = """
import sys
sys.path[:0] = [{root!r}, {tests!r}]
from fakes import HashEmbedder
from vgrag import Settings, Workspace
ws = Workspace.open(Settings(milvus_uri={path!r}), HashEmbedder())
{call}
"""


def _release(path: str) -> None:
    from milvus_lite.server_manager import server_manager_instance

    server_manager_instance.release_server(path)


@pytest.mark.parametrize(
    ("call", "pauses"),
    [
        ("ws.merge_entities('CLL', 'Chronic lymphocytic leukemia', graph='g')", 2),
        (f"ws.delete_relation({relation_id('zy:t', 'born', 'December 22, 1955')!r}, graph='g')", 1),
    ],
)
def test_kill_mid_edit_then_reopen_is_consistent(tmp_path, call, pauses):
    path = str(tmp_path / "crash.db")
    ws = Workspace.open(Settings(milvus_uri=path), HashEmbedder())
    ws.import_triples(("bio.json", openie()), graph="g")
    ws.close()
    _release(path)
    code = EDIT.format(root=str(ROOT), tests=str(ROOT / "tests"), path=path, call=call)
    env = {**os.environ, "VGRAG_EDIT_PAUSE": str(pauses)}
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, env=env, text=True)
    try:
        # `pauses` groups of writes land, then it waits before the next one: killed there
        assert proc.stdout.readline().strip() == "edit-paused"  # type: ignore[union-attr]
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    ws = Workspace.open(Settings(milvus_uri=path), HashEmbedder())
    e = HashEmbedder()
    raw = ws.db.open_graph("g", e.model_id, e.dim)  # the graph as the kill left it (not through the front door)
    assert not check_graph(raw).ok  # half an edit: the test would fail without the resume below
    assert [x.status for x in EditLog(raw).all()] == ["pending"]
    g = ws.graph("g")  # opening it through the Workspace finishes the pending edit before anything reads it
    assert [x.status for x in EditLog(g).all()] == ["done"]
    assert [x.status for x in ws.edits("g")] == ["done"]
    report = check_graph(g)
    assert report.ok, report.problems
    if "merge" in call:
        assert g.get_entities([entity_id("CLL")]) == []
    else:
        assert g.get_relations([relation_id("zy:t", "born", "December 22, 1955")]) == []
    ws.close()
    _release(path)

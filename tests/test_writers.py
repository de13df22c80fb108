"""Writers that own their writes: a question never waits for an ingest, two programs writing one graph through a
shared server lose nothing, a delete cut short by kill -9 is finished on the next open, `repair` restores lost
links, and deletes page past Milvus's limits and count references past capped id lists."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from helpers import linked_triples_file, lite_server
from milvus_lite import server_manager_instance

from vgrag import Settings, Workspace
from vgrag.models import Document, Triple
from vgrag.storage import tables
from vgrag.storage.check import check_graph
from vgrag.storage.database import Database
from vgrag.storage.lease import Lease, LeaseTimeout
from vgrag.storage.meta import MetaStore
from vgrag.storage.repair import repair_graph
from vgrag.storage.writer import SourceChunk, delete_document, write_chunks
from vgrag.text import entity_id

ROOT = Path(__file__).resolve().parent.parent


def _documents(graph, *ids: str) -> None:
    for d in ids:
        graph.documents.put(Document(d, d, "h", 1, True, time.time()))


def test_a_question_through_the_workspace_never_waits_for_an_ingest_into_another_graph(tmp_path, embedder):
    """The app's path: a Workspace ingests a large file into one graph while questions ask another. The questions
    (on a graph not yet loaded into memory, as after a restart) are answered while the ingest runs."""
    path = str(tmp_path / "w.db")
    ws = Workspace.open(Settings(milvus_uri=path), embedder)
    ws.import_triples(linked_triples_file(tmp_path / "a.jsonl", "A", 40), graph="asked")
    ws.close()
    server_manager_instance.release_server(path)

    ws = Workspace.open(Settings(milvus_uri=path), embedder)  # a new start: nothing of "asked" in memory yet
    big = linked_triples_file(tmp_path / "b.jsonl", "B", 300)  # 6 batches; ~400 questions came in 800
    started, window = threading.Event(), {}

    def ingest() -> None:
        def progress(_: object) -> None:
            started.set()

        window["start"] = time.perf_counter()
        ws.import_triples(big, graph="built", batch_size=50, on_progress=progress)
        window["end"] = time.perf_counter()

    t = threading.Thread(target=ingest)
    t.start()
    assert started.wait(60)
    answered: list[tuple[float, float]] = []
    while t.is_alive():
        t0 = time.perf_counter()
        trace = ws.query("Who works with Shared Person 3?", graph="asked", use_llm=False)
        answered.append((time.perf_counter(), time.perf_counter() - t0))
        assert trace.passages.passages
    t.join()
    during = [dt for at, dt in answered if at < window["end"]]
    assert len(during) >= 5, f"{len(during)} questions answered during a {window['end'] - window['start']:.1f} s ingest"
    assert statistics.median(during) < (window["end"] - window["start"]) / 5
    ws.close()


def test_two_programs_ingesting_one_graph_through_a_shared_server_lose_no_link(tmp_path):
    """Two CLI ingests at once into one new graph through `milvus-lite server` (the README's way to share a file):
    both complete, and every link is reciprocal (they merged the same entities' id lists)."""
    files = [linked_triples_file(tmp_path / f"{p}.jsonl", p, 150) for p in ("Left", "Right")]
    with lite_server(tmp_path / "srv") as uri:
        env = {**os.environ, "VGRAG_MILVUS_URI": uri, "VGRAG_GRAPH": "shared", "PYTHONPATH": str(ROOT)}
        env.pop("OPENAI_BASE_URL", None)
        procs = [
            subprocess.Popen(
                [sys.executable, "-m", "vgrag", "ingest", "--triples", str(f), "--batch-size", "10"],
                cwd=ROOT,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )  # fmt: skip
            for f in files
        ]
        outs = [p.communicate(timeout=600) for p in procs]
        assert [p.returncode for p in procs] == [0, 0], [o[1][-1500:] for o in outs]
        check = subprocess.run([sys.executable, "-m", "vgrag", "check"], cwd=ROOT, env=env, capture_output=True,
                               text=True, timeout=300)  # fmt: skip
        report = json.loads(check.stdout)
        assert check.returncode == 0 and report["ok"], report["problems"][:5]
        assert report["counts"]["passages"] == 300 and report["counts"]["documents"] == 2


class _OtherProgramFirst:
    """The real connection, but the other program creates `vgrag_meta` between our look and our create: the look
    says it is missing (the timing two CLI ingests into one new database on a server hit, once in a suite run)."""

    def __init__(self, client) -> None:  # noqa: ANN001 - a vgrag.storage.connection.Connection
        self._client, self._looked = client, False

    def has_collection(self, name: str) -> bool:
        if not self._looked:
            self._looked = True
            return False
        return self._client.has_collection(name)

    def __getattr__(self, attr: str):  # noqa: ANN204 - everything else is the real client's
        return getattr(self._client, attr)


def test_a_database_another_program_is_creating_is_opened_not_refused(db):
    db.meta.put("probe:race", "probe", "race", {"n": 1})
    store = MetaStore(_OtherProgramFirst(db.client))
    store.ensure()  # was: MilvusException "collection 'vgrag_meta' already exists", and the CLI ingest failed
    assert store.get("probe:race") == {"n": 1}
    db.meta.delete(["probe:race"])


def test_the_lease_lets_one_writer_in_at_a_time_and_passes_over_a_dead_one(db):
    inside, overlaps = [0], []

    def writer() -> None:
        for _ in range(3):
            with Lease(db.meta, "leased").hold():
                inside[0] += 1
                overlaps.append(inside[0])
                time.sleep(0.05)
                inside[0] -= 1

    threads = [threading.Thread(target=writer) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert overlaps == [1] * 9
    # a writer that died keeps its record until it expires: passed over then, waited for (with a message) before
    dead = {"number": 1, "choosing": False, "holder": "gone pid 1", "expires": time.time() - 1}
    db.meta.put("lease:leased:dead", "lease", "leased", dead)
    with Lease(db.meta, "leased", wait_s=5).hold():
        pass
    db.meta.put("lease:leased:alive", "lease", "leased", {**dead, "holder": "busy pid 2", "expires": time.time() + 60})
    with pytest.raises(LeaseTimeout, match="busy pid 2"):
        Lease(db.meta, "leased", wait_s=0.5).acquire()
    db.meta.delete(["lease:leased:alive"])


KILL_AFTER_RELATIONS = """
import os, sys
sys.path[:0] = [{root!r}, {tests!r}]
from fakes import HashEmbedder
from vgrag.storage.database import Database
from vgrag.storage.writer import delete_document
e = HashEmbedder()
g = Database({path!r}).open_graph("g", e.model_id, e.dim)
real = g.delete
def dying(kind, ids):
    real(kind, ids)
    if kind == "relations":
        os.kill(os.getpid(), 9)  # kill -9 between the relations' delete and the entities'
g.delete = dying
delete_document(g, {doc!r})
"""


def test_a_document_delete_killed_midway_is_finished_on_the_next_open(tmp_path, embedder):
    path = str(tmp_path / "k.db")
    db = Database(path)
    g = db.open_graph("g", embedder.model_id, embedder.dim)
    chunks = [
        SourceChunk("gone", f"t{i}", f"Ann {i} met Bob.", i, (Triple(f"Ann {i}", "met", "Bob"),)) for i in range(5)
    ]
    write_chunks(g, embedder, [*chunks, SourceChunk("kept", "k", "Bob met Cy.", 0, (Triple("Bob", "met", "Cy"),))])
    from vgrag.models import Document

    for d in ("gone", "kept"):
        g.documents.put(Document(d, d, "h", 1, True, time.time()))
    db.close()
    server_manager_instance.release_server(path)
    script = KILL_AFTER_RELATIONS.format(root=str(ROOT), tests=str(ROOT / "tests"), path=path, doc="gone")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert out.returncode == -9, out.stderr[-1500:]

    db = Database(path)
    g = db.open_graph("g", embedder.model_id, embedder.dim)  # finishes the delete
    assert [d.id for d in g.documents.all()] == ["kept"]
    assert check_graph(g).ok, check_graph(g).problems
    assert {e.name for e in g.iter_entities()} == {"Bob", "Cy"}
    db.close()
    server_manager_instance.release_server(path)


def test_repair_restores_links_a_lost_merge_dropped(graph, embedder):
    write_chunks(graph, embedder, [SourceChunk("d", "a", "Ann met Bob.", 0, (Triple("Ann", "met", "Bob"),))])
    write_chunks(graph, embedder, [SourceChunk("d", "b", "Cy met Bob.", 1, (Triple("Cy", "met", "Bob"),))])
    _documents(graph, "d")
    [(bob, vec)] = graph.get_with_vectors("entities", [entity_id("Bob")])
    from dataclasses import replace

    with graph.lock:  # what a second writer's stale merge wrote back: Bob lost Cy's relation and passage
        graph.write("entities", [(replace(bob, relation_ids=bob.relation_ids[:1], passage_ids=bob.passage_ids[:1]),
                                  vec)], {bob.id})  # fmt: skip
        graph.flush()
    assert not check_graph(graph).ok
    report = repair_graph(graph)
    assert report.rewritten["entities"] == 1 and check_graph(graph).ok
    [bob] = graph.get_entities([entity_id("Bob")])
    assert len(bob.relation_ids) == 2 and len(bob.passage_ids) == 2
    assert not repair_graph(graph).changed  # idempotent


def test_an_entity_in_more_facts_than_a_list_holds_survives_deleting_one_of_its_documents(graph, embedder):
    """Hub is in 4,100 facts of document A (its relation list keeps 4,096) and one of B: deleting A keeps Hub."""
    many = [SourceChunk("A", f"a{i}", f"Hub deals {i}.", i,
                        tuple(Triple("Hub", f"deal {i}-{j}", f"Partner {i}-{j}") for j in range(100)))
            for i in range(41)]  # fmt: skip
    write_chunks(graph, embedder, many)
    write_chunks(
        graph, embedder, [SourceChunk("B", "b", "Hub is owned by Zed.", 0, (Triple("Hub", "owned by", "Zed"),))]
    )
    _documents(graph, "A", "B")
    delete_document(graph, "A")
    [hub] = graph.get_entities([entity_id("Hub")])
    assert hub.name == "Hub"
    assert check_graph(graph).ok


def test_deleting_a_document_pages_past_the_query_limit(graph, embedder, monkeypatch):
    monkeypatch.setattr(tables, "QUERY_LIMIT", 40)  # Milvus's is 16,384: the same paging, on a small graph
    write_chunks(graph, embedder, [SourceChunk("big", f"p{i}", f"Passage number {i}.", i) for i in range(100)])
    write_chunks(graph, embedder, [SourceChunk("other", "o", "Another text.", 0)])
    assert len(graph.passages_of_doc("big")) == 100
    report = delete_document(graph, "big")
    assert report.passages == 100 and graph.counts()["passages"] == 1

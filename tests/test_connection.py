"""The one way to Milvus (connection.py): a failed graph creation leaves nothing behind, a server too old is refused
by version, and a server's failures become one message naming it."""

from __future__ import annotations

import pytest

from vgrag.storage.connection import Connection, ServerUnavailableError, UnsupportedServerError
from vgrag.storage.database import StoreError
from vgrag.storage.lexical import LexicalIndex


def test_a_failed_graph_creation_is_rolled_back(db, embedder, monkeypatch):
    def refuse(self: LexicalIndex) -> bool:  # as Milvus 2.3 refused the BM25 index (code 1100)
        raise StoreError("create index on 104 field is not supported")

    monkeypatch.setattr(LexicalIndex, "create", refuse)
    with pytest.raises(StoreError, match="not supported"):
        db.open_graph("halfmade", embedder.model_id, embedder.dim)
    assert "halfmade" not in [g.name for g in db.list_graphs()]
    assert not [c for c in db.client.list_collections() if c.startswith("halfmade_")]
    monkeypatch.undo()
    g = db.open_graph("halfmade", embedder.model_id, embedder.dim)  # and can be made again
    assert g.counts() == {"passages": 0, "entities": 0, "relations": 0}
    db.drop_graph("halfmade")


class Deadline(Exception):
    """What gRPC raises when a call's deadline passes (its text, as `grpc._channel._InactiveRpcError` gives it)."""

    def __str__(self) -> str:
        return "<_InactiveRpcError: StatusCode.DEADLINE_EXCEEDED, Deadline Exceeded>"


class Server:
    """The MilvusClient calls a server answers here: its version, writes, and a get that the server never answers
    until `answers` is set; each get's (timeout, consistency level) is recorded."""

    def __init__(self, version: str) -> None:
        self.version, self.calls, self.answers = version, [], False

    def get_server_version(self, timeout: float | None = None) -> str:
        return self.version

    def get(self, collection: str, ids: list, timeout: float | None = None, **kwargs: object) -> list:
        self.calls.append((timeout, kwargs.get("consistency_level")))
        if not self.answers:
            raise Deadline()
        return []

    def insert(self, collection: str, rows: list, timeout: float | None = None) -> dict:
        return {"insert_count": len(rows)}

    def delete(self, collection: str, ids: list, timeout: float | None = None) -> dict:
        return {"delete_count": len(ids)}


def test_a_server_older_than_the_minimum_is_refused_by_version():
    with pytest.raises(UnsupportedServerError, match=r"version 2\.2\.9; vgrag needs Milvus 2\.3\.0"):
        Connection(Server("v2.2.9"), "http://db:19530", server=True).check_version()
    new = Connection(Server("v2.5.4"), "http://db:19530", server=True)
    new.check_version()
    assert new.has_bm25 and not _checked("v2.3.5").has_bm25


def _checked(version: str) -> Connection:
    c = Connection(Server(version), "http://db:19530", server=True)
    c.check_version()
    return c


def test_server_calls_have_a_deadline_fresh_reads_and_one_clear_error():
    c = _checked("v2.3.5")
    with pytest.raises(ServerUnavailableError, match=r"server at http://db:19530 did not answer get within 8.0 s"):
        c.get("g_passages", ids=["x"])
    c.insert("g_passages", [{"id": "x"}])
    with pytest.raises(ServerUnavailableError):
        c.get("g_passages", ids=["x"])
    assert c.raw.calls == [(8.0, None), (8.0, "Session")]  # our own write seen: Session, only after our write


def test_after_our_own_delete_reads_are_strong_until_one_strong_read_has_returned():
    """A delete does not advance the timestamp Session reads carry (Milvus 2.3.5): the first read after it is Strong,
    and once one has returned, the server has applied the delete and Session reads see it."""
    c = _checked("v2.3.5")
    c.delete("g_relations", ids=["r"])
    with pytest.raises(ServerUnavailableError):
        c.get("g_relations", ids=["r"])  # a Strong read that failed proves nothing
    c.raw.answers = True
    c.get("g_relations", ids=["r"])
    c.get("g_relations", ids=["r"])
    c.get("g_passages", ids=["p"])  # another collection: not written, the collection's own level
    assert [level for _, level in c.raw.calls] == ["Strong", "Strong", "Session", None]


def test_threads_writing_and_flushing_one_lite_file_at_once_all_succeed(db):
    """Milvus Lite numbers writes and flushes in one sequence: unordered, two threads' flushes failed with "current_seq
    is monotonic" (2 and 5 of 60 puts in two runs without the connection's Lite write lock)."""
    import threading

    errors: list[str] = []

    def put(i: int) -> None:
        for j in range(15):
            try:
                db.meta.put(f"probe:{i}:{j}", "probe", "flushprobe", {"i": i, "j": j})
            except StoreError as e:
                errors.append(str(e))

    threads = [threading.Thread(target=put, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(db.meta.rows("probe", "flushprobe")) == 60
    db.meta.delete([r["id"] for r in db.meta.rows("probe", "flushprobe")])

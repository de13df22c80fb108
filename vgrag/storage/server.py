"""`MilvusStore`: a graph on a Milvus server, which searches and reads with its own index (HNSW with a wide search,
see tables.Index). Nothing is kept beside the server; every process sees the others' writes within the server's
consistency lag (reads right after this process's own writes are Strong, connection.py)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from .base import CommitEvent, Hit, Listener
from .schema import ID, VEC, Kind, Record, from_row
from .tables import Tables


class MilvusStore:
    """The three collections of one graph, read, searched and written in Milvus itself."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.name = tables.name
        self._pending = CommitEvent({}, {})
        self._listeners: list[Listener] = []

    def get(self, kind: Kind, ids: Sequence[str]) -> list[Record]:
        return [from_row(kind, r) for r in self.tables.get(kind, ids, self.tables.fields(kind))]

    def get_with_vectors(self, kind: Kind, ids: Sequence[str]) -> list[tuple[Record, np.ndarray]]:
        rows = self.tables.get(kind, ids, self.tables.fields(kind, True))
        return [(from_row(kind, r), np.asarray(r[VEC], dtype=np.float32)) for r in rows]

    def search(self, kind: Kind, vectors: np.ndarray, k: int, with_vectors: bool = False) -> list[list[Hit]]:
        out = []
        for hits in self.tables.search(kind, vectors, k, self.tables.fields(kind, with_vectors)[1:]):
            row_hits = []
            for h in hits:
                fields = {ID: h["id"], **h["entity"]}
                vec = np.asarray(fields[VEC], dtype=np.float32) if with_vectors else None
                row_hits.append(Hit(from_row(kind, fields), float(h["distance"]), vec))
            out.append(row_hits)
        return out

    def scan(self, kind: Kind, fields: list[str]) -> Iterable[list[dict]]:
        return self.tables.scan(kind, fields)

    def upsert(self, kind: Kind, rows: Sequence[dict], existing: set[str]) -> None:
        self.tables.write(kind, rows, existing)
        self._pending.written[kind] = self._pending.written.get(kind, ()) + tuple(rows)

    def delete(self, kind: Kind, ids: Sequence[str]) -> None:
        self.tables.delete(kind, ids)
        self._pending.deleted[kind] = self._pending.deleted.get(kind, ()) + tuple(ids)

    def commit(self) -> None:
        """A server keeps its own log durable (a flush costs seconds there): tell the subscribers."""
        event, self._pending = self._pending, CommitEvent({}, {})
        for listener in self._listeners:
            listener(event)

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def refresh(self) -> None:
        return None

    def ready(self) -> bool:
        return True

    def load(self) -> None:
        return None

    def forget(self) -> None:
        return None

    def close(self) -> None:
        return None

"""The two search engines behind a graph (store.Graph), and the named indexes each keeps in step with writes.

- `MilvusEngine` — a Milvus server: searches and primary-key reads go to Milvus with its own index; the passages'
  title index is read once and kept in step; the reader tags sentences at query time.
- `LocalEngine` — a Milvus Lite file: the in-process copies (mirror.py, copies.py) are the search engine and the
  Lite file the durable store; the title index derives from the passages' copy; the sentence tags are saved
  beside the file. A collection too large for a copy (`mirror.MAX_ROWS`) falls back to Milvus itself.

A graph calls `before_write` before a write reaches Milvus, `wrote`/`deleted` after Milvus accepted it, and `save`
at the end of an ingest; the engine keeps its copies and indexes in step, so the writer remembers none of them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from .connection import Connection
from .copies import GraphCopies
from .meta import MetaStore
from .mirror import Mirrors, VectorMirror
from .schema import ID, TITLE, VEC, Kind, Record, decode_row, from_row, output_fields
from .tags import SentenceTags
from .titles import TitleIndex

BATCH = 2000


@dataclass(frozen=True)
class Hit:
    """A search result: the record, its cosine similarity, and its vector when asked for."""

    record: Record
    score: float
    vector: np.ndarray | None = None


@dataclass(frozen=True)
class Collections:
    """What an engine reads from: the connection, each kind's collection name, how a server searches (`params(k)`),
    the graph's write lock, and a scan of every row of a kind (for the copies and the title index)."""

    client: Connection
    coll: Callable[[Kind], str]
    search_params: Callable[[int], dict]
    lock: threading.RLock
    scan: Callable[[Kind, list[str]], Iterable[list[dict]]]


class MilvusEngine:
    """Reads and searches in Milvus itself."""

    def __init__(self, store: Collections) -> None:
        self.store = store
        self.tags = SentenceTags(None)  # none stored beside a server: the reader tags at query time, kept in memory
        self._titles: TitleIndex | None = None  # read on first use, then kept in step with this process's writes

    # ---------- reads and searches
    def _rows(self, kind: Kind, ids: Sequence[str], with_vectors: bool) -> list[dict]:
        g, ids = self.store, list(dict.fromkeys(ids))
        fields = [ID, *output_fields(kind, with_vectors)]
        rows: list[dict] = []
        for start in range(0, len(ids), BATCH):
            rows.extend(g.client.get(g.coll(kind), ids=ids[start : start + BATCH], output_fields=fields))
        return rows

    def get(self, kind: Kind, ids: Sequence[str]) -> list[Record]:
        return [from_row(kind, r) for r in self._rows(kind, ids, False)]

    def get_with_vectors(self, kind: Kind, ids: Sequence[str]) -> list[tuple[Record, np.ndarray]]:
        return [(from_row(kind, r), np.asarray(r[VEC], dtype=np.float32)) for r in self._rows(kind, ids, True)]

    def search(self, kind: Kind, vectors: np.ndarray, k: int, with_vectors: bool) -> list[list[Hit]]:
        g = self.store
        res = g.client.search(
            g.coll(kind),
            data=[[float(x) for x in v] for v in vectors],
            limit=k,
            output_fields=output_fields(kind, with_vectors),
            search_params=g.search_params(k),
        )
        out = []
        for hits in res:
            row_hits = []
            for h in hits:
                fields = {ID: h["id"], **h["entity"]}
                vec = np.asarray(fields[VEC], dtype=np.float32) if with_vectors else None
                row_hits.append(Hit(from_row(kind, fields), float(h["distance"]), vec))
            out.append(row_hits)
        return out

    def titles(self) -> TitleIndex:
        """The passages' titles, read once per graph object; passages another program adds later are found by name
        once the graph is opened again (their vectors and triples serve at once)."""
        with self.store.lock:
            if self._titles is None:
                rows = self.store.scan("passages", [ID, TITLE])
                self._titles = TitleIndex((r[ID], r[TITLE]) for batch in rows for r in batch)
            return self._titles

    # ---------- keeping in step
    def loaded(self) -> bool:
        return True

    def load(self) -> None:
        return None

    def before_write(self, kind: Kind) -> None:
        return None

    def wrote(self, kind: Kind, rows: Sequence[dict]) -> None:
        if kind == "passages" and self._titles is not None:
            self._titles.add((r[ID], r[TITLE]) for r in rows)

    def deleted(self, kind: Kind, ids: Sequence[str]) -> None:
        if kind == "passages" and self._titles is not None:
            self._titles.remove(ids)

    def save(self) -> None:
        return None


class LocalEngine(MilvusEngine):
    """Milvus Lite: exact search and reads over the in-process copies; Milvus where a collection has no copy."""

    def __init__(self, store: Collections, mirrors: Mirrors, name: str, dim: int, meta: MetaStore) -> None:
        super().__init__(store)
        self.copies = GraphCopies(mirrors, name, dim, store.lock, meta, store.coll, store.scan)
        self.tags = mirrors.tags

    def _copy(self, kind: Kind) -> VectorMirror | None:
        return self.copies.get(kind)

    def get(self, kind: Kind, ids: Sequence[str]) -> list[Record]:
        m = self._copy(kind)
        if m is None:
            return super().get(kind, ids)
        return [decode_row(kind, b) for b in m.rows(list(dict.fromkeys(ids)))]  # exactly the collection's rows

    def get_with_vectors(self, kind: Kind, ids: Sequence[str]) -> list[tuple[Record, np.ndarray]]:
        m = self._copy(kind)
        if m is None:
            return super().get_with_vectors(kind, ids)
        records = self.get(kind, ids)
        vecs = m.vectors([r.id for r in records])
        return [(r, vecs[r.id]) for r in records if r.id in vecs]

    def search(self, kind: Kind, vectors: np.ndarray, k: int, with_vectors: bool) -> list[list[Hit]]:
        m = self._copy(kind)
        if m is None:
            return super().search(kind, vectors, k, with_vectors)
        found = m.search(np.asarray(vectors), k)
        wanted = list(dict.fromkeys(x for hits in found for x, _ in hits))
        records = {r.id: r for r in self.get(kind, wanted)}
        vecs = m.vectors(wanted) if with_vectors else {}
        return [[Hit(records[x], s, vecs.get(x)) for x, s in hits if x in records] for hits in found]

    def titles(self) -> TitleIndex:
        index = self.copies.titles()  # None: no passages' copy (more than MAX_ROWS passages)
        return index if index is not None else super().titles()

    def loaded(self) -> bool:
        return self.copies.loaded() and self.tags.loaded

    def load(self) -> None:
        self.copies.load()
        self.tags.load()

    def before_write(self, kind: Kind) -> None:
        self.copies.before_write(kind)

    def wrote(self, kind: Kind, rows: Sequence[dict]) -> None:
        self.copies.wrote(kind, rows)  # after Milvus took the rows: the copy never holds what the store lacks
        super().wrote(kind, rows)

    def deleted(self, kind: Kind, ids: Sequence[str]) -> None:
        self.copies.deleted(kind, ids)
        super().deleted(kind, ids)

    def save(self) -> None:
        self.copies.save()

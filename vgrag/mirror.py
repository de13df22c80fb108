"""Exact nearest-neighbour search in this process over a copy of one collection's vectors.

Milvus Lite 3.2.2 answers every search with a Python loop over all stored rows (measured on a 9,002-passage
graph: 250 ms per entity search over 92k rows, 205 ms over 87k relations, 20 ms over 9k passages). A matrix
product over the same vectors takes a few milliseconds and returns the same exact cosine ranking, so for a
Lite file the graph keeps one `VectorMirror` per collection: loaded from Milvus on first use, updated by every
write and delete made through the same `Database` (a Lite file is open in one process only), and used only
for ids and scores — records are still read from Milvus by primary key. Servers search with their own index.

Reading every vector back from Lite is slow too (~10 s per 90k rows), so each copy is also kept on disk, in
`vgrag-vectors/` inside the Lite data directory, tagged with a token that every write to the collection renews
in the database itself (`vgrag_meta`): a copy whose token differs is stale and is rebuilt from Milvus.
"""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Sequence
from pathlib import Path

import numpy as np

# Above this many rows a copy costs more memory than it is worth on a laptop (1M × 384 floats = 1.5 GB):
# searches go to Milvus itself, and the README points such corpora at a Milvus server.
MAX_ROWS = 1_000_000


def _unit(vectors: np.ndarray) -> np.ndarray:
    v = np.asarray(vectors, dtype=np.float32)
    if v.ndim == 1:
        v = v[None, :]
    norms = np.linalg.norm(v, axis=1, keepdims=True)
    return v / np.where(norms == 0, 1.0, norms)


class VectorMirror:
    """Unit vectors by id with exact top-k cosine search; thread-safe; rows move on delete (swap with last)."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.ids: list[str] = []
        self.pos: dict[str, int] = {}
        self._mat = np.zeros((0, dim), dtype=np.float32)
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.ids)

    def upsert(self, ids: Sequence[str], vectors: np.ndarray) -> None:
        if not len(ids):
            return
        unit = _unit(vectors)
        with self._lock:
            n = len(self.ids)
            fresh = [i for i, x in enumerate(ids) if x not in self.pos]
            need = n + len(fresh)
            if need > len(self._mat):  # grow geometrically so repeated small writes stay linear
                grown = np.zeros((max(need, 2 * len(self._mat), 1024), self.dim), dtype=np.float32)
                grown[:n] = self._mat[:n]
                self._mat = grown
            for i, x in enumerate(ids):
                row = self.pos.get(x)
                if row is None:
                    row = len(self.ids)
                    self.pos[x] = row
                    self.ids.append(x)
                self._mat[row] = unit[i]

    def remove(self, ids: Sequence[str]) -> None:
        with self._lock:
            for x in ids:
                row = self.pos.pop(x, None)
                if row is None:
                    continue
                last = len(self.ids) - 1
                if row != last:
                    moved = self.ids[last]
                    self.ids[row], self._mat[row] = moved, self._mat[last]
                    self.pos[moved] = row
                self.ids.pop()

    def vectors(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        with self._lock:
            return {x: self._mat[self.pos[x]].copy() for x in ids if x in self.pos}

    def search(self, queries: np.ndarray, k: int) -> list[list[tuple[str, float]]]:
        """The k most similar ids per query (cosine), best first; ties by id so results are reproducible."""
        q = _unit(queries)
        with self._lock:
            n = len(self.ids)
            if n == 0 or k <= 0:
                return [[] for _ in range(len(q))]
            scores = q @ self._mat[:n].T
            out = []
            for row in scores:
                top = np.argpartition(-row, k - 1)[:k] if k < n else np.arange(n)
                ranked = sorted(top.tolist(), key=lambda j: (-row[j], self.ids[j]))
                out.append([(self.ids[j], float(row[j])) for j in ranked])
            return out

    def save(self, path: Path, token: str) -> None:
        """Write the copy atomically (a crash leaves the old file or none, never half of one)."""
        with self._lock:
            n = len(self.ids)
            ids, mat = np.asarray(self.ids, dtype=str), self._mat[:n].copy()
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
        with open(tmp, "wb") as f:
            np.savez(f, ids=ids, vectors=mat, token=np.asarray(token))
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: Path, token: str, dim: int) -> VectorMirror | None:
        """The copy saved with `token`, or None (absent, stale, another dimension or unreadable)."""
        try:
            with np.load(path, allow_pickle=False) as z:
                if str(z["token"]) != token or z["vectors"].shape[1:] != (dim,):
                    return None
                m = cls(dim)
                ids = [str(x) for x in z["ids"]]
                m.ids, m.pos, m._mat = ids, {x: i for i, x in enumerate(ids)}, np.asarray(z["vectors"], np.float32)
                return m if len(m.pos) == len(ids) == len(m._mat) else None
        except (OSError, ValueError, KeyError):
            return None


class Mirrors:
    """The copies of one Lite database's collections (shared by every `Graph` opened on it) and their files."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.by_collection: dict[str, VectorMirror | None] = {}
        self.tokens: dict[str, str] = {}  # collection -> its token, once known in this process
        self.unsaved: set[str] = set()  # collections written since their file was saved (token already renewed)

    def path(self, collection: str) -> Path:
        return self.directory / f"{collection}.npz"

    def forget(self, collection: str) -> None:
        self.by_collection.pop(collection, None)
        self.tokens.pop(collection, None)
        self.unsaved.discard(collection)
        self.path(collection).unlink(missing_ok=True)


def new_token() -> str:
    return uuid.uuid4().hex

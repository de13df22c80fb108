"""Exact nearest-neighbour search and primary-key reads in this process, over a copy of one collection.

Milvus Lite 3.2.2 answers every search with a Python loop over all stored rows (measured on a 9,002-passage
graph: 250 ms per entity search over 92k rows, 205 ms over 87k relations, 20 ms over 9k passages). A matrix
product over the same vectors takes a few milliseconds and returns the same exact cosine ranking. Reads by
primary key are slow as well (Lite materialises every column of a row, its 384 floats included, before
projecting: ~0.15-0.4 ms per row, 43 ms of hop look-ups per query at 9k passages). So for a Lite file the graph
keeps one `VectorCopy` per collection — each row's vector and its other fields (compact JSON) — loaded from
Milvus on first use and updated by every write and delete its store makes (local.py; a Lite file is open in one
process only). Milvus stays the store of record; servers search and read with their own engine.

Reading every vector back from Lite is slow too (~10 s per 90k rows), so each copy is also kept on disk, in
`vgrag-vectors/` inside the Lite data directory, tagged with the graph's generation, which every write renews in
the graph's record (`vgrag_meta`): a copy whose generation differs is stale and is rebuilt from Milvus.
"""

from __future__ import annotations

import os
import threading
import uuid
import zipfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from .projection import MIN_ROWS, Projection, worth_projecting

FORMAT = 2  # of the saved file: 1 held vectors only; a file of another format is rebuilt, never read


Snapshot = tuple[np.ndarray, np.ndarray, list[bytes]]  # ids, unit vectors, encoded rows


def _unit(vectors: np.ndarray) -> np.ndarray:
    """Unit rows; a row with a NaN or infinite value (an embedder's fault) becomes the zero vector: similar to
    nothing, and never a NaN that would reorder a search."""
    v = np.asarray(vectors, dtype=np.float32)
    if not np.isfinite(v).all():
        v = np.where(np.isfinite(v).all(axis=-1, keepdims=True), v, 0.0).astype(np.float32)
    if v.ndim == 1:
        v = v[None, :]
    norms = np.linalg.norm(v, axis=1, keepdims=True)
    return v / np.where(norms == 0, 1.0, norms)


class VectorCopy:
    """Unit vectors and encoded rows by id, exact top-k cosine search; thread-safe; rows move on delete (swap
    with last)."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.ids: list[str] = []
        self.pos: dict[str, int] = {}
        self._rows: list[bytes] = []  # each row's fields but its vector, as the store encoded them
        self._mat = np.zeros((0, dim), dtype=np.float32)
        self._proj: Projection | None = None  # the pruned exact search of a large copy (projection.py), when built
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.ids)

    def upsert(self, ids: Sequence[str], vectors: np.ndarray, rows: Sequence[bytes]) -> None:
        if not len(ids):
            return
        if len(rows) != len(ids) or len(vectors) != len(ids):
            raise ValueError("one vector and one row per id")
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
                    self._rows.append(rows[i])
                else:
                    self._rows[row] = rows[i]
                self._mat[row] = unit[i]
            if self._proj is not None:
                self._proj.set_rows([self.pos[x] for x in ids], unit)

    def remove(self, ids: Sequence[str]) -> None:
        with self._lock:
            for x in ids:
                row = self.pos.pop(x, None)
                if row is None:
                    continue
                last = len(self.ids) - 1
                if row != last:
                    moved = self.ids[last]
                    self.ids[row], self._mat[row], self._rows[row] = moved, self._mat[last], self._rows[last]
                    self.pos[moved] = row
                    if self._proj is not None:
                        self._proj.move(last, row)
                self.ids.pop()
                self._rows.pop()

    def ids_snapshot(self) -> list[str]:
        with self._lock:
            return list(self.ids)

    def rows(self, ids: Sequence[str]) -> list[bytes]:
        """The encoded rows of the ids present, in the order asked (absent ids are skipped)."""
        with self._lock:
            return [self._rows[self.pos[x]] for x in ids if x in self.pos]

    def vectors(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        with self._lock:
            return {x: self._mat[self.pos[x]].copy() for x in ids if x in self.pos}

    def prepare(self) -> None:
        """Fit a large copy's projection now (when the copy is loaded), not on its first search."""
        with self._lock:
            self._projection()

    def _projection(self) -> Projection | None:
        n = len(self.ids)
        if n < MIN_ROWS or not worth_projecting(self.dim):
            return None
        if self._proj is None or n > 2 * self._proj.built_at:
            self._proj = Projection(self._mat[:n])
        return self._proj

    def search(self, queries: np.ndarray, k: int) -> list[list[tuple[str, float]]]:
        """The k most similar ids per query (cosine), best first; ties by id so results are reproducible. A large
        copy reads its projection first and the full vectors of the few rows that can still win (projection.py)."""
        q = _unit(queries)
        with self._lock:
            n = len(self.ids)
            if n == 0 or k <= 0:
                return [[] for _ in range(len(q))]
            proj = self._projection()
            if proj is not None and k < n:
                found = [proj.search(self._mat, n, v, k) for v in q]
            else:
                # rows × dim times dim × queries: a matrix-vector product over the C-ordered rows (for one query) —
                # the transposed form `q @ mat.T` took OpenBLAS's slow, threaded path (8 ms vs 0.3 ms at 19k rows)
                found = [(np.arange(n), row) for row in (self._mat[:n] @ q.T).T]
            out = []
            for rows, scores in found:
                if k < len(rows):  # every row tied with the k-th score, so that ties go by id whatever the path
                    top = np.flatnonzero(scores >= np.partition(scores, len(scores) - k)[len(scores) - k])
                else:
                    top = np.arange(len(rows))
                ranked = sorted(top.tolist(), key=lambda j: (-scores[j], self.ids[rows[j]]))[:k]
                out.append([(self.ids[rows[j]], float(scores[j])) for j in ranked])
            return out

    def snapshot(self) -> Snapshot:
        """The copy's ids, vectors and rows as they are now (written later by `write_snapshot`)."""
        with self._lock:
            n = len(self.ids)
            return np.asarray(self.ids, dtype=str), self._mat[:n].copy(), list(self._rows)

    def save(self, path: Path, token: str) -> None:
        """Write the copy atomically (a crash leaves the old file or none, never half of one)."""
        write_snapshot(path, token, self.snapshot())

    @classmethod
    def load(cls, path: Path, token: str, dim: int) -> VectorCopy | None:
        """The copy saved with `token`, or None (absent, stale, another dimension or unreadable)."""
        try:
            with np.load(path, allow_pickle=False) as z:
                if "format" not in z or int(z["format"]) != FORMAT:
                    return None
                if str(z["token"]) != token or z["vectors"].shape[1:] != (dim,):
                    return None
                m = cls(dim)
                ids = [str(x) for x in z["ids"]]
                blob, ends = z["rows"].tobytes(), z["row_ends"].tolist()
                if len(ends) != len(ids) or (ends and ends[-1] != len(blob)):
                    return None
                m._rows = [blob[a:b] for a, b in zip([0, *ends[:-1]], ends, strict=True)]
                m.ids, m.pos, m._mat = ids, {x: i for i, x in enumerate(ids)}, np.asarray(z["vectors"], np.float32)
                return m if len(m.pos) == len(ids) == len(m._mat) else None
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):  # cut by a crash or a full disk
            return None


def write_snapshot(path: Path, token: str, snap: Snapshot) -> None:
    """Write a copy's snapshot atomically (a crash leaves the old file or none, never half of one)."""
    ids, mat, rows = snap
    ends = np.cumsum([len(r) for r in rows], dtype=np.int64)
    blob = np.frombuffer(b"".join(rows), dtype=np.uint8)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    with open(tmp, "wb") as f:
        np.savez(f, ids=ids, vectors=mat, rows=blob, row_ends=ends, token=np.asarray(token), format=FORMAT)
    os.replace(tmp, path)

"""Exact top-k cosine search that reads a third of the vectors: a projection with a bound (used by mirror.py).

A brute-force search over a large copy reads every float of every row (83k relations × 384 floats = 128 MB per
search at 9k passages, ~5-6 ms on 2 cores, and it evicts the embedding model from the CPU cache). Here each unit
row v is kept as its coordinates p = B v in an orthonormal basis B of `DIMS` directions (the collection's principal
ones) and the length r of what is left, |v - Bᵀp|. For a unit query q (coordinates B q, rest of length ρ), the
Cauchy-Schwarz inequality bounds every score: p·Bq - ρr ≤ v·q ≤ p·Bq + ρr. So:

1. score every row on the projection alone (`DIMS` floats a row),
2. compute the exact scores of the ~8k best of those: their k-th best is a floor t under the true k-th score,
3. compute exact scores only for the rows whose upper bound reaches t — no other row can be in the top k.

The result is the brute-force result (same rows, same scores), for any basis; the basis only decides how many rows
step 3 reads (83k relation vectors, the MuSiQue questions: a median 0.4 % of the rows, 3.1 % at the 90th
percentile; `scripts/search_speed.py`). The basis is fitted on a sample when a copy of `MIN_ROWS` rows or more is
loaded (0.3-0.8 s) or first grows to that size, and again when it has doubled since.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

MIN_ROWS = 16_384  # below this a plain matrix product is as fast (9k passage vectors: 0.45 vs 0.43 ms)
DIMS = 128
_SAMPLE = 8_192
_SLACK = 1e-4  # float32 rounding of the bound's terms; a wider floor only reads a few more rows


def worth_projecting(dim: int) -> bool:
    """Whether vectors of this dimension gain from a projection: it must be well short of the full vector, and the
    basis cheap to fit at load (an SVD of a sample of `_SAMPLE` × dim; 3,072-dim vectors would take tens of
    seconds) — otherwise the plain product is used, as exact."""
    return 2 * DIMS <= dim <= 1024


class Projection:
    """Coordinates and residual lengths of a copy's rows, kept row for row with the copy's matrix."""

    def __init__(self, mat: np.ndarray) -> None:
        n = len(mat)
        rng = np.random.default_rng(0)
        sample = mat[np.sort(rng.choice(n, _SAMPLE, replace=False))] if n > _SAMPLE else mat
        _, _, vt = np.linalg.svd(sample - sample.mean(axis=0), full_matrices=False)
        self.basis = np.ascontiguousarray(vt[: min(DIMS, mat.shape[1])], dtype=np.float32)
        self.built_at = n
        self.coords = np.zeros((len(mat), len(self.basis)), dtype=np.float32)
        self.rest = np.zeros(len(mat), dtype=np.float32)
        self.set_rows(np.arange(n), mat)

    def set_rows(self, rows: np.ndarray | Sequence[int], vectors: np.ndarray) -> None:
        """(Re)compute the given rows from their unit vectors, growing with the copy's matrix."""
        rows = np.asarray(rows, dtype=np.int64)
        if not len(rows):
            return
        need = int(rows.max()) + 1
        if need > len(self.coords):
            size = max(need, 2 * len(self.coords))
            self.coords = np.resize(self.coords, (size, self.coords.shape[1]))
            self.rest = np.resize(self.rest, size)
        p = vectors @ self.basis.T
        self.coords[rows] = p
        self.rest[rows] = np.linalg.norm(vectors - p @ self.basis, axis=1)

    def move(self, src: int, dst: int) -> None:
        self.coords[dst], self.rest[dst] = self.coords[src], self.rest[src]

    def search(self, mat: np.ndarray, n: int, query: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Row indices whose exact score can be in the top k of the unit `query` over `mat[:n]` (every row of the
        true top k is among them, ties included), with their exact scores."""
        qp = self.basis @ query
        rho = float(np.linalg.norm(query - qp @ self.basis))
        approx = self.coords[:n] @ qp
        first = self._likely_best(approx, k)
        exact = mat[first] @ query
        floor = float(np.partition(exact, len(exact) - k)[len(exact) - k]) - _SLACK
        cand = np.flatnonzero(approx + rho * self.rest[:n] >= floor)
        return cand, mat[cand] @ query

    @staticmethod
    def _likely_best(approx: np.ndarray, k: int) -> np.ndarray:
        """At least k rows, about 8k, among the best by their projected score: above the value that an evenly
        spaced sample ranks at 8k/n (a full selection over n rows costs more than the product itself)."""
        n = len(approx)
        sample = approx[:: max(1, n // _SAMPLE)]
        rank = max(1, -(-8 * k * len(sample) // n))
        if rank < len(sample):
            cut = np.partition(sample, len(sample) - rank)[len(sample) - rank]
            rows = np.flatnonzero(approx >= cut)
            if len(rows) >= k:
                return rows
        return np.argpartition(approx, n - k)[n - k :]

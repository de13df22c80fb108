"""The pruned exact search of a large copy (storage/projection.py) returns what a brute-force search returns."""

from __future__ import annotations

import numpy as np
import pytest

from vgrag.storage import projection, vectors
from vgrag.storage.vectors import VectorCopy
from vgrag.storage.projection import Projection

DIM = 64


def _structured(rng: np.random.Generator, n: int) -> np.ndarray:
    """Vectors like a sentence model's: most of their length in a few shared directions, some exact duplicates."""
    v = rng.normal(size=(n, 6)) @ rng.normal(size=(6, DIM)) + 0.35 * rng.normal(size=(n, DIM))
    v[n // 2 : n // 2 + 20] = v[n // 2]  # ties: equal scores must come out in id order, as brute force gives them
    return v.astype(np.float32)


def _brute(m: VectorCopy, q: np.ndarray, k: int) -> list[tuple[str, float]]:
    n = len(m.ids)
    s = m._mat[:n] @ (q / np.linalg.norm(q))
    return [(m.ids[i], float(s[i])) for i in sorted(range(n), key=lambda i: (-s[i], m.ids[i]))[:k]]


def _same(m: VectorCopy, queries: np.ndarray) -> None:
    for q in queries:
        for k in (1, 10, 60):
            got, want = m.search(q, k)[0], _brute(m, q, k)
            assert [x for x, _ in got] == [x for x, _ in want]
            assert np.allclose([s for _, s in got], [s for _, s in want], atol=1e-5)


@pytest.mark.parametrize("structured", [True, False])
def test_large_copy_search_is_exact_through_writes_removals_and_growth(monkeypatch, structured):
    monkeypatch.setattr(vectors, "MIN_ROWS", 1000)
    monkeypatch.setattr(projection, "DIMS", 12)
    monkeypatch.setattr(projection, "_SAMPLE", 700)
    rng = np.random.default_rng(7)
    data = _structured(rng, 5000) if structured else rng.normal(size=(5000, DIM)).astype(np.float32)
    ids = [f"r{i:05d}" for i in range(5000)]
    m = VectorCopy(DIM)
    for start in range(0, 1500, 500):
        m.upsert(ids[start : start + 500], data[start : start + 500], [b"{}"] * 500)
    queries = np.concatenate([data[rng.choice(5000, 6)] + 0.2 * rng.normal(size=(6, DIM)), rng.normal(size=(3, DIM))])
    _same(m, queries)
    assert m._proj is not None and m._proj.built_at == 1500  # the pruned search ran

    m.upsert(ids[1500:2500], data[1500:2500], [b"{}"] * 1000)  # new rows after the basis was fitted
    m.upsert(ids[:40], rng.normal(size=(40, DIM)).astype(np.float32), [b"{}"] * 40)  # replaced vectors
    m.remove(ids[100:400] + ids[2400:2450])  # rows move (swap with last)
    _same(m, queries)
    assert m._proj.built_at == 1500

    m.upsert(ids[2500:5000], data[2500:5000], [b"{}"] * 2500)  # doubled since: the basis is fitted again
    _same(m, queries)
    assert m._proj.built_at == len(m)


def test_the_bound_reads_few_rows_of_structured_vectors(monkeypatch):
    monkeypatch.setattr(projection, "DIMS", 12)  # of 64: the bound, not a complete basis, must do the pruning
    rng = np.random.default_rng(1)
    mat = _structured(rng, 6000)
    mat /= np.linalg.norm(mat, axis=1, keepdims=True)
    p = Projection(mat)
    assert p.rest.min() > 0.05
    q = mat[17] + 0.1 * rng.normal(size=DIM).astype(np.float32)
    q /= np.linalg.norm(q)
    rows, scores = p.search(mat, len(mat), q, 10)
    best = np.argsort(-(mat @ q))[:10]
    assert set(best) <= set(rows.tolist())  # the top 10 are among the rows read
    assert np.allclose(scores, mat[rows] @ q)
    assert len(rows) < len(mat) // 10  # and the bound spared most of the copy


def test_vectors_too_short_or_too_long_for_a_projection_are_searched_whole(monkeypatch):
    monkeypatch.setattr(vectors, "MIN_ROWS", 100)
    rng = np.random.default_rng(2)
    for dim in (64, 1536):  # 128 of 64 would be the whole vector; a 1,536-dim basis costs too much to fit
        m = VectorCopy(dim)
        v = rng.normal(size=(300, dim)).astype(np.float32)
        m.upsert([f"x{i}" for i in range(300)], v, [b"{}"] * 300)
        q = v[3] + 0.1 * rng.normal(size=dim).astype(np.float32)
        assert [x for x, _ in m.search(q, 5)[0]] == [x for x, _ in _brute(m, q, 5)]
        assert m._proj is None


@pytest.mark.parametrize("rows", [3000, 17000])  # a plain product, then the projection (above MIN_ROWS)
def test_ties_at_the_kth_score_go_by_id_on_both_paths(rows):
    """An uncased model gives "Paris" and "PARIS" one vector: which tied rows make the top k must not depend on the
    path or on where the rows sit (argpartition kept an arbitrary subset of the tied rows)."""
    rng = np.random.default_rng(5)
    v = rng.normal(size=(rows, 384)).astype(np.float32)
    same = rng.permutation(rows)[:300]
    v[same] = v[same[0]]
    ids = [f"id{i:05d}" for i in range(rows)]
    m = VectorCopy(384)
    m.upsert(ids, v, [b"{}"] * rows)
    got = [x for x, _ in m.search(v[same[0]], 5)[0]]
    assert got == sorted(ids[i] for i in same)[:5]


def test_a_nan_vector_is_similar_to_nothing_and_breaks_no_search(monkeypatch):
    monkeypatch.setattr(vectors, "MIN_ROWS", 1000)
    monkeypatch.setattr(projection, "DIMS", 12)
    rng = np.random.default_rng(6)
    v = _structured(rng, 3000)
    v[::15] = np.nan  # 200 rows from a faulty embedder
    m = VectorCopy(DIM)
    m.upsert([f"r{i:05d}" for i in range(3000)], v, [b"{}"] * 3000)
    q = v[7] + 0.1 * rng.normal(size=DIM).astype(np.float32)
    got = m.search(q, 10)[0]
    assert len(got) == 10 and all(np.isfinite(s) for _, s in got)
    assert [x for x, _ in got] == [x for x, _ in _brute(m, q, 10)]
    assert m.search(np.full(DIM, np.nan, np.float32), 3)[0] == [("r00000", 0.0), ("r00001", 0.0), ("r00002", 0.0)]

"""Exact search over a copy: the pruned search (storage/projection.py) against a brute-force product.

Usage: python scripts/search_speed.py COPY.npz [QUESTIONS_JSON] [--k 10]

COPY.npz is a saved copy (`vgrag-vectors/<graph>_<collection>.npz` in a Lite database folder). Queries are the
questions' vectors (MiniLM) when a questions file is given, else 60 of the copy's own rows. Prints the fitting time,
median and 90th-percentile milliseconds of both searches, the rows the bound read, and how many results differ.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vgrag.storage.vectors import VectorCopy  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("copy")
    ap.add_argument("questions", nargs="?")
    ap.add_argument("--k", type=int, default=10)
    a = ap.parse_args()
    k = a.k
    with np.load(a.copy, allow_pickle=False) as z:
        ids, mat = [str(x) for x in z["ids"]], np.asarray(z["vectors"], np.float32)
    if a.questions:
        from vgrag.embed import make_embedder

        queries = make_embedder("minilm").embed([q["question"] for q in json.loads(Path(a.questions).read_text())])
    else:
        queries = mat[np.random.default_rng(0).choice(len(mat), 60, replace=False)]
    m = VectorCopy(mat.shape[1])
    m.upsert(ids, mat, [b""] * len(ids))
    t0 = time.perf_counter()
    m.prepare()
    fit_s = time.perf_counter() - t0
    unit = m._mat[: len(ids)]
    pruned, brute, read, differ = [], [], [], 0
    for q in queries:
        t0 = time.perf_counter()
        got = m.search(q, k)[0]
        pruned.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        s = unit @ (q / np.linalg.norm(q))
        top = np.flatnonzero(s >= np.partition(s, len(s) - k)[len(s) - k])  # every row tied with the k-th
        want = sorted(((ids[j], float(s[j])) for j in top), key=lambda x: (-x[1], x[0]))[:k]
        brute.append((time.perf_counter() - t0) * 1000)
        differ += [x for x, _ in got] != [x for x, _ in want]
        if m._proj is not None:
            read.append(len(m._proj.search(unit, len(ids), q / np.linalg.norm(q), k)[0]) / len(ids))

    def q90(v: list[float]) -> float:
        return sorted(v)[int(0.9 * (len(v) - 1))]

    print(
        json.dumps(
            {
                "rows": len(ids),
                "queries": len(queries),
                "k": k,
                "fit_s": round(fit_s, 3),
                "pruned_ms": {"median": round(statistics.median(pruned), 2), "p90": round(q90(pruned), 2)},
                "brute_ms": {"median": round(statistics.median(brute), 2), "p90": round(q90(brute), 2)},
                "rows_read_pct": {"median": round(100 * statistics.median(read), 2), "p90": round(100 * q90(read), 2)}
                if read
                else None,
                "results_differing": differ,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()

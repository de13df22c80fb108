"""Paired comparison of two checkouts' offline extraction vs HippoRAG's GPT-3.5 triples (MuSiQue), per passage.

Usage:
  python scripts/extract_paired.py counts DIR N START CODE OUT.json   per-passage canonical-key pair counts of the
                                                                      vgrag in CODE (a frozen checkout)
  python scripts/extract_paired.py compare A.json B.json              Δ pair recall / precision (B − A) with 95 %
                                                                      intervals from 2,000 resamples of passages
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path


def counts(folder: str, n: int, start: int, code: str, out: str) -> None:
    sys.path.insert(0, code)
    from vgrag.extraction.entities import key
    from vgrag.extraction.extract import OfflineExtractor

    docs = json.loads(next(Path(folder).glob("openie*.json")).read_text())["docs"][start : start + n]
    res = OfflineExtractor().extract_many([d["text"] for d in docs], [d["title"] for d in docs])
    rows = []
    for d, r in zip(docs, res, strict=True):
        gold = {frozenset((key(str(t[0])), key(str(t[2])))) for t in d["extracted_triples"] if len(t) == 3}
        ours = {frozenset((key(t.subject), key(t.object))) for t in r.triples}
        rows.append([len(gold & ours), len(ours), len(gold)])
    Path(out).write_text(json.dumps(rows))


def compare(a_path: str, b_path: str, resamples: int = 2000) -> None:
    a, b = json.loads(Path(a_path).read_text()), json.loads(Path(b_path).read_text())
    rnd = random.Random(0)

    def rp(rows: list, idx: list[int]) -> tuple[float, float]:
        tp, ours, gold = (sum(rows[i][k] for i in idx) for k in range(3))
        return tp / max(gold, 1), tp / max(ours, 1)

    every = list(range(len(a)))
    (ra, pa), (rb, pb) = rp(a, every), rp(b, every)
    diffs = []
    for _ in range(resamples):
        idx = [rnd.randrange(len(a)) for _ in every]
        (r1, p1), (r2, p2) = rp(a, idx), rp(b, idx)
        diffs.append((r2 - r1, p2 - p1))
    lo, hi = int(0.025 * resamples), int(0.975 * resamples) - 1
    dr, dp = sorted(d[0] for d in diffs), sorted(d[1] for d in diffs)
    print(json.dumps({"passages": len(a), "recall": [round(ra, 4), round(rb, 4)], "precision": [round(pa, 4),
          round(pb, 4)], "d_recall": [round(rb - ra, 4), round(dr[lo], 4), round(dr[hi], 4)], "d_precision":
          [round(pb - pa, 4), round(dp[lo], 4), round(dp[hi], 4)], "triples": [sum(x[1] for x in a),
          sum(x[1] for x in b)]}))  # fmt: skip


if __name__ == "__main__":
    if sys.argv[1] == "counts":
        counts(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6])
    else:
        compare(sys.argv[2], sys.argv[3])

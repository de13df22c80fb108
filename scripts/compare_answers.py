"""Paired comparison of two answer runs (scripts/answer_timing.py --out) over the same questions: per metric the
mean of each and the difference with its paired bootstrap 95 % interval (10,000 resamples of the questions, seed 0).
"wrong_shown" is a short answer shown that contains no gold answer: what the offline answer must avoid.

Usage: python scripts/compare_answers.py BEFORE.json AFTER.json
"""

from __future__ import annotations

import json
import sys

import numpy as np


def main() -> None:
    before, after = (json.loads(open(f, encoding="utf-8").read()) for f in sys.argv[1:3])
    assert len(before) == len(after), "the two runs must cover the same questions"
    for run in (before, after):
        for s in run:
            s["wrong_shown"] = float(s["answered"] and not s["contains"])
    idx = np.random.default_rng(0).integers(0, len(before), size=(10_000, len(before)))
    for key in ("answered", "contains", "wrong_shown", "evidence_contains"):
        b = np.array([s[key] for s in before])
        a = np.array([s[key] for s in after])
        lo, hi = np.percentile((a - b)[idx].mean(1), [2.5, 97.5])
        print(
            f"{key:18} before {100 * b.mean():5.1f}  after {100 * a.mean():5.1f}  "
            f"diff {100 * (a - b).mean():+5.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]"
        )


if __name__ == "__main__":
    main()

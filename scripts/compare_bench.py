"""Two `bench --out` files of the same questions compared question by question: for every method and k, how many
questions gained or lost recall (and which), the mean recall of each, and the latency figures bench printed.

Usage: python scripts/compare_bench.py BEFORE.json AFTER.json [--show 10]
"""

from __future__ import annotations

import argparse
import json


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--show", type=int, default=10, help="list up to this many differing questions per method")
    a = ap.parse_args()
    b, c = (json.loads(open(f, encoding="utf-8").read()) for f in (a.before, a.after))
    qb, qa = {q["id"]: q for q in b["questions"]}, {q["id"]: q for q in c["questions"]}
    assert list(qb) == list(qa), "the two runs must cover the same questions in the same order"
    print(f"{b['dataset']}: {len(qb)} questions; passages {b['passages']} → {c['passages']}; "
          f"ingest {b['ingest_s']} s → {c['ingest_s']} s; counts {b['ingest'].get('counts')} → "
          f"{c['ingest'].get('counts')}")  # fmt: skip
    identical = True
    for m in b["methods"]:
        if m not in c["methods"]:
            print(f"{m}: not in {a.after}")
            identical = False
            continue
        rb, ra = b["methods"][m], c["methods"][m]
        ks = list(rb["recall"])
        diff = {qid: {k: round(qa[qid][m][k] - qb[qid][m][k], 4) for k in ks} for qid in qb}
        changed = {qid: d for qid, d in diff.items() if any(d.values())}
        identical &= not changed
        rec = " ".join(f"R@{k} {rb['recall'][k]}→{ra['recall'][k]}" for k in ks)
        lat = (f"median {rb['latency_ms']['median']}→{ra['latency_ms']['median']} ms, "
               f"p90 {rb['latency_ms']['p90']}→{ra['latency_ms']['p90']} ms")  # fmt: skip
        ups = {k: sum(d[k] > 0 for d in diff.values()) for k in ks}
        downs = {k: sum(d[k] < 0 for d in diff.values()) for k in ks}
        moved = " ".join(f"R@{k} +{ups[k]}/-{downs[k]}" for k in ks)
        print(f"{m:7} {rec} | {lat} | questions changed: {len(changed)} ({moved})")
        for qid, d in list(changed.items())[: a.show]:
            moved = " ".join(f"R@{k} {v:+.2f}" for k, v in d.items() if v)
            print(f"    {qid}: {moved}  {qb[qid]['question'][:90]}")
    print("IDENTICAL per question, every method and k" if identical else "NOT identical")


if __name__ == "__main__":
    main()

"""How long an edit takes on a big graph: one relation edited, and an entity with 50 relations merged.

Usage: flock /tmp/heavy.lock python scripts/edit_speed.py [--db /tmp/edit_speed.db] [--passages 10000] [--uri URI]

Builds (once; a re-run reuses the --db file) a synthetic graph by importing triples (`ingest --triples`): N
passages of 8 triples each over a pool of names (~8N relations, like a 9k-passage MuSiQue graph's 83k), plus 40
"hub" entities with exactly 50 relations each. Then times, through the Workspace with the offline MiniLM embedder:
edit_relation (a predicate changed) ×10, merge of a 50-relation hub into another hub ×10, undo of each, and the
store's flush alone (every edit ends with one). Prints the median and the worst in seconds as JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vgrag import Settings, Workspace  # noqa: E402
from vgrag.text import relation_id  # noqa: E402

VERBS = ["owns", "founded", "leads", "advises", "funds", "acquired", "supplies", "audits", "hosts", "trains",
         "partners with", "competes with", "sued", "hired", "sponsors", "builds for"]  # fmt: skip
HUBS, PER_HUB = 40, 50


def synthetic(n: int, seed: int = 0) -> tuple[bytes, list[tuple[str, str, str]]]:
    """JSON lines of n passages with 8 triples each; hubs get exactly PER_HUB relations as subject."""
    rnd = random.Random(seed)
    pool = [f"Company {i}" for i in range(n * 2)]
    hub_triples = [(f"Hub {h}", VERBS[k % len(VERBS)], f"Company {rnd.randrange(len(pool))} branch {k}")
                   for h in range(HUBS) for k in range(PER_HUB)]  # fmt: skip
    rnd.shuffle(hub_triples)
    lines, plain = [], []
    for i in range(n):
        triples = [(rnd.choice(pool), rnd.choice(VERBS), rnd.choice(pool)) for _ in range(8)]
        triples += hub_triples[i::n]  # every hub triple in some passage
        plain.extend(triples)
        text = " ".join(f"{s} {p} {o}." for s, p, o in triples)
        lines.append(json.dumps({"title": f"Record {i}", "passage": text, "triples": [list(t) for t in triples]}))
    return "\n".join(lines).encode(), plain


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def summary(xs: list[float]) -> dict:
    return {"median_s": round(statistics.median(xs), 3), "max_s": round(max(xs), 3), "n": len(xs)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default="/tmp/edit_speed.db")
    ap.add_argument("--uri", help="a Milvus server (http://host:19530) instead of the Lite file")
    ap.add_argument("--passages", type=int, default=10_000)
    a = ap.parse_args()
    ws = Workspace.open(Settings(milvus_uri=a.uri or a.db))
    g = "speed"
    data, plain = synthetic(a.passages)
    t0 = time.perf_counter()
    report = ws.import_triples(("synthetic.jsonl", data), graph=g)
    build_s = time.perf_counter() - t0
    counts = ws.graph(g).counts()
    graph = ws.graph(g)
    graph.load_copies()
    rnd = random.Random(1)
    edit, merge, undo = [], [], []
    for k in range(10):
        s, p, o = plain[rnd.randrange(len(plain))]
        rid = relation_id(s, p, o)
        if not graph.get_relations([rid]):
            continue
        edit.append(timed(lambda rid=rid, k=k: ws.edit_relation(rid, predicate=f"edited {k}", graph=g)))
        undo.append(timed(lambda: ws.undo(graph=g)))
    for h in range(0, 20, 2):
        hub = ws.entity_named(f"Hub {h}", g)
        assert hub is not None and len(hub.relation_ids) == PER_HUB, hub
        merge.append(timed(lambda h=h: ws.merge_entities(f"Hub {h}", f"Hub {h + 1}", graph=g)))
        undo.append(timed(lambda: ws.undo(graph=g)))
    flush = [timed(graph.flush) for _ in range(5)]  # the store's commit alone (storage/store.py), part of every edit
    out = {
        "graph": counts,
        "build_s": round(build_s, 1) if report.documents else "reused",
        "edit_relation": summary(edit),
        "merge_50_relations": summary(merge),
        "undo": summary(undo),
        "flush_alone": summary(flush),
        "store": a.uri or "milvus-lite",
    }
    print(json.dumps(out, indent=1))
    ws.close()


if __name__ == "__main__":
    main()

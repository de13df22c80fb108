"""Where a query's time goes, on a benchmark graph kept by `bench --db`.

Usage: python scripts/latency_breakdown.py DB_FILE GRAPH QUESTIONS_JSON [N] [--embedder minilm|e5]

Runs naive, hybrid and graph retrieval interleaved (question by question, so load hits all alike) and prints
medians: total, the time spent embedding (each method's "embeddings"), and for the graph its steps (seeds = entity
and relation searches, hops, eviction, rerank, passages = the second embedding, passage searches, ranking), plus the
collection sizes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vgrag.config import QueryParams  # noqa: E402
from vgrag.embed import make_embedder  # noqa: E402
from vgrag.query.baselines import retrieve_hybrid, retrieve_naive  # noqa: E402
from vgrag.query.retrieve import retrieve  # noqa: E402
from vgrag.storage.database import Database, quiet_storage_logs  # noqa: E402


class _Timed:
    """The embedder, with the time its calls took during one query (`ms`)."""

    def __init__(self, inner: object) -> None:
        self.inner, self.ms = inner, 0.0
        self.model_id, self.dim = inner.model_id, inner.dim  # type: ignore[attr-defined]
        if hasattr(inner, "embed_query"):
            self.embed_query = lambda texts: self._timed(inner.embed_query, texts)  # type: ignore[attr-defined]

    def _timed(self, fn, texts):  # noqa: ANN001, ANN202
        t0 = time.perf_counter()
        try:
            return fn(texts)
        finally:
            self.ms += (time.perf_counter() - t0) * 1000

    def embed(self, texts):  # noqa: ANN001, ANN201
        return self._timed(self.inner.embed, texts)  # type: ignore[attr-defined]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("db_file")
    ap.add_argument("graph")
    ap.add_argument("questions")
    ap.add_argument("n", nargs="?", type=int, default=60)
    ap.add_argument("--embedder", choices=("minilm", "e5"), default="minilm")
    a = ap.parse_args()
    db_file, name, qfile, n, kind = a.db_file, a.graph, a.questions, a.n, a.embedder
    quiet_storage_logs()
    emb = _Timed(make_embedder(kind))
    db = Database(db_file)
    g = db.open_graph(name, emb.model_id, emb.dim, create=False)
    questions = [q["question"] for q in json.loads(Path(qfile).read_text())][:n]
    p = QueryParams()
    steps: dict[str, list[float]] = {}

    def add(key: str, ms: float) -> None:
        steps.setdefault(key, []).append(ms)

    retrieve(questions[0], g, emb, p)  # warm caches once
    for q in questions:
        for label, fn in (("naive", retrieve_naive), ("hybrid", retrieve_hybrid), ("graph", retrieve)):
            emb.ms = 0.0
            t0 = time.perf_counter()
            tr = fn(q, g, emb, p)
            add(f"{label} total", (time.perf_counter() - t0) * 1000)
            add(f"{label}: embeddings", emb.ms)
            if label == "graph":
                add("graph: seeds", tr.seeds.ms)
                add("graph: hops", sum(h.ms for h in tr.hops))
                add("graph: eviction", tr.eviction.ms if tr.eviction else 0.0)
                add("graph: rerank", tr.rerank.ms)
                add("graph: passages", tr.passages.ms)
    out = {"counts": g.counts(), "questions": len(questions)}
    out |= {k: round(statistics.median(v), 1) for k, v in steps.items()}
    out["graph / naive"] = round(out["graph total"] / out["naive total"], 2)
    print(json.dumps(out, indent=1))
    db.close()


if __name__ == "__main__":
    main()

"""The funnel over a benchmark, beside bench's Recall@k on the same graph: per method, the gold reached at each
stage, where the lost gold was dropped, and the check that the funnel's last stage equals Recall@k.

    flock /tmp/heavy.lock python scripts/funnel_bench.py ../shared/bench/musique_train --db /tmp/mus.db
    flock /tmp/heavy.lock python scripts/funnel_bench.py ../shared/bench/hotpotqa_dev --extract offline --db /tmp/hp.db
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vgrag.evaluation.bench import run_bench  # noqa: E402
from vgrag.evaluation.data import load_bench  # noqa: E402
from vgrag.config import QueryParams  # noqa: E402
from vgrag.embed import MiniLMEmbedder  # noqa: E402
from vgrag.evaluation.funnel import RUNNERS, bench_questions  # noqa: E402
from vgrag.present.funnel import evicted_relation_passages, funnel, totals  # noqa: E402
from vgrag.storage.database import Database  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("--extract", default="openie")
    ap.add_argument("--db", required=True)
    ap.add_argument("--methods", default="naive,hybrid,graph")
    a = ap.parse_args()
    methods = a.methods.split(",")
    data = load_bench(a.folder)
    emb = MiniLMEmbedder()
    db = Database(a.db)
    t0 = time.perf_counter()
    r = run_bench(data, emb, methods=methods, extract=a.extract, db=db, measure_embed=False)
    bench_s = time.perf_counter() - t0
    graph = db.open_graph(r["graph"], emb.model_id, emb.dim)
    qs = bench_questions(graph, data.questions)
    out = {"dataset": data.name, "questions": len(qs), "bench_s": round(bench_s, 1), "methods": {}}
    for m in methods:
        t1 = time.perf_counter()
        params = replace(QueryParams(), passage_top_k=10)  # bench's protocol: 10 retrieved, Recall@k over the first k
        traces = [RUNNERS[m](q.question, graph, emb, params) for q in qs]
        evicted = [evicted_relation_passages(t, graph) for t in traces]
        row = {"s": round(time.perf_counter() - t1, 1)}
        for k in (1, 2, 5, 10):
            fs = [funnel(t, q.gold, k, e) for t, q, e in zip(traces, qs, evicted, strict=True)]
            tot = totals(fs)
            row[str(k)] = {
                "bench_recall": r["methods"][m]["recall"][str(k)],
                "funnel_recall": tot.share[-1],
                "equal": tot.share[-1] == r["methods"][m]["recall"][str(k)],
                "per_question_equal": [f.recall for f in fs] == [q[m][str(k)] for q in r["questions"]],
                "stages": dict(zip(tot.stages, tot.reached, strict=True)),
                "share": dict(zip(tot.stages, tot.share, strict=True)),
                "dropped_at": dict(zip(tot.stages, tot.dropped, strict=True)),
                "n_gold": tot.n_gold,
            }
        out["methods"][m] = row
    print(json.dumps(out, indent=1))
    db.close()


if __name__ == "__main__":
    main()

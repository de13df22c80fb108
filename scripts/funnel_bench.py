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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vgrag.bench import run_bench  # noqa: E402
from vgrag.bench_data import load_bench  # noqa: E402
from vgrag.config import QueryParams  # noqa: E402
from vgrag.embed import MiniLMEmbedder  # noqa: E402
from vgrag.funnel_eval import bench_questions, run_funnels  # noqa: E402
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
        row = {}
        for k in (5, 10):
            t1 = time.perf_counter()
            f = run_funnels(graph, emb, qs, m, QueryParams(), k=k)
            row[str(k)] = {
                "bench_recall": r["methods"][m]["recall"][str(k)],
                "funnel_recall": f.recall,
                "equal": f.recall == r["methods"][m]["recall"][str(k)],
                "per_question_equal": f.per_question() == [q[m][str(k)] for q in r["questions"]],
                "stages": dict(zip(f.totals.stages, f.totals.reached, strict=True)),
                "share": dict(zip(f.totals.stages, f.totals.share, strict=True)),
                "dropped_at": dict(zip(f.totals.stages, f.totals.dropped, strict=True)),
                "n_gold": f.totals.n_gold,
                "s": round(time.perf_counter() - t1, 1),
            }
        out["methods"][m] = row
    print(json.dumps(out, indent=1))
    db.close()


if __name__ == "__main__":
    main()

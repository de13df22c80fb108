"""The offline answer as a user's first query gets it, on a benchmark graph kept by `bench --db`.

Usage: python scripts/answer_timing.py DB_FILE GRAPH BENCH_FOLDER [--code CHECKOUT] [--out per_question.json]

Per question: graph retrieval at the app's defaults (top 5 passages) with the query-vector cache cleared, then the
extractive answer with the reader's in-memory NER cache cleared (sentence tags stored at ingest stay, as for a
user). Prints contains / EM / F1 / answered / precision / evidence_contains (with its ceiling: the share of questions
whose listed passages contain a gold answer at all) and the median and p90 of both steps. `--code` imports vgrag
from another checkout (e.g. `git archive` of an earlier commit), so the same procedure measures "before" and "after";
`--out` keeps each question's scores for a paired comparison (scripts/compare_answers.py).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

code = sys.argv[sys.argv.index("--code") + 1] if "--code" in sys.argv else str(Path(__file__).resolve().parent.parent)
sys.path.insert(0, code)

from vgrag.evaluation.bench import answer_scores  # noqa: E402
from vgrag.query.answer import extractive_answer  # noqa: E402

try:
    from vgrag.evaluation.data import load_bench  # noqa: E402
except ImportError:  # a checkout from before bench_data.py
    from vgrag.evaluation.bench import load_bench  # noqa: E402
import vgrag.query.reader as reader  # noqa: E402
from vgrag.config import QueryParams  # noqa: E402
from vgrag.embed import make_embedder  # noqa: E402

try:
    from vgrag.embed import clear_query_cache  # noqa: E402
except ImportError:  # no query-vector cache since the query state: nothing to clear

    def clear_query_cache() -> None:
        pass


from vgrag.query.retrieve import retrieve  # noqa: E402
from vgrag.storage.database import Database, quiet_storage_logs  # noqa: E402

try:
    import vgrag.storage.tags as tags  # noqa: E402
except ImportError:  # a checkout from before tags.py
    tags = reader


def p90(xs: list[float]) -> float:
    return sorted(xs)[min(len(xs) - 1, int(0.9 * len(xs)))]


def main() -> None:
    args, skip = [], False
    for a in sys.argv[1:]:
        if skip:
            skip = False
        elif a in ("--code", "--out"):
            skip = True
        else:
            args.append(a)
    db_file, name, folder = args[:3]
    out = sys.argv[sys.argv.index("--out") + 1] if "--out" in sys.argv else None
    quiet_storage_logs()
    embedder = make_embedder("minilm")
    graph = Database(db_file).open_graph(name, embedder.model_id, embedder.dim, create=False)
    data = load_bench(folder)
    extractive_answer(retrieve(data.questions[0].question, graph, embedder, QueryParams()), embedder, graph)  # spaCy
    ret, ans, per = [], [], []
    for q in data.questions:
        clear_query_cache()
        for module in (reader, tags):  # where this version keeps its in-memory NER cache
            if hasattr(module, "_NER_CACHE"):
                module._NER_CACHE.clear()
        t0 = time.perf_counter()
        trace = retrieve(q.question, graph, embedder, QueryParams())
        ret.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        step = extractive_answer(trace, embedder, graph)
        ans.append((time.perf_counter() - t0) * 1000)
        scores = answer_scores(step.short, q.answers)
        scores["answered"] = float(bool(step.short))
        evidence = " ".join(e.sentence for e in getattr(step, "evidence", ())) or step.text  # before #20: the text
        scores["evidence_contains"] = answer_scores(evidence, q.answers)["contains"]
        listed = trace.passages.passages if trace.passages else ()  # the ceiling: any sentence of the listed passages
        scores["in_passages"] = float(any(answer_scores(p.text, q.answers)["contains"] for p in listed))
        per.append(scores)
    n = len(per)
    shown = [s for s in per if s["answered"]]
    print(
        f"{name} ({n} q, vgrag from {code}): "
        + " · ".join(f"{k} {100 * sum(s[k] for s in per) / n:.1f}" for k in ("contains", "em", "f1", "answered"))
        + f" · precision {100 * sum(s['contains'] for s in shown) / max(len(shown), 1):.1f}"
        + f" · evidence_contains {100 * sum(s['evidence_contains'] for s in per) / n:.1f}"
        + f" (in the passages: {100 * sum(s['in_passages'] for s in per) / n:.1f})"
        + f" | retrieval median {statistics.median(ret):.1f} ms (p90 {p90(ret):.1f})"
        + f" | answer median {statistics.median(ans):.1f} ms (p90 {p90(ans):.1f})"
    )
    if out:
        Path(out).write_text(json.dumps(per))


if __name__ == "__main__":
    main()

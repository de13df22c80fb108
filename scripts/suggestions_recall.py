"""Graph Recall@k before and after "apply all suggestions", and whether names still fold alike afterwards.

Usage:
  flock /tmp/heavy.lock python scripts/suggestions_recall.py --data ../shared/bench/musique_train --extract offline \
      --db /tmp/sr/mus.db [--out mus.json]
  python scripts/suggestions_recall.py --fixtures [--db /tmp/sr/fix.db]   # the realistic upload fixtures only

Dev set: builds (or reuses, in --db) the benchmark's graph exactly as `bench --db` does (same graph name, same
ingest), runs bench's `graph` method on every question (top 10), then applies every suggested fix through the
Workspace as the Review page's "Apply all" does, one kind at a time (suggestions found again before each kind; a fix
whose target an earlier one changed is skipped with its reason): first the merges ("duplicate", "heading"), bench
again, then the rest ("run-on", "dated"), bench again. Prints Recall@1/2/5/10 at each stage, the paired difference
to the start with a bootstrap 95 % interval (10,000 resamples of the questions, seed 0, as bench), what was applied
and skipped, `check`, and the pairs of entity names that fold to the same string (suggest.fold) before and after.
A graph with edits in force is refused (its "before" would not be the extractor's graph): use a fresh --db, or
--reset to undo them all first (a re-run on the same --db after the suggestion rules changed).

--fixtures: tests/fixtures/clinical_notes.md, supply_agreement.html and articles.md (Wikipedia) uploaded together
(offline extractor, as the Build page does), then the same stages; only the fold check and the counts (no questions).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vgrag import Settings, Workspace  # noqa: E402
from vgrag.config import QueryParams  # noqa: E402
from vgrag.editing.run import undoable  # noqa: E402
from vgrag.editing.suggest import fold  # noqa: E402
from vgrag.evaluation.bench import KS, recall_at  # noqa: E402
from vgrag.evaluation.data import load_bench  # noqa: E402
from vgrag.evaluation.graph import build_graph, graph_name, open_bench_graph, plan  # noqa: E402
from vgrag.query.retrieve import retrieve  # noqa: E402

STAGES = (("merges", ("duplicate", "heading")), ("all", ("run-on", "dated")))
FIXTURES = tuple(ROOT / "tests" / "fixtures" / f for f in ("clinical_notes.md", "supply_agreement.html", "articles.md"))


def folding_pairs(graph) -> list[list[str]]:
    """Groups of two or more entity names that fold to the same string (accents, case, punctuation)."""
    groups: dict[str, list[str]] = defaultdict(list)
    for e in graph.iter_entities():
        if fold(e.name):
            groups[fold(e.name)].append(e.name)
    return sorted(sorted(g) for g in groups.values() if len(g) > 1)


def recall_run(graph, embedder, data) -> tuple[list[dict], list[float]]:
    """Bench's graph method on every question: per-question Recall@k (k in KS) and latencies in ms."""
    params = replace(QueryParams(), passage_top_k=max(KS))
    by_title = bool(data.questions and data.questions[0].by_title)
    per_q, lat = [], []
    for q in data.questions:
        t0 = time.perf_counter()
        trace = retrieve(q.question, graph, embedder, params)
        lat.append((time.perf_counter() - t0) * 1000)
        passages = trace.passages.passages if trace.passages else []
        keys = [p.title if by_title else f"{p.title}\n{p.text}" for p in passages]
        per_q.append({"id": q.id, **{str(k): recall_at(keys, q.gold, k) for k in KS}})
    return per_q, lat


def paired(before: list[dict], after: list[dict], n: int = 10_000, seed: int = 0) -> dict:
    """after − before per Recall@k in points: mean and paired bootstrap 95 % interval; questions that changed."""
    import numpy as np

    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(before), size=(n, len(before)))
    out = {}
    for k in map(str, KS):
        diff = 100 * np.array([a[k] - b[k] for a, b in zip(after, before, strict=True)])
        lo, hi = np.percentile(diff[idx].mean(axis=1), [2.5, 97.5])
        out[k] = {"diff": round(float(diff.mean()), 2), "ci95": [round(float(lo), 1), round(float(hi), 1)],
                  "up": int((diff > 0).sum()), "down": int((diff < 0).sum())}  # fmt: skip
    return out


def apply_kinds(ws: Workspace, g: str, kinds: tuple[str, ...]) -> dict:
    """Every suggestion of each kind, applied as the Review page's "Apply all" does; counts and skip reasons."""
    out: dict = {}
    for kind in kinds:
        found = ws.suggestions(g, kind)
        ops: Counter[str] = Counter()
        skipped: list[str] = []
        done: list[str] = []
        t0 = time.perf_counter()
        for s in found:
            try:
                for e in ws.apply_suggestion(s, graph=g):
                    ops[e.op] += 1
                done.append(s.title)
            except ValueError as err:  # an earlier fix of this batch already changed its target
                skipped.append(f"{s.title}: {err}")
        out[kind] = {"suggested": len(found), "applied": len(found) - len(skipped), "edits": dict(ops),
                     "skipped": len(skipped), "skipped_examples": skipped[:5], "applied_titles": done,
                     "seconds": round(time.perf_counter() - t0, 1)}  # fmt: skip
    return out


def summary(per_q: list[dict], lat: list[float]) -> dict:
    rec = {str(k): round(100 * statistics.fmean(q[str(k)] for q in per_q), 1) for k in KS}
    return {"recall": rec, "latency_ms_median": round(statistics.median(lat), 1)}


def run(ws: Workspace, g: str, data=None, reset: bool = False) -> dict:
    graph = ws.graph(g)
    live = undoable(graph)
    if live and not reset:
        sys.exit(f"graph {g!r} has {len(live)} edit(s) in force: use a fresh --db, or --reset to undo them first")
    if live:
        ws.undo(len(live), graph=g)  # back to the extractor's graph (every undo is itself logged)
    result: dict = {"graph": g, "counts": {"start": graph.counts()}, "folding_alike": {"start": folding_pairs(graph)}}
    if data is not None:
        first = recall_run(graph, ws.embedder, data)
        result["recall"] = {"start": summary(*first)}
        per_stage = {"start": first[0]}
    for stage, kinds in STAGES:
        result.setdefault("applied", {}).update(apply_kinds(ws, g, kinds))
        result["counts"][stage] = graph.counts()
        result["folding_alike"][stage] = folding_pairs(graph)
        report = ws.check(g)
        result.setdefault("check_ok", {})[stage] = report.ok
        result.setdefault("check_problems", {})[stage] = list(report.problems[:5])
        if data is not None:
            now = recall_run(graph, ws.embedder, data)
            result["recall"][stage] = summary(*now)
            result.setdefault("paired", {})[stage] = paired(per_stage["start"], now[0])
            per_stage[stage] = now[0]
    if data is not None:
        result["questions"] = per_stage
    return result


def show(r: dict) -> str:
    lines = [f"graph {r['graph']}: {r['counts']['start']}"]
    for kind, a in r["applied"].items():
        lines.append(f"  {kind:9} suggested {a['suggested']:4}  applied {a['applied']:4}  skipped {a['skipped']:3}"
                     f"  edits {a['edits']}  {a['seconds']} s")  # fmt: skip
    for stage in ("start", *(s for s, _ in STAGES)):
        rec = r.get("recall", {}).get(stage)
        line = f"  {stage:6} names folding alike: {len(r['folding_alike'][stage])} group(s)"
        if stage != "start":
            line += f"  check ok: {r['check_ok'][stage]}  counts {r['counts'][stage]}"
        lines.append(line)
        if rec:
            lines.append("         R@" + " R@".join(f"{k} {v}" for k, v in rec["recall"].items())
                         + f"  median {rec['latency_ms_median']} ms")  # fmt: skip
        if stage in r.get("paired", {}):
            lines.append("         vs start: " + " · ".join(
                f"R@{k} {v['diff']:+.1f} [{v['ci95'][0]:+.1f}, {v['ci95'][1]:+.1f}] ({v['up']}↑ {v['down']}↓)"
                for k, v in r["paired"][stage].items()))  # fmt: skip
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", help="a HippoRAG-format bench folder (../shared/bench/musique_train)")
    ap.add_argument("--extract", default="offline", choices=("offline", "openie"))
    ap.add_argument("--fixtures", action="store_true", help="the realistic upload fixtures instead of a dev set")
    ap.add_argument("--db", default="/tmp/suggestions_recall.db")
    ap.add_argument("--out")
    ap.add_argument("--reset", action="store_true", help="undo the edits in force first (a re-run on the same --db)")
    a = ap.parse_args()
    ws = Workspace.open(Settings(milvus_uri=a.db))
    t0 = time.perf_counter()
    if a.fixtures:
        g = "upload_fixtures"
        ws.drop(g)
        ws.add_documents([str(f) for f in FIXTURES], graph=g)
        result = {"built_s": round(time.perf_counter() - t0, 1), **run(ws, g)}
    else:
        if not a.data:
            sys.exit("--data or --fixtures")
        data = load_bench(a.data)
        g = graph_name(data.name, a.extract, ws.embedder.model_id, 0)
        runs = plan(data, a.extract)
        graph = open_bench_graph(ws.db, g, ws.embedder, runs, keep=True)
        built_s, _ = build_graph(graph, ws.embedder, runs)
        ws._graphs.pop(g, None)  # the Workspace opens it itself (and finishes any pending edit)
        result = {"dataset": data.name, "extract": a.extract, "built_s": round(built_s, 1), **run(ws, g, data, a.reset)}
    ws.close()
    if a.out:
        Path(a.out).write_text(json.dumps(result, indent=1, ensure_ascii=False))
    print(show(result))


if __name__ == "__main__":
    main()

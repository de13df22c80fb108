"""Recall@k on HippoRAG-format data: naive dense retrieval vs the graph pipeline, in one run."""

from __future__ import annotations

import logging
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from .data import BenchData
from .graph import build_graph, graph_name, open_bench_graph, plan
from .verdict import format_rates, gold_scope, rates, verdict_row
from ..config import QueryParams
from ..embed import Embedder
from ..nlp import Lemmas
from ..query.answer import extractive_answer
from ..query.baselines import retrieve_hybrid, retrieve_naive
from ..query.question import norm
from ..query.retrieve import retrieve
from ..query.trace import AnswerStep
from ..storage.database import Database

log = logging.getLogger(__name__)
KS = (1, 2, 5, 10)


def answer_scores(produced: str, golds: Sequence[str]) -> dict[str, float]:
    """SQuAD-style exact match, token F1 and "contains" (a normalised gold or alias occurs in the answer)."""
    p = norm(produced)
    if not golds:
        return {"em": 0.0, "f1": 0.0, "contains": 0.0}
    em = max(float(p == norm(g)) for g in golds)
    contains = max(float(bool(norm(g)) and f" {norm(g)} " in f" {p} ") for g in golds)
    f1 = 0.0
    for g in golds:
        pt, gt = p.split(), norm(g).split()
        common = sum((Counter(pt) & Counter(gt)).values())
        if common:
            prec, rec = common / len(pt), common / len(gt)
            f1 = max(f1, 2 * prec * rec / (prec + rec))
    return {"em": em, "f1": f1, "contains": contains}


def answer_metrics(step: AnswerStep, golds: Sequence[str]) -> dict[str, float]:
    """One question's answer metrics: the short answer's EM/F1/contains, whether one was shown (answered), whether
    the shown evidence sentences (or the whole text) contain a gold answer, and abstained."""
    scores = answer_scores(step.short, golds)
    scores["answered"] = float(bool(step.short))
    scores["abstained"] = float(step.abstained)
    scores["contains_text"] = answer_scores(step.text, golds)["contains"]
    scores["evidence_contains"] = answer_scores(" ".join(e.sentence for e in step.evidence), golds)["contains"]
    return scores


def recall_at(retrieved: Sequence[str], gold: frozenset[str], k: int) -> float:
    """|gold among the top k| / |gold| (0 for a question without gold)."""
    if not gold:
        return 0.0
    return len(set(retrieved[:k]) & gold) / len(gold)


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def run_bench(
    data: BenchData,
    embedder: Embedder,
    methods: Sequence[str] = ("naive", "graph"),
    params: QueryParams = QueryParams(),
    extract: str = "openie",
    db_uri: str | None = None,
    measure_embed: bool = True,
    on_progress: Callable[[str, int, int], None] | None = None,
    db: Database | None = None,
    answers: bool = False,
    distractors: Sequence[BenchData] = (),
    keep: bool = False,
    unanswerable: bool = False,
) -> dict:
    """Build the graph, run every method on every question, and return the result JSON (see README).

    With `db` (the app's database) the benchmark graph stays there afterwards, named in `result["graph"]`, so its
    questions can be opened on the Ask page; otherwise it lives in a temporary Milvus Lite file. With `keep` and
    `db_uri`, the graph stays in that file and a re-run reuses it (unchanged sources are not stored again). With
    `unanswerable` (and `answers`), each question is asked again with its gold passages excluded (verdict.py)."""
    answer_k = params.passage_top_k  # answers read what the user's query reads (5 by default), recall needs 10
    params = replace(params, passage_top_k=max(KS))
    tmp = None
    own_db = db is None
    if db is None:
        if db_uri is None:
            tmp = tempfile.TemporaryDirectory(prefix="vgrag-bench-")
            db_uri = str(Path(tmp.name) / "bench.db")
        db = Database(db_uri)
    name, runs = graph_name(data.name, extract, embedder.model_id, len(distractors)), plan(data, extract, distractors)
    graph = open_bench_graph(db, name, embedder, runs, keep)
    ingest_s, ingest_info = build_graph(graph, embedder, runs)
    result: dict = {
        "dataset": data.name,
        "embedder": embedder.model_id,
        "distractors": [d.name for d in distractors],
        "passages": ingest_info["counts"]["passages"],
        "graph": name,
        "n_questions": len(data.questions),
        "extract": extract,
        "ingest_s": round(ingest_s, 2),
        "ingest": ingest_info,
        "params": params.__dict__,
        "methods": {},
    }
    if measure_embed:
        texts = (
            [p.full_text for p in graph.iter_passages()]
            + [r.text for r in graph.iter_relations()]
            + [e.name for e in graph.iter_entities()]
        )
        t0 = time.perf_counter()
        embedder.embed(texts)
        result["embed_s"] = round(time.perf_counter() - t0, 2)
        result["embed_texts"] = len(texts)
        result["ingest_over_embed"] = round(ingest_s / max(result["embed_s"], 1e-9), 3)
    key_of = (
        (lambda p: p.title) if data.questions and data.questions[0].by_title else (lambda p: f"{p.title}\n{p.text}")
    )
    per_q: list[dict] = []
    ans: dict[str, list[dict[str, float]]] = {m: [] for m in methods}
    answer_ms: dict[str, list[float]] = {m: [] for m in methods}
    runners = {
        "naive": retrieve_naive,
        "hybrid": retrieve_hybrid,
        "graph": lambda q, g, e, p, s=None: retrieve(q, g, e, p, scope=s),
        "graph_dense": lambda q, g, e, p, s=None: retrieve(q, g, e, replace(p, lexical="off"), scope=s),
        "graph_words": lambda q, g, e, p, s=None: retrieve(q, g, e, replace(p, lexical="candidates"), scope=s),
        "graph_fused": lambda q, g, e, p, s=None: retrieve(q, g, e, replace(p, lexical="fused"), scope=s),
    }
    scope_of = gold_scope(graph, key_of) if answers and unanswerable else None
    halves: dict[str, list[dict]] = {m: [] for m in methods}
    lat: dict[str, list[float]] = {m: [] for m in methods}
    rec: dict[str, dict[int, list[float]]] = {m: {k: [] for k in KS} for m in methods}
    lex = Lemmas()  # the words' lemmas, remembered across the run's questions as the app's Workspace does
    for n, q in enumerate(data.questions):
        row = {"id": q.id, "question": q.question, "n_gold": len(q.gold)}
        for m in methods:
            t0 = time.perf_counter()
            trace = runners[m](q.question, graph, embedder, params)
            lat[m].append((time.perf_counter() - t0) * 1000)
            keys = [key_of(p) for p in trace.passages.passages] if trace.passages else []
            row[m] = {str(k): recall_at(keys, q.gold, k) for k in KS}
            for k in KS:
                rec[m][k].append(row[m][str(k)])
            if answers:
                if answer_k != params.passage_top_k:  # hybrid's fused top 5 is not its top 10's first 5
                    trace = runners[m](q.question, graph, embedder, replace(params, passage_top_k=answer_k))
                t1 = time.perf_counter()
                step = extractive_answer(trace, embedder, graph, lex=lex)
                answer_ms[m].append((time.perf_counter() - t1) * 1000)
                scores = answer_metrics(step, q.answers)
                ans[m].append(scores)
                row[m]["answer"] = {"short": step.short or None, "confidence": step.confidence, "asked": step.asked,
                                    "evidence": [e.sentence for e in step.evidence], "gold": list(q.answers),
                                    **scores, **verdict_row(step, trace)}  # fmt: skip
                if scope_of is not None:
                    hidden = runners[m](q.question, graph, embedder, replace(params, passage_top_k=answer_k),
                                        scope_of(q.gold))  # fmt: skip
                    out = extractive_answer(hidden, embedder, graph, lex=lex)
                    row[m]["excluded"] = {"evidence": [e.sentence for e in out.evidence], **verdict_row(out, hidden)}
                    halves[m].append({"asked": row[m]["answer"], "excluded": row[m]["excluded"]})
        per_q.append(row)
        if on_progress:
            on_progress("query", n + 1, len(data.questions))
    for m in methods:
        result["methods"][m] = {
            "recall": {str(k): round(100 * statistics.fmean(rec[m][k]), 1) if rec[m][k] else 0.0 for k in KS},
            "latency_ms": {
                "median": round(statistics.median(lat[m]), 1) if lat[m] else 0.0,
                "p90": round(_pct(lat[m], 0.9), 1),
            },
        }
    if answers:
        result["answer_top_k"] = answer_k
        for m in methods:
            result["methods"][m]["answer"] = {
                key: round(100 * statistics.fmean(x[key] for x in ans[m]), 1) if ans[m] else 0.0
                for key in ("contains", "em", "f1", "abstained", "contains_text", "answered", "evidence_contains")
            }
            shown = [x["contains"] for x in ans[m] if x["answered"]]
            result["methods"][m]["answer"]["precision"] = round(100 * statistics.fmean(shown), 1) if shown else 0.0
            if unanswerable:
                result["methods"][m]["verdict"] = rates(halves[m])
            result["methods"][m]["answer_ms"] = {
                "median": round(statistics.median(answer_ms[m]), 1) if answer_ms[m] else 0.0,
                "p90": round(_pct(answer_ms[m], 0.9), 1),
            }
    result["compare"] = paired_bootstrap(per_q, methods)
    result["questions"] = per_q
    if not own_db:
        return result  # the caller's database keeps the benchmark graph
    if not keep:
        db.drop_graph(name)
    db.close()
    if tmp is not None:
        from milvus_lite.server_manager import server_manager_instance

        server_manager_instance.release_server(db_uri)
        tmp.cleanup()
    return result


def paired_bootstrap(per_q: Sequence[dict], methods: Sequence[str], n: int = 10_000, seed: int = 0) -> dict:
    """Graph minus every other method, per Recall@k: the mean per-question difference (points) and its paired
    bootstrap 95% interval (questions resampled with replacement, percentile interval, fixed seed)."""
    import numpy as np

    out: dict = {}
    if "graph" not in methods or not per_q:
        return out
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(per_q), size=(n, len(per_q)))
    for other in (m for m in methods if m != "graph"):
        row = {}
        for k in KS:
            diff = 100 * np.array([q["graph"][str(k)] - q[other][str(k)] for q in per_q])
            means = diff[idx].mean(axis=1)
            lo, hi = np.percentile(means, [2.5, 97.5])
            row[str(k)] = {"diff": round(float(diff.mean()), 1), "ci95": [round(float(lo), 1), round(float(hi), 1)]}
        out[f"graph-{other}"] = row
    return out


def format_table(result: dict) -> str:
    """A readable Recall@k / latency table."""
    lines = [
        f"{result['dataset']}: {result['n_questions']} questions, {result['passages']:,} passages"
        + (f" (+ distractors from {', '.join(result['distractors'])})" if result["distractors"] else "")
        + f", graph from {result['extract']}, {result['embedder']}, ingest {result['ingest_s']} s"
        + (f", embed-only {result['embed_s']} s (ratio {result['ingest_over_embed']})" if "embed_s" in result else ""),
        f"{'method':8} {'R@1':>6} {'R@2':>6} {'R@5':>6} {'R@10':>6} {'med ms':>8} {'p90 ms':>8}",
    ]
    for m, r in result["methods"].items():
        rc = r["recall"]
        lines.append(
            f"{m:8} {rc['1']:>6} {rc['2']:>6} {rc['5']:>6} {rc['10']:>6} "
            f"{r['latency_ms']['median']:>8} {r['latency_ms']['p90']:>8}"
        )
    for pair, row in result.get("compare", {}).items():
        lines.append(
            f"{pair}: "
            + " · ".join(f"R@{k} {v['diff']:+.1f} [{v['ci95'][0]:+.1f}, {v['ci95'][1]:+.1f}]" for k, v in row.items())
        )
    for m, r in result["methods"].items():
        if "answer" in r:
            a = r["answer"]
            lines.append(
                f"answer ({m}): answered {a['answered']} · precision {a['precision']} · evidence contains "
                f"{a['evidence_contains']} · contains {a['contains']} · EM {a['em']} · F1 {a['f1']} · "
                f"abstained {a['abstained']} "
                f"· gold anywhere in the text {a['contains_text']} · median {r['answer_ms']['median']} ms"
            )
        if "verdict" in r:
            lines.append(format_rates(m, r["verdict"]))
    return "\n".join(lines)

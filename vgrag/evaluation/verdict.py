"""`bench --answers --unanswerable`: each question asked twice — as is, and with its gold passages excluded by the
query's document filter (query/scope.py: those passages, and relations only they support, are never candidates) —
and the verdict rates on both halves, per method.

The targets (docs/offline-answers.md): "not in these documents" for at least half of the made-unanswerable
questions, and for at most 10 % of the answerable ones whose gold answer is in the evidence.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence

import numpy as np

from ..models import Passage
from ..query.scope import Scope
from ..query.trace import AnswerStep, QueryTrace
from ..storage.store import Graph


def gold_scope(graph: Graph, key_of: Callable[[Passage], str]) -> Callable[[frozenset[str]], Scope]:
    """For a question's gold keys, the scope that excludes every stored passage carrying one of them."""
    ids: dict[str, list[str]] = {}
    for p in graph.iter_passages():
        ids.setdefault(key_of(p), []).append(p.id)
    return lambda gold: Scope(excluded=frozenset(pid for k in gold for pid in ids.get(k, ())))


def verdict_row(step: AnswerStep, trace: QueryTrace | None = None) -> dict:
    """The verdict and its signals, with retrieval's own scores beside them (for studying other signals): the top
    passage's score and the best selected relation's similarity to the question."""
    v = step.verdict
    if v is None:
        return {"verdict": None}
    row = {"verdict": v.kind, "name_share": round(v.name_share, 4), "word_share": round(v.word_share, 4),
           "said": v.said}  # fmt: skip
    if trace is not None and trace.passages and trace.passages.passages:
        row["top_score"] = trace.passages.passages[0].score
    if trace is not None and trace.rerank is not None:
        chosen = set(trace.rerank.selected)
        sims = [r.similarity for r in trace.relations if r.id in chosen]
        row["best_relation"] = max(sims) if sims else 0.0
    return row


def rates(rows: Sequence[dict]) -> dict:
    """Verdict rates (%) of the two halves: answerable (and those whose gold answer is in the evidence) and made
    unanswerable; with 95 % percentile bootstrap intervals over the questions (10,000 resamples, seed 0)."""
    out: dict = {}
    halves = {
        "answerable": [r["asked"] for r in rows],
        "answerable_in_evidence": [r["asked"] for r in rows if r["asked"].get("evidence_contains")],
        "unanswerable": [r["excluded"] for r in rows],
    }
    for half, xs in halves.items():
        out[half] = {"n": len(xs)}
        for kind in ("found", "partly", "missing"):
            out[half][kind] = round(100 * statistics.fmean(x["verdict"] == kind for x in xs), 1) if xs else 0.0
        out[half]["missing_ci95"] = interval([float(x["verdict"] == "missing") for x in xs])
    return out


def interval(values: Sequence[float], n: int = 10_000, seed: int = 0) -> list[float]:
    if not values:
        return [0.0, 0.0]
    a = 100 * np.asarray(values, dtype=float)
    idx = np.random.default_rng(seed).integers(0, len(a), size=(n, len(a)))
    lo, hi = np.percentile(a[idx].mean(axis=1), [2.5, 97.5])
    return [round(float(lo), 1), round(float(hi), 1)]


def format_rates(method: str, r: dict) -> str:
    a, e, u = r["answerable"], r["answerable_in_evidence"], r["unanswerable"]
    return (
        f"verdict ({method}): made unanswerable (n={u['n']}): not in these documents {u['missing']} "
        f"[{u['missing_ci95'][0]}, {u['missing_ci95'][1]}] · partly {u['partly']} · found {u['found']} | "
        f"answerable (n={a['n']}): not in {a['missing']} · partly {a['partly']} · found {a['found']} | "
        f"gold answer in evidence (n={e['n']}): not in {e['missing']} [{e['missing_ci95'][0]}, {e['missing_ci95'][1]}]"
    )

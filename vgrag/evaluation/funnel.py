"""A question set over a graph, as a funnel: every question run by each method, each run's funnel (where its gold
passages were lost, vgrag/present/funnel.py) and its Recall@k, summed per method; two knob settings compared
question by question with a paired bootstrap interval. The gold comes from a benchmark's keys (HippoRAG format) or
from a user's question file naming source documents, titles or passage ids (vgrag/documents/questions.py)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from .bench import KS, answer_metrics
from .data import BenchQuestion
from ..config import QueryParams
from ..embed import Embedder
from ..models import Document
from ..present.funnel import Funnel, FunnelTotals, Gold, evicted_relation_passages, funnel, totals
from ..nlp import Lemmas
from ..query.answer import extractive_answer
from ..query.baselines import retrieve_hybrid, retrieve_naive
from ..query.retrieve import retrieve
from ..query.trace import QueryTrace
from ..storage.store import Graph

log = logging.getLogger(__name__)
RUNNERS: dict[str, Callable[[str, Graph, Embedder, QueryParams], QueryTrace]] = {
    "naive": retrieve_naive,
    "hybrid": retrieve_hybrid,
    "graph": retrieve,
}  # the same runners as vgrag/evaluation/bench.py, so the funnel's last stage is its Recall@k


@dataclass(frozen=True)
class EvalQuestion:
    id: str
    question: str
    gold: tuple[Gold, ...]
    answers: tuple[str, ...] = ()
    unresolved: tuple[str, ...] = ()  # expected sources that name nothing in the graph
    answerable: bool = True  # False: a question the documents do not answer (the verdict should say so)


@dataclass(frozen=True)
class QuestionResult:
    question: EvalQuestion
    funnel: Funnel
    answer: dict[str, float] | None = None  # answer_metrics, when the question has an expected answer


@dataclass(frozen=True)
class MethodResult:
    method: str
    params: QueryParams
    results: tuple[QuestionResult, ...]
    totals: FunnelTotals

    @property
    def recall(self) -> float:
        """Recall@k in percent, as bench rounds it."""
        return self.totals.share[-1] if self.totals.share else 0.0

    def per_question(self) -> list[float]:
        """Each question's Recall@k, for the questions with an expected source."""
        return [r.funnel.recall for r in self.results if r.funnel.n_gold]


def bench_questions(graph: Graph, questions: Sequence[BenchQuestion]) -> tuple[EvalQuestion, ...]:
    """A benchmark's questions with their gold as passage ids: every passage whose key (title, or title + text, as
    bench compares them) is a gold key satisfies it."""
    by_title = bool(questions) and questions[0].by_title
    index: dict[str, set[str]] = {}
    for p in graph.iter_passages():
        index.setdefault(p.title if by_title else f"{p.title}\n{p.text}", set()).add(p.id)
    return tuple(
        EvalQuestion(q.id, q.question, tuple(Gold(k, frozenset(index.get(k, ()))) for k in sorted(q.gold)), q.answers)
        for q in questions
    )


def resolve_sources(
    graph: Graph, documents: Sequence[Document], sources: Sequence[str]
) -> tuple[list[Gold], list[str]]:
    """Each expected source as gold: a document (its id, name or bare file name: any of its passages counts), a
    passage title, or a passage id; and the sources that name nothing in the graph."""
    gold, missing = [], []
    by_doc = {k: d for d in documents for k in (d.id, d.name, d.name.rsplit("/", 1)[-1])}
    titles: dict[str, set[str]] | None = None
    for s in sources:
        if s in by_doc:
            ids = {p.id for p in graph.passages_of_doc(by_doc[s].id)}
        elif graph.get_passages([s]):
            ids = {s}
        else:
            if titles is None:  # read once, only when a source is neither a document nor a passage id
                titles = {}
                for p in graph.iter_passages():
                    titles.setdefault(p.title.casefold(), set()).add(p.id)
            ids = titles.get(s.casefold(), set())
        (gold.append(Gold(s, frozenset(ids))) if ids else missing.append(s))  # type: ignore[func-returns-value]
    return gold, missing


def run_funnels(
    graph: Graph,
    embedder: Embedder,
    questions: Sequence[EvalQuestion],
    method: str,
    params: QueryParams = QueryParams(),
    k: int = 5,
    answers: bool = False,
    retrieve_k: int = max(KS),
    on_progress: Callable[[int, int], None] | None = None,
) -> MethodResult:
    """Every question through `method` with `params`, `retrieve_k` passages retrieved and cut at k (bench's
    protocol: 10 retrieved, Recall@k over their first k), its funnel at k, and with `answers` the offline answer
    (over the run's own passage_top_k) scored against the expected one."""
    run_params = replace(params, passage_top_k=max(k, retrieve_k))
    out, lex = [], Lemmas()
    for n, q in enumerate(questions):
        trace = RUNNERS[method](q.question, graph, embedder, run_params)
        f = funnel(trace, q.gold, k, evicted_relation_passages(trace, graph))
        scored = None
        if answers and (q.answers or not q.answerable):
            short = trace if run_params.passage_top_k == params.passage_top_k else RUNNERS[method](
                q.question, graph, embedder, params)  # fmt: skip
            step = extractive_answer(short, embedder, graph, lex=lex)
            scored = answer_metrics(step, q.answers)
            kind = step.verdict.kind if step.verdict is not None else ""
            scored |= {"not_in": float(kind == "missing"), "found": float(kind == "found")}
        out.append(QuestionResult(q, f, scored))
        if on_progress:
            on_progress(n + 1, len(questions))
    return MethodResult(method, params, tuple(out), totals([r.funnel for r in out if r.funnel.n_gold]))


def paired_interval(
    a: Sequence[float], b: Sequence[float], n: int = 10_000, seed: int = 0
) -> tuple[float, float, float]:
    """B minus A in points, question by question: the mean difference and its paired bootstrap 95 % interval
    (questions resampled with replacement, fixed seed) — the same rule as bench.paired_bootstrap."""
    import numpy as np

    if not a or len(a) != len(b):
        return 0.0, 0.0, 0.0
    diff = 100 * (np.array(b, dtype=float) - np.array(a, dtype=float))
    idx = np.random.default_rng(seed).integers(0, len(diff), size=(n, len(diff)))
    lo, hi = np.percentile(diff[idx].mean(axis=1), [2.5, 97.5])
    return round(float(diff.mean()), 1), round(float(lo), 1), round(float(hi), 1)

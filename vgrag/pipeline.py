"""One call for a whole query: retrieval, then the answer (extractive offline, or by the LLM when given)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from .answer import extractive_answer, reasoning_paths
from .config import QueryParams
from .embed import Embedder
from .retrieve import LLMRerank, retrieve, retrieve_naive
from .store import Graph
from .trace import AnswerStep, QueryTrace

LLMAnswer = Callable[[QueryTrace], AnswerStep]


def run_query(
    question: str,
    graph: Graph,
    embedder: Embedder,
    params: QueryParams = QueryParams(),
    llm_rerank: LLMRerank | None = None,
    llm_answer: LLMAnswer | None = None,
    method: str = "graph",
) -> QueryTrace:
    """Retrieve (graph or naive) and answer; at most two LLM calls: one rerank, one answer."""
    question = question.strip()
    if not question:
        raise ValueError("Ask a question first.")
    t0 = time.perf_counter()
    if method == "naive":
        trace = retrieve_naive(question, graph, embedder, params)
    else:
        trace = retrieve(question, graph, embedder, params, llm_rerank=llm_rerank)
    if llm_answer is not None:
        step = llm_answer(trace)
        if step.error and not step.text:
            fallback = extractive_answer(trace, embedder, graph)
            step = replace(fallback, error=f"LLM answer failed ({step.error}); extractive answer shown", llm=step.llm)
        elif not step.paths:
            step = replace(step, paths=reasoning_paths(trace, embedder))
    else:
        step = extractive_answer(trace, embedder, graph)
    return replace(trace, answer=step, total_ms=round((time.perf_counter() - t0) * 1000, 2))

"""One call for a whole query: retrieval, then the answer (extractive offline, or by the LLM when configured).

With an LLM a query makes at most two calls — one rerank, one answer — under one deadline
(`LLMSettings.query_deadline_s`); once a call found the endpoint unreachable or the deadline passed, the next
call is not attempted and the offline step is used, with the reason in the trace.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Literal

from ..config import QueryParams
from ..embed import Embedder
from ..llm import Deadline, OpenAILLM
from ..storage.store import Graph
from ..nlp import Lemmas
from .answer import answer_llm, cited_answer, extractive_answer, reasoning_paths
from .baselines import retrieve_hybrid, retrieve_naive
from .rerank import RerankInput, rerank_graph, rerank_llm
from .retrieve import retrieve
from .scope import Scope
from .trace import AnswerStep, QueryTrace, RerankStep

Method = Literal["graph", "naive", "hybrid"]


class QueryLLM:
    """The LLM side of one query: the rerank and the answer call, sharing a deadline that starts now."""

    def __init__(self, llm: OpenAILLM, on_delta: Callable[[str], None] | None = None) -> None:
        self.llm = llm
        self.on_delta = on_delta
        self.deadline = Deadline(llm.settings.query_deadline_s)
        self.gave_up: str | None = None  # why later calls are skipped

    def _skip_reason(self) -> str | None:
        if self.gave_up:
            return self.gave_up
        if self.deadline.expired:
            return f"the query deadline of {self.deadline.seconds:g} s was reached"
        return None

    def rerank(self, inp: RerankInput) -> RerankStep:
        why = self._skip_reason()
        if why:
            return replace(rerank_graph(inp), error=f"LLM rerank skipped ({why}); used the offline graph rerank")
        step = rerank_llm(self.llm, inp, self.deadline)
        if step.llm is not None and step.llm.unreachable:
            self.gave_up = "the endpoint was unreachable for the rerank call"
        return step

    def answer(self, trace: QueryTrace) -> AnswerStep:
        why = self._skip_reason()
        if why:
            return AnswerStep("", (), (), "llm", 0.0, None, f"skipped: {why}")
        return answer_llm(self.llm, trace, self.on_delta, self.deadline)


def retrieve_trace(
    question: str,
    graph: Graph,
    embedder: Embedder,
    params: QueryParams = QueryParams(),
    llm: QueryLLM | None = None,
    method: Method = "graph",
    scope: Scope | None = None,
) -> QueryTrace:
    """The retrieval steps only (the answer comes from answer_trace); `scope`: the passages it may read (default:
    the document filter in params)."""
    question = question.strip()
    if not question:
        raise ValueError("Ask a question first.")
    if method == "naive":
        return retrieve_naive(question, graph, embedder, params, scope)
    if method == "hybrid":
        return retrieve_hybrid(question, graph, embedder, params, scope)
    return retrieve(question, graph, embedder, params, llm_rerank=llm.rerank if llm else None, scope=scope)


def answer_trace(trace: QueryTrace, graph: Graph, embedder: Embedder, llm: QueryLLM | None = None,
                 lex: Lemmas | None = None) -> QueryTrace:  # fmt: skip
    """The trace with its answer: the LLM's when it gave one, else the extractive answer with the reason; `lex`: the
    words' lemmas remembered across questions (the Workspace's; default: a new memory)."""
    t0 = time.perf_counter()
    if llm is not None:
        step = llm.answer(trace)
        if step.error and not step.text:
            fallback = extractive_answer(trace, embedder, graph, lex=lex)
            step = replace(fallback, error=f"LLM answer failed ({step.error}); extractive answer shown", llm=step.llm)
        elif not step.paths:
            step = replace(step, paths=reasoning_paths(trace, embedder, graph, lex=lex))
    else:
        step = extractive_answer(trace, embedder, graph, lex=lex)
    total = round(trace.retrieval_ms + (time.perf_counter() - t0) * 1000, 2)
    return replace(trace, answer=step, total_ms=total)


def run_query(
    question: str,
    graph: Graph,
    embedder: Embedder,
    params: QueryParams = QueryParams(),
    llm: OpenAILLM | None = None,
    on_delta: Callable[[str], None] | None = None,
    method: Method = "graph",
) -> QueryTrace:
    """Retrieve (graph or naive) and answer; with `llm`, at most two bounded calls under one deadline, the
    answer streamed to `on_delta` when given."""
    session = QueryLLM(llm, on_delta) if llm is not None else None
    trace = retrieve_trace(question, graph, embedder, params, session, method)
    return answer_trace(trace, graph, embedder, session)


def stopped_answer(trace: QueryTrace, partial: str, graph: Graph, embedder: Embedder, lex: Lemmas | None = None
                   ) -> QueryTrace:  # fmt: skip
    """The trace of a query whose streamed answer the user stopped: the text so far, cited, and why it ends;
    the extractive answer when nothing had arrived."""
    if not partial.strip():
        step = extractive_answer(trace, embedder, graph, lex=lex)
        step = replace(step, error="the LLM answer was stopped before any text arrived; extractive answer shown")
    else:
        step = cited_answer(trace, partial, None, 0.0, f"stopped by the user after {len(partial)} characters")
        step = replace(step, paths=reasoning_paths(trace, embedder, graph, lex=lex))
    return replace(trace, answer=step)

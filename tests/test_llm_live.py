"""Optional: ingest + query end to end against a real OpenAI-compatible server.

Set VGRAG_TEST_LLM_BASE_URL (e.g. `python -m llama_cpp.server --model SMALL.gguf --port 8001` →
http://127.0.0.1:8001/v1) and optionally VGRAG_TEST_LLM_MODEL / VGRAG_TEST_LLM_API_KEY. The model may be poor:
the run must still finish cleanly and keep what the model said in the trace.
"""

from __future__ import annotations

import os

import pytest

from vgrag.config import LLMSettings, QueryParams
from vgrag.ingest import ingest_documents
from vgrag.llm import make_llm
from vgrag.llm_extract import LLMExtractor
from vgrag.llm_query import query_hooks
from vgrag.pipeline import run_query

URL = os.environ.get("VGRAG_TEST_LLM_BASE_URL", "")
pytestmark = pytest.mark.skipif(not URL, reason="no real LLM server: set VGRAG_TEST_LLM_BASE_URL to run")


def test_ingest_and_query_against_a_real_server(graph, embedder, tmp_path):
    model = os.environ.get("VGRAG_TEST_LLM_MODEL", "test")
    s = LLMSettings(
        base_url=URL,
        api_key=os.environ.get("VGRAG_TEST_LLM_API_KEY", "x"),
        model_extract=model,
        model_rerank=model,
        model_answer=model,
        timeout_s=300,
        max_retries=1,
        concurrency=1,
    )
    llm = make_llm(s, str(tmp_path))
    text = b"Ada Lovelace worked with Charles Babbage. Charles Babbage designed the Analytical Engine in London."
    report = ingest_documents(graph, embedder, LLMExtractor(llm, model, 1), [("ada.txt", text)])
    assert report.chunks == 1 and report.counts["passages"] == 1  # stored even if the model wrote garbage
    tr = run_query(
        "What did the person Ada Lovelace worked with design?",
        graph,
        embedder,
        QueryParams(passage_top_k=1),
        **query_hooks(s, llm=llm),
    )
    assert 1 <= len(tr.llm_calls) <= 2
    assert all(c.raw_response or c.error for c in tr.llm_calls)
    assert tr.answer.text

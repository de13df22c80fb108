from __future__ import annotations

import json

import httpx2
import pytest
from llm_server import ScriptedServer
from test_retrieve import FACTS, Q, rid

from vgrag.config import QueryParams
from vgrag.extraction.extract import LLMExtractor
from vgrag.llm import LLMError
from vgrag.models import Triple
from vgrag.query.pipeline import run_query
from vgrag.query.rerank import parse_selected_ids
from vgrag.storage.writer import SourceChunk, write_chunks

GOOD = json.dumps({"entities": ["Ada", "Charles"], "triples": [["Ada", "worked with", "Charles"]]})


def test_extraction_happy_path_and_json_mode():
    srv = ScriptedServer([GOOD])
    [ex] = LLMExtractor(srv.llm()).extract_many(["Ada worked with Charles."])
    assert ex.triples == (Triple("Ada", "worked with", "Charles"),) and ex.error is None
    assert ex.raw == GOOD and ex.prompt_tokens == 10
    assert srv.requests[0]["response_format"] == {"type": "json_object"}
    assert "Ada worked with Charles." in srv.requests[0]["messages"][-1]["content"]


@pytest.mark.parametrize(
    "reply,n,err",
    [
        ("```json\n" + GOOD + "\n```", 1, None),
        ("Sure! " + GOOD + " Anything else?", 1, None),
        ("Ada | worked with | Charles", 1, None),
        ('{"triples": [["Ada", "x"], ["Ada", "y", "Ada"]]}', 0, "malformed"),
        ("no idea", 0, "no JSON"),
    ],
)
def test_extraction_malformed_outputs_keep_raw_and_error(reply, n, err):
    [ex] = LLMExtractor(ScriptedServer([reply]).llm()).extract_many(["text"])
    assert len(ex.triples) == n and ex.raw == reply
    assert (ex.error is None) if err is None else (err in ex.error)


def test_rate_limit_then_success_is_retried():
    srv = ScriptedServer([429, 429, GOOD])
    [ex] = LLMExtractor(srv.llm()).extract_many(["t"])
    assert ex.triples and len(srv.requests) == 3


def test_auth_and_missing_model_fail_at_once_with_a_fix():
    srv = ScriptedServer([401])
    with pytest.raises(LLMError, match="rejected the API key"):
        srv.llm().complete("extract", [{"role": "user", "content": "x"}])
    assert len(srv.requests) == 1
    with pytest.raises(LLMError, match="not found"):
        ScriptedServer([404]).llm(model_extract="gpt-9").complete("extract", [{"role": "user", "content": "x"}])


def test_timeout_is_retried_then_reported():
    srv = ScriptedServer([httpx2.ReadTimeout("slow")])
    sleeps: list[float] = []
    with pytest.raises(LLMError, match="timed out 4 time") as e:
        srv.llm(sleeps=sleeps).complete("extract", [{"role": "user", "content": "x"}])
    assert len(srv.requests) == 4 and sleeps == [1.0, 2.0, 4.0]  # exponential backoff: waiting may help
    assert len(e.value.attempts) == 4 and "APITimeoutError" in e.value.attempts[0] and not e.value.unreachable


def test_server_without_json_mode_falls_back():
    def reply(body):
        if "response_format" in body:
            return httpx2.Response(400, json={"error": {"message": "response_format is not supported"}})
        return GOOD

    srv = ScriptedServer([reply])
    llm = srv.llm()
    [ex] = LLMExtractor(llm).extract_many(["t"])
    assert ex.triples and "response_format" in srv.requests[0] and "response_format" not in srv.requests[1]
    LLMExtractor(llm).extract_many(["u"])  # remembered: no second JSON-mode attempt
    assert len(srv.requests) == 3


def test_cache_hit_makes_no_call(tmp_path):
    srv = ScriptedServer([GOOD])
    llm = srv.llm(cache_dir=tmp_path)
    LLMExtractor(llm).extract_many(["same text"])
    [again] = LLMExtractor(srv.llm(cache_dir=tmp_path)).extract_many(["same text"])
    assert len(srv.requests) == 1 and again.cached and again.triples


def test_rerank_id_parsing():
    assert parse_selected_ids('{"selected": [3, 1, 99, "2", "x"]}', 5) == ([3, 1, 2], 2)
    assert parse_selected_ids("Facts 4 and 2 matter.", 5) == ([4, 2], 0)
    assert parse_selected_ids("", 5) == ([], 0)


@pytest.fixture
def small(graph, embedder):
    write_chunks(graph, embedder, [SourceChunk("doc", "facts", t, i, (tr,)) for i, (t, tr) in enumerate(FACTS)])
    return graph


def _numbered(prompt: str, text: str) -> int:
    for line in prompt.splitlines():
        if line.endswith(". " + text) or line.split(". ", 1)[-1] == text:
            return int(line.split(".", 1)[0])
    raise AssertionError(text)


def test_query_makes_two_calls_with_rerank_and_cited_answer(small, embedder):
    def reply(body):
        prompt = body["messages"][-1]["content"]
        if "Facts:" in prompt:
            return json.dumps(
                {
                    "selected": [
                        _numbered(prompt, FACTS[1][1].sentence()),
                        _numbered(prompt, FACTS[0][1].sentence()),
                        999,
                    ]
                }
            )
        return "Acme Corp, founded by Alice Smith, is headquartered in Springfield [1][2]. [7]"

    srv = ScriptedServer([reply])
    llm = srv.llm()
    tr = run_query(Q, small, embedder, QueryParams(hops=2, passage_top_k=3), llm=llm)
    assert len(srv.requests) == 2 and llm.calls == 2 and len(tr.llm_calls) == 2
    assert tr.rerank.method == "llm" and tr.rerank.selected == (rid(FACTS[1][1]), rid(FACTS[0][1]))
    assert tr.rerank.llm.error == "1 invalid id(s) ignored" and "Facts:" in tr.rerank.llm.prompt
    assert tr.answer.method == "llm" and [c.n for c in tr.answer.citations] == [1, 2]
    assert tr.answer.error == "cited missing passage(s) [7]" and tr.answer.llm.error is None
    assert tr.answer.paths  # reasoning paths still shown


def test_failed_llm_falls_back_offline_and_says_so(small, embedder):
    srv = ScriptedServer([500])
    llm = srv.llm(max_retries=0)
    tr = run_query(Q, small, embedder, QueryParams(hops=2), llm=llm)
    assert tr.rerank.method == "graph" and "offline graph rerank" in tr.rerank.error
    assert tr.answer.method == "extractive" and "LLM answer failed" in tr.answer.error
    assert tr.answer.citations


def test_gleaning_adds_missed_triples_in_a_second_call():
    more = json.dumps({"triples": [["Charles", "designed", "Analytical Engine"]]})
    srv = ScriptedServer([GOOD, more])
    [ex] = LLMExtractor(srv.llm(), glean=True).extract_many(["Ada worked with Charles, who designed it."])
    assert len(srv.requests) == 2 and len(ex.triples) == 2
    assert srv.requests[1]["messages"][-2] == {"role": "assistant", "content": GOOD}
    assert "--- gleaning ---" in ex.raw and ex.prompt_tokens == 20


def test_streamed_answer_delivers_pieces_and_usage(small, embedder):
    answer = "Acme Corp is headquartered in Springfield [1]."

    def reply(body):
        return json.dumps({"selected": [1]}) if "Facts:" in body["messages"][-1]["content"] else answer

    srv = ScriptedServer([reply])
    llm = srv.llm()
    pieces: list[str] = []
    tr = run_query(Q, small, embedder, QueryParams(hops=2), llm=llm, on_delta=pieces.append)
    assert len(pieces) > 3 and "".join(pieces) == answer
    assert srv.requests[-1]["stream"] is True
    assert tr.answer.text == answer and tr.answer.llm.completion_tokens == 9
    assert [c.n for c in tr.answer.citations] == [1]


def test_ingest_reports_llm_token_totals(graph, embedder):
    from vgrag.ingest import ingest_documents

    srv = ScriptedServer([GOOD])
    r = ingest_documents(graph, embedder, LLMExtractor(srv.llm()), [("a.txt", b"Ada worked with Charles.")])
    assert (r.prompt_tokens, r.completion_tokens) == (10, 5) and r.triples == 1


def test_bad_request_fails_at_once():
    srv = ScriptedServer([400])
    with pytest.raises(LLMError, match="refused the request"):
        srv.llm().complete("extract", [{"role": "user", "content": "x"}])
    assert len(srv.requests) == 1

"""Every LLM call is bounded: a token cap per role, a per-query deadline, fast failure where waiting cannot help.

The real `openai` client runs over httpx2's MockTransport (tests/llm_server.py), or against a closed local port.
"""

from __future__ import annotations

import json
import socket

import httpx2
import pytest
from llm_server import Cut, ScriptedServer
from test_retrieve import FACTS, Q

from vgrag.config import LLMSettings, QueryParams
from vgrag.extraction.extract import LLMExtractor
from vgrag.llm import QUICK_RETRY_S, Deadline, LLMError, make_llm
from vgrag.query.pipeline import retrieve_trace, run_query, stopped_answer
from vgrag.storage.writer import SourceChunk, write_chunks

GOOD = json.dumps({"entities": ["Ada", "Charles"], "triples": [["Ada", "worked with", "Charles"]]})
CAPS = {"max_tokens_extract": 300, "max_tokens_glean": 100, "max_tokens_rerank": 50, "max_tokens_answer": 200}


@pytest.fixture
def small(graph, embedder):
    write_chunks(graph, embedder, [SourceChunk("doc", "facts", t, i, (tr,)) for i, (t, tr) in enumerate(FACTS)])
    return graph


def _is_rerank(body: dict) -> bool:
    return "Facts:" in body["messages"][-1]["content"]


def test_every_call_carries_its_roles_token_cap(small, embedder):
    srv = ScriptedServer([lambda b: json.dumps({"selected": [1]}) if _is_rerank(b) else GOOD])
    llm = srv.llm(**CAPS)
    LLMExtractor(llm, glean=True).extract_many(["Ada worked with Charles."])
    run_query(Q, small, embedder, QueryParams(), llm=llm)
    run_query(Q, small, embedder, QueryParams(), llm=llm, on_delta=lambda piece: None)
    caps = [r["max_tokens"] for r in srv.requests]
    assert caps == [300, 100, 50, 200, 50, 200]
    tr = run_query(Q, small, embedder, QueryParams(), llm=llm)
    assert [c.max_tokens for c in tr.llm_calls] == [50, 200] and len(tr.llm_calls) <= 2


def test_extraction_cut_at_the_cap_is_a_parse_failure_keeping_the_raw_text():
    cut = Cut('{"triples": [["Ada", "worked with", "Charles"], ["Charles", "desig')
    [ex] = LLMExtractor(ScriptedServer([cut]).llm(**CAPS)).extract_many(["text"])
    assert ex.triples == () and ex.raw == cut and "300-token cap" in ex.error


def test_rerank_cut_at_the_cap_falls_back_offline_with_raw_text(small, embedder):
    srv = ScriptedServer([lambda b: Cut('{"selected": [1, 2, 3') if _is_rerank(b) else "Springfield [1]."])
    tr = run_query(Q, small, embedder, QueryParams(), llm=srv.llm(**CAPS))
    assert (
        tr.rerank.method == "graph" and "50-token cap" in tr.rerank.error and "offline graph rerank" in tr.rerank.error
    )
    assert tr.rerank.llm.raw_response == '{"selected": [1, 2, 3' and tr.answer.method == "llm"


def test_answer_cut_at_the_cap_keeps_its_text_and_says_so(small, embedder):
    srv = ScriptedServer([lambda b: json.dumps({"selected": [1]}) if _is_rerank(b) else Cut("Acme is in Springf")])
    tr = run_query(Q, small, embedder, QueryParams(), llm=srv.llm(**CAPS), on_delta=lambda p: None)
    assert tr.answer.text == "Acme is in Springf" and "200-token cap" in tr.answer.error


def test_connection_refused_fails_fast_and_the_query_skips_its_second_call(small, embedder):
    srv = ScriptedServer([httpx2.ConnectError("[Errno 111] Connection refused")])
    sleeps: list[float] = []
    tr = run_query(Q, small, embedder, QueryParams(), llm=srv.llm(sleeps=sleeps))
    assert len(srv.requests) == 2 and sleeps == [QUICK_RETRY_S]  # one quick retry, then no answer call at all
    assert tr.rerank.method == "graph" and "Cannot reach" in tr.rerank.error and tr.rerank.llm.unreachable
    assert len(tr.rerank.llm.attempts) == 2 and "Connection refused" in tr.rerank.llm.attempts[0]
    assert tr.answer.method == "extractive" and "unreachable" in tr.answer.error and tr.answer.citations


def test_a_closed_local_port_is_reported_at_once():
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    llm = make_llm(LLMSettings(base_url=f"http://127.0.0.1:{port}/v1", api_key="x", max_retries=5))
    with pytest.raises(LLMError, match="Cannot reach") as e:
        llm.complete("rerank", [{"role": "user", "content": "x"}])
    assert e.value.unreachable and len(e.value.attempts) == 2  # not 6: retrying a refused port cannot help


def test_rate_limit_honours_retry_after():
    limited = httpx2.Response(429, headers={"retry-after": "3"}, json={"error": {"message": "slow down"}})
    srv = ScriptedServer([limited, GOOD])
    sleeps: list[float] = []
    [ex] = LLMExtractor(srv.llm(sleeps=sleeps)).extract_many(["t"])
    assert ex.triples and sleeps == [3.0]


def test_expired_deadline_sends_nothing(small, embedder):
    srv = ScriptedServer([GOOD])
    llm = srv.llm()
    with pytest.raises(LLMError, match="deadline"):
        llm.complete(
            "rerank", [{"role": "user", "content": "x"}], deadline=Deadline(0.001, clock=iter([0, 1, 2, 3]).__next__)
        )
    assert srv.requests == []
    tr = run_query(Q, small, embedder, QueryParams(), llm=srv.llm(query_deadline_s=1e-9))
    assert srv.requests == [] and "deadline" in tr.rerank.error and "deadline" in tr.answer.error
    assert tr.answer.method == "extractive" and tr.answer.text


def test_backoff_never_outlives_the_deadline():
    srv = ScriptedServer([429])
    sleeps: list[float] = []
    now = [0.0]
    llm = srv.llm(sleep=lambda s: (sleeps.append(s), now.__setitem__(0, now[0] + s)), max_retries=10)
    with pytest.raises(LLMError):
        llm.complete("rerank", [{"role": "user", "content": "x"}], deadline=Deadline(5.0, clock=lambda: now[0]))
    assert sum(sleeps) < 5.0 and len(srv.requests) == 3  # waits 1 + 2, then 4 more would pass the deadline


def test_server_wanting_max_completion_tokens_is_adapted_to_once():
    def reply(body):
        if "max_tokens" in body:
            return httpx2.Response(
                400, json={"error": {"message": "Unsupported parameter: 'max_tokens'. Use 'max_completion_tokens'."}}
            )
        return GOOD

    srv = ScriptedServer([reply])
    llm = srv.llm(**CAPS)
    LLMExtractor(llm).extract_many(["a"])
    LLMExtractor(llm).extract_many(["b"])
    assert [("max_tokens" in r, r.get("max_completion_tokens")) for r in srv.requests] == [
        (True, None),
        (False, 300),
        (False, 300),
    ]


def test_stream_broken_midway_keeps_what_arrived_and_is_not_retried(small, embedder):
    def reply(body):
        if _is_rerank(body):
            return json.dumps({"selected": [1]})

        def chunks():
            first = {"id": "x", "object": "chat.completion.chunk", "created": 0, "model": "m"}
            first["choices"] = [{"index": 0, "delta": {"content": "Acme is in Spring"}, "finish_reason": None}]
            yield f"data: {json.dumps(first)}\n\n".encode()
            raise httpx2.ReadError("connection reset")

        return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=chunks())

    srv = ScriptedServer([reply])
    pieces: list[str] = []
    tr = run_query(Q, small, embedder, QueryParams(), llm=srv.llm(), on_delta=pieces.append)
    assert pieces == ["Acme is in Spring"] and len(srv.requests) == 2
    assert tr.answer.text == "Acme is in Spring" and "stream broke" in tr.answer.error


def test_stream_stops_at_the_deadline_with_the_text_so_far(small, embedder):
    srv = ScriptedServer(
        [lambda b: json.dumps({"selected": [1]}) if _is_rerank(b) else "Acme Corp is in Springfield [1]."]
    )
    llm = srv.llm()
    pieces: list[str] = []
    session_clock = [0.0]
    from vgrag.query import pipeline

    class Session(pipeline.QueryLLM):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            self.deadline = Deadline(10.0, clock=lambda: session_clock[0])

    def on_delta(piece: str) -> None:
        pieces.append(piece)
        session_clock[0] = 11.0  # the first piece arrives after the deadline

    session = Session(llm, on_delta)
    trace = retrieve_trace(Q, small, embedder, QueryParams(), session)
    tr = pipeline.answer_trace(trace, small, embedder, session)
    assert len(pieces) == 1 and tr.answer.text == pieces[0] and "query deadline" in tr.answer.error


def test_stopped_answer_keeps_the_partial_text_with_its_citations(small, embedder):
    trace = retrieve_trace(Q, small, embedder, QueryParams())
    tr = stopped_answer(trace, "Acme Corp is headquartered in Springfield [1] and", small, embedder)
    assert tr.answer.text.endswith("and") and [c.n for c in tr.answer.citations] == [1]
    assert "stopped by the user after 49 characters" in tr.answer.error and tr.answer.paths
    empty = stopped_answer(trace, "", small, embedder)
    assert empty.answer.method == "extractive" and "before any text" in empty.answer.error


# ---------- live: a real local server that drips or floods (tests/llm_http.py), the real client, real time
from llm_http import HostileLLM, serving  # noqa: E402

LIVE_DEADLINE_S = 3.0
MARGIN_S = 2.0  # thread hand-over and the server's last byte; far below the one-byte-a-second drip it bounds


def _live(url: str, **kw):
    return make_llm(LLMSettings(base_url=url, api_key="x", max_retries=0, **kw))


@pytest.mark.parametrize("mode", ["drip", "drip_headers"])
def test_a_dripping_server_cannot_hold_a_query_past_its_deadline(small, embedder, mode):
    import time

    srv = HostileLLM(mode)
    with serving(srv) as url:
        t0 = time.monotonic()
        tr = run_query(Q, small, embedder, QueryParams(), llm=_live(url, query_deadline_s=LIVE_DEADLINE_S))
        took = time.monotonic() - t0
    assert took < LIVE_DEADLINE_S + MARGIN_S, f"{mode}: the query took {took:.1f} s"
    assert "deadline" in tr.rerank.error and tr.answer.text and tr.answer.method == "extractive"


def test_a_dripped_stream_ends_at_the_deadline_with_the_text_so_far():
    import time

    with serving(HostileLLM("drip", byte_every_s=0.01)) as url:
        llm = _live(url)
        pieces: list[str] = []
        t0 = time.monotonic()
        r = llm.stream("answer", [{"role": "user", "content": "q"}], pieces.append, deadline=Deadline(LIVE_DEADLINE_S))
        took = time.monotonic() - t0
    assert took < LIVE_DEADLINE_S + MARGIN_S and r.truncated == "deadline"
    assert pieces and r.text == "".join(pieces) and "Acme is in Springfield [1].".startswith(r.text)


def test_the_request_limit_bounds_a_call_without_a_query_deadline():
    """Extraction calls have no query deadline: timeout_s bounds the whole call, not each byte."""
    import time

    with serving(HostileLLM("drip")) as url:
        t0 = time.monotonic()
        with pytest.raises(LLMError, match="request limit"):
            _live(url, timeout_s=2.0).complete("extract", [{"role": "user", "content": "x"}], use_cache=False)
        assert time.monotonic() - t0 < 2.0 + MARGIN_S


@pytest.mark.parametrize("stream", [False, True])
def test_a_50_mb_reply_is_refused_with_a_message(stream):
    srv = HostileLLM("huge", huge_mb=50)
    with serving(srv) as url:
        llm = _live(url)
        pieces: list[str] = []
        with pytest.raises(LLMError, match="more than 2 MB") as e:
            if stream:
                llm.stream("answer", [{"role": "user", "content": "q"}], pieces.append)
            else:
                llm.complete("answer", [{"role": "user", "content": "q"}], use_cache=False)
    assert srv.bytes_sent < 20 * 2**20  # reading stopped near the cap, not at 50 MB
    if stream:  # what arrived before the cap is kept, as for any stream that broke
        assert e.value.partial and len(e.value.partial) <= 2 * 2**20 and "".join(pieces) == e.value.partial

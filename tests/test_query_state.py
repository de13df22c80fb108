"""One query state: retrieval hands the answer step the question's vector and the relations it read, so a query
embeds its question once and reads no relation twice; nothing is remembered between queries."""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np
import pytest
from fakes import HashEmbedder
from llm_server import ScriptedServer
from test_retrieve import FACTS, Q

from vgrag.config import QueryParams
from vgrag.query.pipeline import answer_trace, retrieve_trace, run_query
from vgrag.query.trace import trace_from_dict
from vgrag.storage.writer import SourceChunk, write_chunks


class CountingEmbedder(HashEmbedder):
    """The test embedder (the real Embedder protocol), recording every text it embeds."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.texts.extend(texts)
        return super().embed(texts)


@pytest.fixture
def small(graph, embedder):
    write_chunks(graph, embedder, [SourceChunk("doc", "facts", t, i, (tr,)) for i, (t, tr) in enumerate(FACTS)])
    return graph


def _reply(body: dict) -> str:
    return '{"selected": [1, 2, 3]}' if "Facts:" in body["messages"][-1]["content"] else "Springfield [1]."


@pytest.mark.parametrize("method", ["graph", "naive"])
@pytest.mark.parametrize("with_llm", [False, True])
def test_each_query_embeds_its_question_exactly_once(small, method, with_llm):
    counting = CountingEmbedder()
    srv = ScriptedServer([_reply])
    for _ in range(2):  # asked again: embedded again (no vector is remembered between queries)
        tr = run_query(Q, small, counting, QueryParams(hops=2), llm=srv.llm() if with_llm else None, method=method)
        assert tr.answer is not None and tr.answer.text
    assert counting.texts.count(Q) == 2
    if with_llm:
        assert len(srv.requests) == (4 if method == "graph" else 2)  # rerank (graph only) and answer, per query


def test_the_answer_step_reads_no_relation_and_embeds_nothing(small, monkeypatch):
    counting = CountingEmbedder()
    tr = retrieve_trace(Q, small, counting, QueryParams(hops=2))
    assert tr.state is not None and set(tr.state.relation_vectors) == {r.id for r in tr.relations}
    reads: list[str] = []
    real = small.get_with_vectors
    monkeypatch.setattr(small, "get_with_vectors", lambda kind, ids: reads.append(kind) or real(kind, ids))
    before = len(counting.texts)
    done = answer_trace(tr, small, counting)
    assert done.answer.paths and len(counting.texts) == before and reads == []


def test_the_state_is_not_exported_and_a_rebuilt_trace_still_answers(small):
    counting = CountingEmbedder()
    tr = run_query(Q, small, counting, QueryParams(hops=2))
    d = json.loads(tr.to_json())
    assert "state" not in d
    back = trace_from_dict(d)
    assert back.state is None and back == tr
    again = answer_trace(back, small, counting)  # no state: the question is embedded again, the same paths come out
    assert again.answer.paths == tr.answer.paths and counting.texts.count(Q) == 2

"""The bundled demo answers its example questions offline: real MiniLM embeddings, graph rerank, extractive chain."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vgrag.documents.triple_files import read_jsonl
from vgrag.ingest import ingest_imported
from vgrag.query.pipeline import run_query
from vgrag.text import content_hash

DEMO = Path(__file__).resolve().parent.parent / "data" / "demo"
EXPECTED = {  # question index → the name a correct answer contains
    0: "Priya Raman",
    1: "Vesta Hardware",
    2: "Priya Raman",
    3: "Rui Calado",
    4: "Aiko Tanaka",  # leads the Payments team, which owns Tollgate, which caused INC-103
    5: "Hamburg",
    6: "Storage team",
    7: "Maas Colocation",
}


@pytest.fixture(scope="module")
def demo(db, minilm):
    g = db.open_graph("demo_e2e", minilm.model_id, minilm.dim)
    data = (DEMO / "northwind.jsonl").read_bytes()
    report = ingest_imported(g, minilm, "northwind.jsonl", content_hash(data), read_jsonl(data))
    assert report.counts["passages"] == 36 and not report.failures
    yield g
    db.drop_graph("demo_e2e")


def test_example_questions_are_answered_right_or_not_at_all(demo, minilm):
    """Offline, a short answer is shown only when the reader is confident: each example question gets the right one
    or none (then the evidence, cited), never a wrong one."""
    questions = json.loads((DEMO / "questions.json").read_text())
    for n, name in EXPECTED.items():
        tr = run_query(questions[n], demo, minilm)
        a = tr.answer
        assert a.evidence and a.citations and all(c.text for c in a.citations) and tr.llm_calls == ()
        assert not a.short or name in a.short, (questions[n], a.short)


def test_unanswerable_demo_questions_get_no_short_answer(demo, minilm):
    for q in json.loads((DEMO / "unanswerable.json").read_text()):
        a = run_query(q, demo, minilm).answer
        assert a.abstained and not a.short, (q, a.short)  # says so, and still shows the evidence with its citation
        assert a.text.startswith(a.verdict.said) and a.evidence and a.citations
        assert a.verdict.kind != "found", (q, a.verdict)  # what the documents do not say is never "found"


def test_example_questions_are_never_said_to_be_missing(demo, minilm):
    for q in json.loads((DEMO / "questions.json").read_text()):
        v = run_query(q, demo, minilm).answer.verdict
        assert v.kind != "missing", (q, v)


class _CountingEmbedder:
    """The real embedder, recording every batch it is asked to embed."""

    def __init__(self, inner):
        self.inner, self.batches = inner, []
        self.model_id, self.dim = inner.model_id, inner.dim

    def embed(self, texts):
        self.batches.append(list(texts))
        return self.inner.embed(texts)


def test_the_offline_answer_embeds_nothing_after_retrieval(demo, minilm):
    """The answer step reuses retrieval's question vector and scores whole chains with the relations' stored
    vectors: no model call between the retrieved trace and the answer."""
    from vgrag.config import QueryParams
    from vgrag.query.answer import extractive_answer
    from vgrag.query.retrieve import retrieve

    counting = _CountingEmbedder(minilm)
    questions = json.loads((DEMO / "questions.json").read_text())
    trace = retrieve(questions[4], demo, counting, QueryParams())
    before = len(counting.batches)
    step = extractive_answer(trace, counting, demo)
    assert step.paths and step.evidence
    assert len(counting.batches) == before, counting.batches[before:]

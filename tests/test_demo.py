"""The bundled demo answers its example questions offline: real MiniLM embeddings, graph rerank, extractive chain."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vgrag.ingest import ingest_imported
from vgrag.pipeline import run_query
from vgrag.sources import read_jsonl
from vgrag.text import content_hash

DEMO = Path(__file__).resolve().parent.parent / "data" / "demo"
EXPECTED = {  # question index → a name the offline answer must contain
    0: "Priya Raman",
    1: "Vesta Hardware",
    2: "Priya Raman",
    3: "Rui Calado",
    4: "Payments team",
    5: "Vesta Hardware",
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


@pytest.mark.parametrize("n", sorted(EXPECTED))
def test_example_question_is_answered_offline(demo, minilm, n):
    question = json.loads((DEMO / "questions.json").read_text())[n]
    tr = run_query(question, demo, minilm)
    assert EXPECTED[n] in tr.answer.text, (tr.answer.text, tr.answer.paths)
    assert tr.answer.citations and all(c.text for c in tr.answer.citations)
    assert tr.llm_calls == ()

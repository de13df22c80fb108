"""Extraction that fails loudly (#34): an LLM extractor that cannot reach its endpoint never leaves a document
"complete" with its triples missing (the real openai client over a scripted transport)."""

from __future__ import annotations

import json

import httpx2
from llm_server import ScriptedServer

from vgrag.extraction.extract import LLMExtractor
from vgrag.ingest import ingest_documents

GOOD = json.dumps({"entities": ["Ada", "Charles"], "triples": [["Ada", "worked with", "Charles"]]})
DOWN = httpx2.ConnectError("connection refused")
TEXT = b"Ada worked with Charles on the engine."


def _ingest(graph, embedder, reply, name: str = "notes.txt", data: bytes = TEXT):  # noqa: ANN001, ANN202
    return ingest_documents(graph, embedder, LLMExtractor(ScriptedServer([reply]).llm()), [(name, data)])


def test_endpoint_down_then_up_extracts_on_the_second_run(graph, embedder) -> None:  # noqa: ANN001
    first = _ingest(graph, embedder, DOWN)
    [doc] = graph.documents.all()
    assert not doc.complete  # before: complete, with 0 triples
    assert any("marked incomplete" in f.reason for f in first.failures)
    second = _ingest(graph, embedder, GOOD)
    assert second.unchanged == ()  # before: "unchanged", never extracted
    assert second.triples == 1
    [doc] = graph.documents.all()
    assert doc.complete


def test_a_changed_file_with_the_endpoint_down_keeps_the_old_triples(graph, embedder) -> None:  # noqa: ANN001
    assert _ingest(graph, embedder, GOOD).triples == 1
    [old] = graph.documents.all()
    report = _ingest(graph, embedder, DOWN, data=TEXT + b" They met in London.")
    assert any("stored version was kept" in f.reason for f in report.failures)
    assert report.replaced == ()
    [kept] = graph.documents.all()
    assert kept.id == old.id and kept.content_hash == old.content_hash and kept.complete
    assert [r.text for r in graph.iter_relations()] == ["Ada worked with Charles"]  # before: deleted, 0 new
    assert [p.text for p in graph.passages_of_doc(old.id)] == [TEXT.decode()]

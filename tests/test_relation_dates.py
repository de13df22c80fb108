"""A relation keeps its date ("in 2012") in its own column (#31); a graph stored before that column existed keeps
opening, reading and taking new facts (their dates are then not kept)."""

from __future__ import annotations

import pytest

from vgrag.ingest import ingest_documents
from vgrag.models import Triple
from vgrag.nlp import load_spacy
from vgrag.present.viz import neighbourhood
from vgrag.storage import schema
from vgrag.storage.writer import SourceChunk, write_chunks

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="spaCy model en_core_web_sm not installed")
TEXT = "Sullivan founded ResMed in 1989. ResMed is based in San Diego."


def _chunk(doc: str, text: str, triples: list[Triple]) -> SourceChunk:
    return SourceChunk(doc, "notes", text, 0, tuple(triples), ())


def test_a_relation_keeps_its_date_in_the_store_and_its_copy(graph, embedder):
    from vgrag.extraction.extract import OfflineExtractor

    ingest_documents(graph, embedder, OfflineExtractor(), [("cpap.txt", TEXT.encode())])
    founded = [r for r in graph.iter_relations() if r.predicate == "founded"]
    assert [(r.object, r.when) for r in founded] == [("ResMed", "in 1989")]
    assert graph.get_relations([founded[0].id])[0].when == "in 1989"
    graph.load_copies()  # the in-memory copy (mirror) decodes the column too
    assert graph.get_relations([founded[0].id])[0].when == "in 1989"
    assert [r.when for r in graph.iter_relations() if r.predicate != "founded"] == [""] * (len(
        list(graph.iter_relations())) - 1)  # fmt: skip
    drawn = neighbourhood(graph, founded[0].subject_id)  # Explore's graph labels the edge with its date
    assert "founded (in 1989)" in {e.label for e in drawn.edges}


def test_a_graph_from_before_the_date_column_opens_reads_and_takes_new_facts(db, embedder, monkeypatch):
    old_columns = tuple(c for c in schema.COLUMNS["relations"] if c.name != schema.WHEN)
    monkeypatch.setitem(schema.COLUMNS, "relations", old_columns)
    g = db.open_graph("before_dates", embedder.model_id, embedder.dim)  # created without the column
    try:
        write_chunks(g, embedder, [_chunk("d1", TEXT, [Triple("Sullivan", "founded", "ResMed")])])
        monkeypatch.undo()  # today's code opens the old graph
        assert schema.WHEN in [c.name for c in schema.COLUMNS["relations"]]
        g = db.open_graph("before_dates", embedder.model_id, embedder.dim)
        assert not schema.has_column(g.client, g.coll("relations"), schema.WHEN)
        write_chunks(g, embedder, [_chunk("d2", "ResMed is based in San Diego since 1989.", [
            Triple("ResMed", "based in", "San Diego", when="since 1989")])])  # fmt: skip
        rels = {(r.subject, r.predicate, r.object, r.when) for r in g.iter_relations()}
        assert rels == {("Sullivan", "founded", "ResMed", ""), ("ResMed", "based in", "San Diego", "")}
        hits = g.search("relations", embedder.embed(["Sullivan founded ResMed"]), 2)[0]
        assert hits and all(h.record.when == "" for h in hits)
    finally:
        db.drop_graph("before_dates")

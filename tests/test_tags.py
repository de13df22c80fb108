"""Sentence tags (tags.py): the reader's NER runs at ingest, is kept beside a Lite database, survives a restart,
and is what the answer step reads."""

from __future__ import annotations


from vgrag.query.question import read_question
from vgrag.query.reader import read
from vgrag.storage.tags import SentenceTags
from vgrag.storage.writer import SourceChunk, write_chunks


def test_ingest_keeps_the_tags_of_extractions_parse_for_the_reader(graph, embedder):
    """The offline extractor's parse gives each sentence's names; the writer keeps them with the graph, so the
    reader runs no NER over what ingest already parsed."""
    parsed = (("Lucia Paredes studied geology.", (("Lucia Paredes", "PERSON"),)),)
    write_chunks(graph, embedder, [SourceChunk("d", "t", "Lucia Paredes studied geology.", 0, tags=parsed)])
    assert graph.tags.get(["Lucia Paredes studied geology."]) == {"Lucia Paredes studied geology.": parsed[0][1]}


def test_the_reader_reads_the_stored_tags_instead_of_running_the_ner(tmp_path):
    """Tags no NER would give (a made-up name as a PERSON) decide the answer: the store is what the reader read."""
    store = SentenceTags()
    sentence = "The lighthouse was restored by qwxz in 1990."
    store.add([(sentence, (("qwxz", "PERSON"), ("1990", "DATE")))])
    r, _ = read(read_question("Who restored the lighthouse?"), [("Lighthouse", sentence)], tags=store)
    assert r.best is not None and r.best.text == "qwxz"
    r, _ = read(read_question("Who restored the lighthouse?"), [("Lighthouse", sentence)])
    assert r.best is None or r.best.text != "qwxz"

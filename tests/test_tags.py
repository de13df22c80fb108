"""Sentence tags (tags.py): the reader's NER runs at ingest, is kept beside a Lite database, survives a restart,
and is what the answer step reads."""

from __future__ import annotations

from milvus_lite import server_manager_instance

from vgrag.query.question import read_question
from vgrag.query.reader import read
from vgrag.storage.database import Database
from vgrag.storage.tags import SentenceTags, sentence_key
from vgrag.storage.writer import SourceChunk, write_chunks
from vgrag.text import split_sentences


def test_tags_round_trip_through_their_file_and_skip_a_cut_line(tmp_path):
    path = tmp_path / "t" / "sentence-tags.jsonl"
    store = SentenceTags(path)
    store.add([("Ada met Charles.", (("Ada", "PERSON"), ("Charles", "PERSON"))), ("Nothing here.", ())])
    store.add([("Ada met Charles.", (("Ada", "ORG"),))])  # a sentence's tags are written once
    with path.open("a") as f:
        f.write('["cut-off line", [["x"')  # a crash mid-line
    again = SentenceTags(path)
    assert len(again) == 2 and again.get(["Ada met Charles.", "Nothing here.", "Unseen."]) == {
        "Ada met Charles.": (("Ada", "PERSON"), ("Charles", "PERSON")),
        "Nothing here.": (),
    }
    again.add([("Later sentence.", (("Later", "DATE"),))])  # appends after the cut line, which is skipped
    assert SentenceTags(path).get(["Later sentence."]) == {"Later sentence.": (("Later", "DATE"),)}
    assert sentence_key("a") != sentence_key("a ")  # the sentence itself is the key


def test_a_store_that_cannot_be_written_keeps_its_tags_in_memory(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    store = SentenceTags(blocker / "sentence-tags.jsonl")  # its folder cannot be created
    store.add([("Ada met Charles.", (("Ada", "PERSON"),))])
    assert store.get(["Ada met Charles."]) == {"Ada met Charles.": (("Ada", "PERSON"),)}


def test_ingest_tags_every_sentence_and_a_restart_reads_them(tmp_path, embedder):
    path = str(tmp_path / "g.db")
    db = Database(path)
    g = db.open_graph("g", embedder.model_id, embedder.dim)
    texts = ["Lucia Paredes studied geology in Concepción. She joined Orchard Mining in 2009.",
             "Orchard Mining is based in Valparaíso."]  # fmt: skip
    chunks = [SourceChunk("d", "t", x, i) for i, x in enumerate(texts)]
    stats = write_chunks(g, embedder, chunks)
    sentences = [s for x in texts for s in split_sentences(x)]
    assert stats.sentences_tagged == len(sentences) == 3
    assert set(g.tags.get(sentences)) == set(sentences)
    assert write_chunks(g, embedder, chunks).sentences_tagged == 0  # a replayed write tags nothing again
    db.close()
    server_manager_instance.release_server(path)
    db = Database(path)  # a restart: the tags come from the file beside the database
    g = db.open_graph("g", embedder.model_id, embedder.dim)
    tags = g.tags
    assert not tags.loaded and not g.copies_loaded()  # the app's start-up spinner covers reading them
    g.load_copies()
    assert tags.loaded and g.copies_loaded() and len(tags) == 3
    assert dict(tags.get(sentences)[sentences[0]])["Lucia Paredes"] == "PERSON"
    db.close()


def test_the_reader_reads_the_stored_tags_instead_of_running_the_ner(tmp_path):
    """Tags no NER would give (a made-up name as a PERSON) decide the answer: the store is what the reader read."""
    store = SentenceTags(tmp_path / "sentence-tags.jsonl")
    sentence = "The lighthouse was restored by qwxz in 1990."
    store.add([(sentence, (("qwxz", "PERSON"), ("1990", "DATE")))])
    r, _ = read(read_question("Who restored the lighthouse?"), [("Lighthouse", sentence)], tags=store)
    assert r.best is not None and r.best.text == "qwxz"
    r, _ = read(read_question("Who restored the lighthouse?"), [("Lighthouse", sentence)])
    assert r.best is None or r.best.text != "qwxz"

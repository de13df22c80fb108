"""Sentences once (issue #29): ingest splits a document into sentences once, each passage is stored with its
sentences and their named entities (from extraction's parse, else the NER at ingest), and the answer step reads
them from the passage — it splits and tags nothing. Older passages (stored without them) still answer."""

from __future__ import annotations

import pytest

import vgrag.query.sentences as sentences_mod
from vgrag.extraction.extract import OfflineExtractor
from vgrag.ingest import ingest_documents, ingest_imported
from vgrag.documents.triple_files import ImportedPassage
from vgrag.models import Passage, Triple
from vgrag.nlp import load_spacy
from vgrag.query.sentences import listed_sentences
from vgrag.storage import schema
from vgrag.storage.tags import SENTENCES_BYTES, SentenceTags, decode_sentences, encode_sentences
from vgrag.storage.writer import SourceChunk, write_chunks

DOC = b"""# Varn lighthouse

The Varn lighthouse was restored by Ada Quell in 1990. It stands on the coast of Brill.

## Keepers

Tomas Berg kept the light from 1950 to 1972. His daughter Lena Berg wrote a book about Varn.
"""


def _spacy():
    nlp = load_spacy()
    if nlp is None:
        pytest.skip("spaCy's en_core_web_sm is not installed")
    return nlp


def _refuse(*_a, **_k):
    raise AssertionError("the answer step split or tagged a sentence that was stored with its passage")


def test_encoded_sentences_round_trip_and_never_describe_another_text():
    text = "Ada Quell restored it. She was born in Brill."
    ss = ("Ada Quell restored it.", "She was born in Brill.")
    enc = encode_sentences(text, ss, ((("Ada Quell", "PERSON"),), None))
    assert decode_sentences(text, enc) == (ss, ((("Ada Quell", "PERSON"),), None))
    assert decode_sentences(text + " More.", enc) is None  # lengths that do not cover the text: not used
    assert decode_sentences(text, "") is None and decode_sentences(text, "{bad") is None
    raw = "Ada Quell restored it.\n\nShe was born in Brill."  # not the sentences joined by spaces: kept whole
    assert decode_sentences(raw, encode_sentences(raw, ss)) == (ss, (None, None))
    many = ["Word."] * 3000
    huge = encode_sentences(" ".join(many), many, [(("x" * 20, "ORG"),)] * 3000)  # tags over the column: dropped
    assert len(huge.encode()) <= SENTENCES_BYTES and decode_sentences(" ".join(many), huge)[1] == (None,) * 3000


def test_ingest_stores_each_passage_with_its_sentences_and_the_parses_names(graph, embedder):
    _spacy()
    report = ingest_documents(graph, embedder, OfflineExtractor(), [("varn.md", DOC)], chunk_chars=120)
    assert report.chunks >= 2
    passages = graph.passages_of_doc(graph.documents.all()[0].id)
    for p in passages:
        stored = decode_sentences(p.text, p.sentences)
        assert stored is not None and " ".join(stored[0]) == p.text and None not in stored[1]
    by_sentence = {s: t for p in passages for s, t in zip(*decode_sentences(p.text, p.sentences), strict=True)}
    assert "Ada Quell" in dict(by_sentence["The Varn lighthouse was restored by Ada Quell in 1990."])


def test_the_answer_step_reads_stored_sentences_and_splits_or_tags_nothing(ws, monkeypatch):
    _spacy()
    ws.add_documents([("varn.md", DOC)], graph="stored_sentences", extractor=OfflineExtractor())
    trace = ws.retrieve("Who restored the Varn lighthouse?", graph="stored_sentences")
    monkeypatch.setattr(sentences_mod, "split_texts", _refuse)
    monkeypatch.setattr(sentences_mod, "tag_sentences", _refuse)
    answered = ws.answer(trace, graph="stored_sentences")
    assert any("Ada Quell" in e.sentence for e in answered.answer.evidence)


def test_imported_passages_are_split_and_tagged_once_at_import(graph, embedder):
    _spacy()
    text = "Ada Quell restored the Varn lighthouse.\nShe was born in Brill."
    fact = Triple("Ada Quell", "restored", "Varn lighthouse")
    ingest_imported(graph, embedder, "facts.jsonl", "h1", [ImportedPassage("Varn", text, (fact,), ())])
    (p,) = graph.passages_of_doc(graph.documents.all()[0].id)
    ss, tags = decode_sentences(p.text, p.sentences)
    assert ss == ("Ada Quell restored the Varn lighthouse.", "She was born in Brill.")
    assert "Brill" in dict(tags[1])  # named by the NER at import


def test_a_passage_stored_without_sentences_is_split_and_tagged_when_listed(graph, embedder):
    """A graph stored before sentences were kept: its passages still give sentences, tagged by the NER once and
    remembered in the graph's memory for the next question."""
    _spacy()
    write_chunks(graph, embedder, [SourceChunk("d", "Varn", "Ada Quell restored it. She was born in Brill.", 0)])
    (p,) = graph.get_passages([SourceChunk("d", "Varn", "Ada Quell restored it. She was born in Brill.", 0).passage_id])
    assert p.sentences == ""
    memory = SentenceTags()
    got = listed_sentences([p], memory)
    assert [x for _, _, x in got.split] == ["Ada Quell restored it.", "She was born in Brill."]
    assert "Brill" in dict(got.tags[1]) and len(memory) == 2


def test_the_listed_sentences_carry_the_stored_tags_instead_of_running_the_ner(monkeypatch):
    """Tags no NER would give (a made-up name as a PERSON) are what the evidence and a reader get: the passage's."""
    sentence = "The lighthouse was restored by qwxz in 1990."
    tags = [(("qwxz", "PERSON"), ("1990", "DATE"))]
    stored = Passage("psg-1", "Lighthouse", sentence, "d", sentences=encode_sentences(sentence, [sentence], tags))
    monkeypatch.setattr(sentences_mod, "tag_sentences", _refuse)
    listed = listed_sentences([stored])
    assert listed.split == ((0, "Lighthouse", sentence),) and listed.tags == tuple(tags)


def test_a_graph_from_before_the_sentences_column_takes_new_passages_and_lists_their_sentences(db, embedder,
                                                                                              monkeypatch):  # fmt: skip
    _spacy()
    old_columns = tuple(c for c in schema.COLUMNS["passages"] if c.name != schema.SENTENCES)
    monkeypatch.setitem(schema.COLUMNS, "passages", old_columns)
    g = db.open_graph("before_sentences", embedder.model_id, embedder.dim)  # created without the column
    try:
        write_chunks(g, embedder, [SourceChunk("d1", "Varn", "Ada Quell restored it.", 0)])
        monkeypatch.undo()  # today's code opens the old graph
        g = db.open_graph("before_sentences", embedder.model_id, embedder.dim)
        assert not schema.has_column(g.client, g.coll("passages"), schema.SENTENCES)
        text = "Tomas Berg kept the light. He lived in Brill."
        sentences = ("Tomas Berg kept the light.", "He lived in Brill.")
        write_chunks(g, embedder, [SourceChunk("d2", "Keepers", text, 0, sentences=sentences, tags=((), ()))])
        passages = sorted(g.iter_passages(), key=lambda p: p.doc_id)
        assert [p.sentences for p in passages] == ["", ""]  # nothing written to a column the graph lacks
        listed = listed_sentences(passages, SentenceTags())
        assert [x for _, _, x in listed.split] == ["Ada Quell restored it.", *sentences]
    finally:
        db.drop_graph("before_sentences")


def test_an_oversize_passage_is_packed_from_its_own_sentences_never_split_again(monkeypatch):
    from vgrag.ingest import passages as passages_mod

    monkeypatch.setattr(passages_mod, "chunk_sentences", _refuse)
    sentences = tuple(f"Sentence number {i} says something about Varn." for i in range(40))
    parts = passages_mod.fit_passage(sentences, limit=300)
    assert [s for p in parts for s in p] == list(sentences)  # the same sentences, in order, none re-segmented
    assert all(len(" ".join(p).encode()) <= 300 for p in parts) and len(parts) > 1
    long = ("word " * 200).strip()
    assert all(len(" ".join(p).encode()) <= 300 for p in passages_mod.fit_passage((long, "Short one."), limit=300))


def test_not_prose_is_never_given_to_the_ner_and_a_graph_without_the_column_tags_nothing(graph, embedder, monkeypatch):
    from vgrag.ingest import passages as passages_mod
    from vgrag.ingest.report import Tally

    seen: list[str] = []
    monkeypatch.setattr(passages_mod, "tag_sentences", lambda nlp, xs: [seen.extend(xs) or [] for _ in xs])
    junk, run_on = "_a " * 200, "x" * (passages_mod.TAG_CHARS + 1)
    tags = passages_mod.tag_missing([("Ada Quell restored it.", junk, run_on)], [[None, None, None]], Tally())
    assert seen == ["Ada Quell restored it."] and tags[0][1:] == ((), ())
    import vgrag.ingest as ingest_mod

    monkeypatch.setattr(ingest_mod, "keeps_sentences", lambda g: False)  # a graph made before the column
    monkeypatch.setattr(passages_mod, "tag_sentences", _refuse)
    ingest_imported(graph, embedder, "old.jsonl", "h2", [ImportedPassage("Varn", "Ada Quell restored it.", (), ())])


def test_an_offline_bench_graph_takes_its_names_from_the_extractions_parse(graph, embedder, monkeypatch):
    """bench's offline graphs are imported with each passage's parse: its names are used, no second NER."""
    from vgrag.ingest import passages as passages_mod

    _spacy()
    text = "Ada Quell restored the Varn lighthouse. She was born in Brill."
    (ex,) = OfflineExtractor().extract_many([text], ["Varn"])
    monkeypatch.setattr(passages_mod, "tag_sentences", _refuse)
    ingest_imported(graph, embedder, "bench.jsonl", "h3",
                    [ImportedPassage("Varn", text, ex.triples, ex.entities, named=ex.named)])  # fmt: skip
    (p,) = graph.passages_of_doc(graph.documents.all()[0].id)
    ss, tags = decode_sentences(p.text, p.sentences)
    assert len(ss) == 2 and None not in tags and "Ada Quell" in dict(tags[0])


def test_a_sentence_is_not_cut_inside_a_bracket():
    from vgrag.text import split_sentences

    text = ("In Trench 3, storage pit [3012] was 1.4 m across and held burnt grain. The brooch came from the upper "
            "fill (4004) of ditch [4003]. An unclosed ( bracket does not swallow the paragraph. Nor this sentence.")
    sents = split_sentences(text)
    assert sents[0] == "In Trench 3, storage pit [3012] was 1.4 m across and held burnt grain."
    assert "The brooch came from the upper fill (4004) of ditch [4003]." in sents
    assert sents[-1] == "Nor this sentence."

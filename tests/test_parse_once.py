"""spaCy runs once per text at ingest: the segmenter once per section, the parser once per passage, and the
sentences' named entities come from that parse — no second NER, no second split."""

from __future__ import annotations

import pytest

import vgrag.extraction.extract as extract_mod
import vgrag.text as text_mod
from vgrag.extraction.extract import OfflineExtractor
from vgrag.ingest import ingest_documents
from vgrag.nlp import load_spacy
from vgrag.storage.tags import decode_sentences

DOC = b"""# Varn lighthouse

The Varn lighthouse was restored by Ada Quell in 1990. It stands on the coast of Brill.

## Keepers

Tomas Berg kept the light from 1950 to 1972. His daughter Lena Berg wrote a book about Varn.
"""


class CountingSpacy:
    """The real spaCy pipeline, recording every text it is asked to process."""

    def __init__(self, nlp: object) -> None:
        self._nlp = nlp
        self.texts: list[str] = []

    def pipe(self, texts, **kw):
        texts = list(texts)
        self.texts.extend(texts)
        return self._nlp.pipe(texts, **kw)

    def __call__(self, text: str):
        self.texts.append(text)
        return self._nlp(text)

    def __getattr__(self, name: str):
        return getattr(self._nlp, name)


def test_each_passage_is_parsed_once_and_its_sentences_are_tagged_from_that_parse(graph, embedder, monkeypatch):
    nlp = load_spacy()
    if nlp is None:
        pytest.skip("spaCy's en_core_web_sm is not installed")
    counting = CountingSpacy(nlp)
    monkeypatch.setattr(extract_mod, "load_spacy", lambda: counting)
    segmented: list[str] = []
    real_segment = text_mod._segment
    monkeypatch.setattr(text_mod, "_segment", lambda ps: (segmented.extend(ps), real_segment(ps))[1])
    report = ingest_documents(graph, embedder, OfflineExtractor(), [("varn.md", DOC)], chunk_chars=120)
    assert report.chunks >= 2 and len(counting.texts) == report.chunks  # one parse per passage, nothing else
    assert len(segmented) == 2  # each section's paragraph segmented once (the chunks' sentences are kept)
    passages = graph.passages_of_doc(graph.documents.all()[0].id)
    tags = {s: t for p in passages for s, t in zip(*decode_sentences(p.text, p.sentences), strict=True)}
    assert None not in tags.values()  # every sentence tagged, from the extraction's parse
    assert "Ada Quell" in dict(tags["The Varn lighthouse was restored by Ada Quell in 1990."])

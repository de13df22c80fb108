"""spaCy's NER over sentences, for the offline reader: each sentence's named entities from extraction's parse at
ingest (`passage_tags`), or from the NER alone at query time for a sentence nobody tagged yet (`tag_sentences`); the
graph keeps them (storage/tags.py)."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from ..storage.tags import SentenceTags, Tags
from ..text import split_sentences

# sentences come from text.split_sentences; the NER has its own embedding layer, so the shared tok2vec (which
# only feeds the tagger and parser) is skipped too: the same entities, ~30 % faster (2.9 -> 2.1 ms a sentence)
NER_ONLY = ["tok2vec", "tagger", "parser", "attribute_ruler", "lemmatizer"]


_NER_LOCK = threading.Lock()  # one spaCy call at a time (app sessions run in threads)


def _ner(nlp: object, sentences: Sequence[str]) -> list[Tags]:
    """spaCy's NER alone on these sentences, in one batch: (entity text, label) per entity."""
    with _NER_LOCK:
        docs = list(nlp.pipe(sentences, disable=NER_ONLY, batch_size=256))  # type: ignore[attr-defined]
    return [tuple((e.text.strip(), e.label_) for e in d.ents if e.text.strip()) for d in docs]


def tag_sentences(
    nlp: object, sentences: Sequence[str], store: SentenceTags | None = None
) -> list[list[tuple[str, str]]]:
    """Each sentence's named entities (text, label): from the store (tagged at ingest, or by an earlier question),
    else spaCy's NER alone (the parser is the costly part) on the new sentences in one batch, added to the store.
    Without a store, every sentence is tagged afresh."""
    known = store.get(sentences) if store is not None else {}
    todo = [x for x in dict.fromkeys(sentences) if x not in known]
    fresh = list(zip(todo, _ner(nlp, todo), strict=True)) if todo else []
    if store is not None and fresh:
        store.add(fresh)
    known |= dict(fresh)
    return [list(known[x]) for x in sentences]


def passage_tags(doc: object, text: str) -> list[tuple[str, Tags]]:
    """Each sentence of `text` (as the reader splits it) with the entities that a spaCy Doc of the text found in it:
    the parse extraction already ran, so ingest runs no second NER over the passage. A sentence the Doc's text does
    not contain (cleaning changed it) is left out, and tagged alone later."""
    whole, at, out = doc.text, 0, []  # type: ignore[attr-defined]
    ents = [(e.start_char, e.end_char, e.text.strip(), e.label_) for e in doc.ents]  # type: ignore[attr-defined]
    for sentence in split_sentences(text) or [text]:
        start = whole.find(sentence, at)
        if start < 0:
            continue
        at = start + len(sentence)
        out.append((sentence, tuple((t, label) for a, b, t, label in ents if start <= a and b <= at and t)))
    return out

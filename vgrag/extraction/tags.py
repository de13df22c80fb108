"""spaCy's NER over sentences: each sentence's named entities from extraction's parse at ingest (`sentence_tags`), or
from the NER alone for a sentence the parse did not cover (`tag_sentences`); passages store them (storage/tags.py)."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from ..models import Named
from ..storage.tags import SentenceTags, Tags

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
    """Each sentence's named entities (text, label): from the store (tagged by an earlier question),
    else spaCy's NER alone (the parser is the costly part) on the new sentences in one batch, added to the store.
    Without a store, every sentence is tagged afresh."""
    known = store.get(sentences) if store is not None else {}
    todo = [x for x in dict.fromkeys(sentences) if x not in known]
    fresh = list(zip(todo, _ner(nlp, todo), strict=True)) if todo else []
    if store is not None and fresh:
        store.add(fresh)
    known |= dict(fresh)
    return [list(known[x]) for x in sentences]


def sentence_tags(named: Named, sentences: Sequence[str]) -> list[Tags | None]:
    """Each of a passage's sentences (as ingest split it) with the entities its extraction's parse found in it, so
    ingest runs no second NER over the passage. A sentence the parsed text does not contain (cleaning changed it,
    or nothing was parsed) gets None, and is tagged by the NER alone (ingest.tag_missing)."""
    at, out = 0, []
    for sentence in sentences:
        start = named.text.find(sentence, at) if named.text else -1
        if start < 0:
            out.append(None)
            continue
        at = start + len(sentence)
        out.append(tuple((t, label) for a, b, t, label in named.spans if start <= a and b <= at and t))
    return out

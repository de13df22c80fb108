"""A passage's sentences and their named entities, stored with the passage (its `sentences` column): ingest splits
a document into sentences once, chunks are made of whole sentences, and extraction's parse (else spaCy's NER at
ingest or import) names each sentence's entities, so the answer step reads both from the passage and splits or tags
nothing.

Passages stored before that column have none: their sentences are split when a question lists them and tagged by
spaCy's NER (extraction/tags.py), remembered in the graph's memory (`SentenceTags`), keyed by the sentence itself (a
hash of its text), so an entry never goes stale. Only a graph created since stores them.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterable, Sequence


Tags = tuple[tuple[str, str], ...]  # (entity text, spaCy label) per entity, in order


def sentence_key(sentence: str) -> str:
    return hashlib.blake2b(sentence.encode("utf-8"), digest_size=12).hexdigest()


class SentenceTags:
    """Sentences' tags by sentence, in this process's memory (the graph's): the sentences of passages stored without
    theirs, tagged by the NER when a question first lists them."""

    def __init__(self) -> None:
        self._tags: dict[str, Tags] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return len(self._tags)

    def get(self, sentences: Iterable[str]) -> dict[str, Tags]:
        """The tags of the sentences already tagged (the others are absent)."""
        with self._lock:
            return {s: self._tags[k] for s in sentences if (k := sentence_key(s)) in self._tags}

    def add(self, tagged: Sequence[tuple[str, Tags]]) -> None:
        """Remember (sentence, tags) pairs."""
        with self._lock:
            for sentence, ents in tagged:
                self._tags.setdefault(sentence_key(sentence), tuple(ents))


SENTENCES_BYTES = 32_000  # the most a passage's encoded sentences take (the column's clip; tags go first past it)


def encode_sentences(text: str, sentences: Sequence[str], tags: Sequence[Tags | None] | None = None) -> str:
    """A passage's sentences (and each one's tags, when known) as its `sentences` column: their lengths when the
    text is them joined by single spaces (a chunk always is), else the sentences themselves; "" when it would not
    fit the column even without tags, or when there are none."""
    if not sentences:
        return ""
    out: dict = {"n": [len(x) for x in sentences]} if " ".join(sentences) == text else {"s": list(sentences)}
    if tags is not None and len(tags) == len(sentences):
        out["t"] = [None if ents is None else [list(e) for e in ents] for ents in tags]
    for attempt in (out, {k: v for k, v in out.items() if k != "t"}):
        data = json.dumps(attempt, ensure_ascii=False, separators=(",", ":"))
        if len(data.encode("utf-8")) <= SENTENCES_BYTES:
            return data
    return ""


def decode_sentences(text: str, encoded: str) -> tuple[tuple[str, ...], tuple[Tags | None, ...]] | None:
    """The passage's stored sentences and each one's tags (None where it was not tagged), or None when nothing
    usable is stored (an older passage, or a value that does not describe this text)."""
    if not encoded:
        return None
    try:
        data = json.loads(encoded)
        if "n" in data:
            sentences, at = [], 0
            for n in data["n"]:
                if at and text[at - 1 : at] != " ":  # sentences joined by single spaces, nothing else
                    return None
                sentences.append(text[at : at + n])
                at += n + 1
            if at - 1 != len(text):
                return None
        else:
            sentences = [str(x) for x in data["s"]]
        tags = data.get("t") or [None] * len(sentences)
        tagged = tuple(None if ents is None else tuple((str(t), str(label)) for t, label in ents) for ents in tags)
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    if len(tagged) != len(sentences):
        tagged = (None,) * len(sentences)
    return tuple(sentences), tagged

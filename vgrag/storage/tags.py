"""The named entities of sentences for the offline reader, kept in the graph's memory: storage keeps what
extraction's parse found at ingest and what the reader's NER found at query time (extraction/tags.py runs the NER).

Keyed by the sentence itself (a hash of its text), so an entry never goes stale: a changed or re-chunked passage
has new sentences and new keys, and a deleted one leaves entries nobody asks for.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterable, Sequence


Tags = tuple[tuple[str, str], ...]  # (entity text, spaCy label) per entity, in order


def sentence_key(sentence: str) -> str:
    return hashlib.blake2b(sentence.encode("utf-8"), digest_size=12).hexdigest()


class SentenceTags:
    """Sentences' tags by sentence, in this process's memory (the graph's: tagged at ingest by extraction's parse,
    or by the reader when a question lists a sentence first)."""

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

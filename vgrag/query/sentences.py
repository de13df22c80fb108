"""The sentences of the passages a question listed, split and tagged once, for the answer step's evidence and reader.

A passage stored since sentences were kept with passages carries its sentences and their named entities
(storage/tags.py): nothing is split or tagged here. An older passage (or one of a trace rebuilt from a file without
them) is split now, and its sentences tagged by spaCy's NER, remembered in the graph's memory (`SentenceTags`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ..extraction.tags import tag_sentences
from ..models import Passage
from ..nlp import load_spacy
from ..storage.tags import SentenceTags, Tags, decode_sentences
from ..text import split_texts


@dataclass(frozen=True)
class Sentences:
    """Every sentence of the listed passages, in order: (passage index, title, sentence) and its named entities."""

    split: tuple[tuple[int, str, str], ...] = ()
    tags: tuple[Tags, ...] = ()


class Listed(Protocol):
    """A listed passage: a stored `Passage` or a trace's `RankedPassage`."""

    title: str
    text: str
    sentences: str


def listed_sentences(passages: Sequence[Listed], memory: SentenceTags | None = None) -> Sentences:
    """The passages' sentences as stored with them; those of passages without stored sentences split in one batch,
    and every sentence without stored tags tagged by the NER in one batch (kept in `memory` when given)."""
    stored = [decode_sentences(p.text, p.sentences) for p in passages]
    todo = [p.text for p, s in zip(passages, stored, strict=True) if s is None]
    fresh = iter(split_texts(todo)) if todo else iter(())
    split: list[tuple[int, str, str]] = []
    tags: list[Tags | None] = []
    for i, (p, s) in enumerate(zip(passages, stored, strict=True)):
        ss, ts = s if s is not None else (tuple(next(fresh)) or (p.text,), None)
        split.extend((i, p.title, x) for x in ss)
        tags.extend(ts if ts is not None else (None,) * len(ss))
    missing = [x for (_, _, x), t in zip(split, tags, strict=True) if t is None]
    nlp = load_spacy() if missing else None
    found = dict(zip(missing, map(tuple, tag_sentences(nlp, missing, memory)), strict=True)) if nlp else {}
    return Sentences(tuple(split), tuple(t if t is not None else found.get(x, ()) for (_, _, x), t in
                                         zip(split, tags, strict=True)))  # fmt: skip


def as_passages(pairs: Sequence[tuple[str, str]]) -> list[Passage]:
    """(title, text) pairs as passages with nothing stored (for scripts and tests that read plain text)."""
    return [Passage(f"psg-{i}", title, text, "") for i, (title, text) in enumerate(pairs)]

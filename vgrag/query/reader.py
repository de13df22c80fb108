"""The interface of an offline reader: what the answer step asks of a model that reads the listed passages'
sentences for a short answer, and what it gets back.

No reader ships. Four passes fitted one on these corpora (spaCy's entities as candidates, general signals, weights
learned on questions generated from the corpora's own triples); held out, even its most confident answers were right
less than half the time, so it shipped with threshold 1.0, never answered, and was deleted in session 15
(docs/offline-answers.md; recover it from commit f9cae35 if a reading model ever installs here). Offline answers
are the cited evidence and its verdict; a `Reader` passed to `extractive_answer` adds a short answer when it is
confident (tests pass a scripted one).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from .question import Asked
from .sentences import Sentences


@dataclass(frozen=True)
class Chain:
    """What the graph says about names as answers: where the best chains end, and how many selected relations
    separate each name from the question's own entities (normalised names)."""

    ends: frozenset[str] = frozenset()
    reach: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Candidate:
    """A candidate answer and the sentence that gives it."""

    text: str
    label: str
    sentence: str
    passage_index: int  # rank of its passage in the retrieved list (0 = first)
    confidence: float


@dataclass(frozen=True)
class Reading:
    """The reader's verdict: the short answer (or "" when not confident enough), its confidence and why."""

    short: str
    confidence: float
    best: Candidate | None
    why: str  # why there is no short answer ("" when there is one)
    signals: str  # what decided the best candidate, in words


class Reader(Protocol):
    """What the answer step asks of a reader: a Reading of the listed passages' sentences (split and tagged once,
    shared with the evidence)."""

    def read(self, asked: Asked, sentences: Sentences, chain: Chain) -> Reading: ...

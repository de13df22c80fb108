"""The evidence shown first offline: up to three sentences of the retrieved passages that together say most of the
question, chosen greedily as a set cover of its names and content words, where a passage that an already chosen
sentence names counts as one more thing said (the next hop of the chain: "… in Wilmington" → the passage about
Wilmington's airport).

Every name, content word and bridge is worth the same (one unit): nothing here is a weight fitted or tuned on the
dev questions. Measured (scripts/answer_timing.py, graph method, top 5 passages; the evidence contains the gold
answer): MuSiQue dev 26.7 → 36.7 % (+10.0 [0, +21.7], of a 58.3 % ceiling: the passages' own), HotpotQA dev 76.0 →
76.0 % (of 86.0 %), against the previous choice (the best candidate's sentence, the chain's first relation's
sentence, the top passage's best sentence); see docs/offline-answers.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..nlp import Lemmas
from .question import norm

MAX_EVIDENCE = 3  # sentences shown first


@dataclass(frozen=True)
class Sentence:
    """One sentence of a retrieved passage and what it says of the question."""

    text: str
    passage: int  # index in the retrieved list
    words: frozenset[int]  # which of the question's content words (by position) it says in some form
    names: frozenset[str]  # which of the question's names it or its passage's title states
    padded: str  # " normalised text " for whole-word look-ups
    entities: frozenset[str]  # the named entities spaCy tagged in it (normalised)
    title: str  # its passage's title as a name: normalised, without a ", qualifier" or "(qualifier)"


def title_name(title: str) -> str:
    """The name a title gives its passage: "Rochester, New York" and "Hello Love (song)" name Rochester and Hello
    Love."""
    return norm(title.split(",")[0].split("(")[0])


def describe(
    lemmas: tuple[frozenset[str], ...],
    names: Sequence[str],
    split: Sequence[tuple[int, str, str]],
    tags: Sequence[Sequence[tuple[str, str]]],
    lex: Lemmas | None = None,
) -> list[Sentence]:
    """The question's content words (lemma sets) and names each (passage index, title, sentence) says, with the
    sentence's named entities (`tags`, one list per sentence); `lex` reads the sentences' words (the question's)."""
    lex = lex if lex is not None else Lemmas()
    every = frozenset().union(*lemmas) if lemmas else frozenset()
    keys = [(n, f" {norm(n)} ") for n in names if norm(n)]
    out = []
    for (i, title, text), ents in zip(split, tags, strict=True):
        have = lex.found(every, text) if every else frozenset()
        padded = f" {norm(text)} "
        with_title = f" {norm(title)} {padded}"
        out.append(
            Sentence(
                text,
                i,
                frozenset(j for j, w in enumerate(lemmas) if w & have),
                frozenset(n for n, k in keys if k in with_title),
                padded,
                frozenset(k for t, _ in ents if (k := norm(t))),
                title_name(title),
            )
        )
    return out


def bridged(s: Sentence, chosen: Sequence[Sentence]) -> bool:
    """Whether a chosen sentence of another passage names this sentence's passage: its title stated there, or one
    of its named entities within the title or containing it."""
    if not s.title or any(c.passage == s.passage for c in chosen):
        return False
    t = f" {s.title} "
    return any(c.passage != s.passage and (t in c.padded or any(f" {e} " in t or t in f" {e} " for e in c.entities))
               for c in chosen)  # fmt: skip


def choose(sentences: Sequence[Sentence], first: Sentence | None = None) -> list[Sentence]:
    """Up to MAX_EVIDENCE sentences: `first` (the short answer's sentence, when one is shown), then each time the
    one adding most of the question not yet said (a new name, a new content word, or a passage the chosen sentences
    name: one unit each); ties go to the higher-ranked passage, then the earlier sentence."""
    chosen: list[Sentence] = [first] if first is not None else []
    words: set[int] = set(first.words) if first else set()
    names: set[str] = set(first.names) if first else set()
    while len(chosen) < MAX_EVIDENCE:
        best, key = None, None
        for s in sentences:
            if any(s.text == c.text for c in chosen):
                continue
            gain = len(s.words - words) + len(s.names - names) + bridged(s, chosen)
            if key is None or (gain, -s.passage) > key:
                best, key = s, (gain, -s.passage)
        if best is None:
            break
        chosen.append(best)
        words |= best.words
        names |= best.names
    return chosen

"""The evidence shown first offline: up to five sentences of the retrieved passages that together say most of the
question, chosen greedily as a set cover of its names and content words, where a passage that an already chosen
sentence names counts as one more thing said (the next hop of the chain: "… in Wilmington" → the passage about
Wilmington's airport); once nothing adds more of the question, the chain is followed on (a sentence naming an entity
a chosen sentence of another passage states, else the sentence continuing a chosen one).

Every name, content word and bridge is worth the same (one unit), and the chain is only a tie-break: nothing here is
a weight fitted or tuned on the dev questions. Measured (graph method, top 5 passages; the evidence contains the gold
answer; docs/offline-answers.md, "Third pass (session 16)"): MuSiQue dev 35.0 → 45.0 %, HotpotQA dev 78.0 → 84.0 %
against three sentences without the chain (the passages' own ceiling: 58.3 / 86.0 %).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..nlp import WORD, Lemmas, stop_words
from .question import norm

MAX_EVIDENCE = 5  # sentences shown first (docs/offline-answers.md, "Third pass (session 16)")


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
    name_keys: frozenset[str] = frozenset()  # the question's names it states, normalised
    typed: frozenset[tuple[str, str]] = frozenset()  # its named entities (normalised) with spaCy's label


def title_name(title: str) -> str:
    """The name a title gives its passage: "Rochester, New York" and "Hello Love (song)" name Rochester and Hello
    Love."""
    return norm(title.split(",")[0].split("(")[0])


def states(key: str, padded: str) -> bool:
    """Whether a normalised, space-padded text states the normalised name `key`: as written, or with up to two words
    between two of its words, as a name is written shorter in a question than in the text ("Dr Gallagher" for "Dr
    Fiona Gallagher", "George Bush" for "George W. Bush")."""
    if f" {key} " in padded:
        return True
    words = key.split()
    if len(words) < 2 or not all(f" {w} " in padded for w in words):
        return False
    return re.search(" " + "(?: \\w+){0,2} ".join(map(re.escape, words)) + " ", padded) is not None


def describe(
    lemmas: tuple[frozenset[str], ...],
    names: Sequence[str],
    split: Sequence[tuple[int, str, str]],
    tags: Sequence[Sequence[tuple[str, str]]],
    lex: Lemmas | None = None,
    resolved: Sequence[Sequence[str]] = (),
) -> list[Sentence]:
    """The question's content words (lemma sets) and names each (passage index, title, sentence) says, with the
    sentence's named entities (`tags`, one list per sentence); `lex` reads the sentences' words (the question's).
    `resolved` (one tuple per sentence): the names its "she" or "the company" stand for (query/referents.py); a
    sentence states those names as if it wrote them ("She married Jan Pyrek" states Katarzyna Pyrek)."""
    lex = lex if lex is not None else Lemmas()
    every = frozenset().union(*lemmas) if lemmas else frozenset()
    # a question word whose lemma is a stop word ("owns": own) is said by the passages' stop words too ("made"),
    # which the content-word match drops
    stopped = frozenset().union(*(x for x in lemmas if x & stop_words())) if lemmas else frozenset()
    firsts = {x[:1] for x in stopped}
    keys = [(n, f" {norm(n)} ") for n in names if norm(n)]
    # a name around another of the question's names ("Riesling Noble Fairlie" around "Noble Fairlie") is stated by a
    # sentence stating the inner name and saying each of its other words ("… a late-harvest Riesling …, called Noble
    # Fairlie")
    around = {n: [(m, [f" {w} " for w in k.replace(m, " ").split()]) for _, m in keys if m != k and m in k]
              for n, k in keys}  # fmt: skip
    out = []
    extra = list(resolved) + [()] * (len(split) - len(resolved))
    for (i, title, text), ents, also in zip(split, tags, extra, strict=True):
        have = lex.found(every, text) if every else frozenset()
        if stopped:
            near = [w for w in (w.casefold() for w in WORD.findall(text)) if w[:1] in firsts]
            have |= frozenset().union(*lex.of(near)) & stopped
        padded = f" {norm(text)} " + "".join(f"{norm(n)} " for n in also)
        with_title = f" {norm(title)} {padded}"
        stated = {n for n, k in keys if states(k[1:-1], with_title)
                  or any(m in with_title and all(w in padded for w in rest) for m, rest in around[n])}  # fmt: skip
        out.append(
            Sentence(
                text,
                i,
                frozenset(j for j, w in enumerate(lemmas) if w & have),
                frozenset(n for n, _ in keys if n in stated),
                padded,
                frozenset(k for t, _ in ents if (k := norm(t))),
                title_name(title),
                frozenset(norm(n) for n, _ in keys if n in stated),
                frozenset((k, label) for t, label in ents if (k := norm(t))),
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


def chained(s: Sentence, chosen: Sequence[Sentence]) -> bool:
    """Whether this sentence names an entity that a chosen sentence of another passage states (not one of the
    question's names): the chain goes on ("… by the Norwegian playwright Henrik Ibsen" → "Nora Ibsen … Norway")."""
    return any(c.passage != s.passage and any(f" {e} " in s.padded for e in c.entities - c.name_keys) for c in chosen)


def choose(sentences: Sequence[Sentence], first: Sentence | None = None, limit: int = MAX_EVIDENCE) -> list[Sentence]:
    """Up to `limit` sentences: `first` (the short answer's sentence, when one is shown), then each time the one
    adding most of the question not yet said (a new name, a new content word, or a passage the chosen sentences
    name: one unit each). Once nothing adds anything, the chain is followed: a sentence naming an entity a chosen
    sentence of another passage states, else the sentence right after a chosen one (it continues it: "It is
    followed by Argentina (10.7%) …"). Ties go to the higher-ranked passage, then the earlier sentence."""
    chosen: list[Sentence] = [first] if first is not None else []
    words: set[int] = set(first.words) if first else set()
    names: set[str] = set(first.names) if first else set()
    before = {i: sentences[i - 1] for i in range(1, len(sentences)) if sentences[i].passage == sentences[i - 1].passage}
    while len(chosen) < limit:
        best, key = None, None
        for i, s in enumerate(sentences):
            if any(s.text == c.text for c in chosen):
                continue
            gain = len(s.words - words) + len(s.names - names) + bridged(s, chosen)
            idle = gain == 0
            follows = idle and any(before.get(i) is c for c in chosen)
            k = (gain, idle and chained(s, chosen), follows, -s.passage)
            if key is None or k > key:
                best, key = s, k
        if best is None:
            break
        chosen.append(best)
        words |= best.words
        names |= best.names
    return chosen

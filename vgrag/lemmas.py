"""Words' lemmas, read with spaCy's rule lemmatizer, for matching a question's words to the passages' in any form
("wrote" ~ "written", "cities" ~ "city")."""

from __future__ import annotations

import re
import threading

from .nlp import load_spacy

STOP_WORDS: frozenset[str] = frozenset()
try:
    from spacy.lang.en.stop_words import STOP_WORDS as _EN_STOP

    STOP_WORDS = frozenset(_EN_STOP)
except ImportError:  # without spaCy the reader has no candidates anyway
    pass

WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


def content_words(text: str) -> list[str]:
    return [w for w in dict.fromkeys(w.casefold() for w in WORD.findall(text) if len(w) > 1) if w not in STOP_WORDS]


class Lemmas:
    """Words' lemma sets as spaCy's rule lemmatizer gives them, each word read as a noun and as a verb ("wrote" ->
    write, "cities" -> city), remembered by the object that owns this one (a graph: the words of its passages come
    back question after question), at most `limit` words; the new words of a call lemmatized in one Doc per part of
    speech (per word it costs ~4x more). Without spaCy a word is its own lemma."""

    def __init__(self, limit: int = 200_000) -> None:
        self._known: dict[str, frozenset[str]] = {}
        self._limit = limit
        self._lock = threading.Lock()

    def of(self, words: list[str]) -> list[frozenset[str]]:
        """The lemma sets of these case-folded words (each call returns what it looked up, so a concurrent clear of a
        full memory loses nothing)."""
        with self._lock:
            known = {w: x for w in words if (x := self._known.get(w)) is not None}
        todo = [w for w in dict.fromkeys(words) if w not in known]
        nlp = load_spacy() if todo else None
        if todo and nlp is None:
            known.update({w: frozenset({w}) for w in todo})
        elif todo:
            from spacy.tokens import Doc

            lemmatizer = nlp.get_pipe("lemmatizer")  # type: ignore[union-attr]
            found: dict[str, set[str]] = {w: {w} for w in todo}
            for pos in ("NOUN", "VERB"):
                for token in Doc(nlp.vocab, words=todo, pos=[pos] * len(todo)):  # type: ignore[union-attr]
                    found[token.text].update(lemmatizer.rule_lemmatize(token))
            fresh = {w: frozenset(x) for w, x in found.items()}
            with self._lock:
                if len(self._known) > self._limit:
                    self._known.clear()
                self._known.update(fresh)
            known.update(fresh)
        return [known[w] for w in words]

    def word(self, word: str) -> frozenset[str]:
        """The word's lemma set."""
        return self.of([word.casefold()])[0]

    def content(self, text: str) -> tuple[frozenset[str], ...]:
        """One lemma set per content word (not an English stop word) of the text."""
        return tuple(self.of(content_words(text)))

    def has(self, wanted: frozenset[str], word: str) -> bool:
        """Whether the word has one of these lemmas. Only a word sharing a first letter with one of them is
        lemmatized (an English inflection keeps its lemma's first letter): most words of a passage never reach
        spaCy."""
        w = word.casefold()
        with self._lock:
            known = self._known.get(w)
        if known is not None:
            return bool(known & wanted)
        return any(x[:1] == w[:1] for x in wanted) and bool(self.word(w) & wanted)

    def found(self, wanted: frozenset[str], text: str) -> frozenset[str]:
        """Which of these lemmas the text's content words have in some form (see has)."""
        firsts = {x[:1] for x in wanted}
        words = [w for w in content_words(text) if w[:1] in firsts]
        return frozenset().union(*self.of(words)) & wanted

    def overlap(self, wanted: tuple[frozenset[str], ...], text: str) -> float:
        """The share of the wanted words (lemma sets) that the text has in some form."""
        if not wanted:
            return 0.0
        have = self.found(frozenset().union(*wanted), text)
        return sum(bool(w & have) for w in wanted) / len(wanted)

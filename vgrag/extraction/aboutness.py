"""Whether a document talks about its topic, and what it calls it (the clause reader asks when a subject is a
common noun). An article names its topic ("Ohio River …", "It …", "The river …"), and there a clause whose subject
is a common noun is mostly about it ("The course forms the border of …"). A document whose chunks under one topic
never name it — a sale catalogue under "… — Evening Sale", a match report under its headline "A 3–2 B" — talks about
other things ("The window opens the still life onto the fells", "The result lifts Athletic to fourth"): there only a
noun the text calls the topic by ("this inspection" under "Food Hygiene Inspection: …", "the novel" after "Wolf Hall
is a historical novel") refers to it. One text alone is too little evidence: a Wikipedia paragraph that never names
its topic is still about it (44 of MuSiQue's first 400 passages); so the texts given together under one topic (a
document's chunks) are read together (`pool`), and only such a group can be `silent`."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .shapes import _SMALL, SUBJ

Tok = Any  # a spaCy Token
PERSONAL = {"he", "she", "it", "they", "him", "her", "them"}


def words_of(text: str) -> str:
    """A text's words, case-folded and single-spaced, with a space on each side ("Person - centered" =
    "person-centered")."""
    return " " + " ".join(re.findall(r"[^\W_]+", text.casefold())) + " "


def content(text: str) -> set[str]:
    """A text's content words, case-folded (not "the", "of", "and" …)."""
    return {w for w in re.findall(r"[^\W_]+", text.casefold()) if w not in _SMALL}


class Aboutness:
    """What one parsed text says of its topic; `names_topic(tok)` tells whether a name token is read as the topic."""

    def __init__(self, doc: Any, title: str, topic: str, lead: set[int], names_topic: Callable[[Tok], bool]) -> None:
        self.doc, self.lead, self.names_topic = doc, lead, names_topic
        self.title_words = content(title) | content(topic)  # the title as written and the name its text uses
        self.kinds: set[str] | None = None  # read when asked
        self.silent = False  # a document's chunks under this topic never name it (set by `pool`)
        self.topic = topic
        self.said = self.says()

    def says(self) -> bool:
        """Whether the text names its topic: writes it, or opens on it (a name read as the topic, "it", "the river")."""
        doc, lead = self.doc, self.lead
        return bool(self.topic) and (words_of(self.topic) in words_of(doc.text) or any(
            self.names_topic(doc[i]) or doc[i].lower_ in PERSONAL or self.anaphor(doc[i]) for i in lead))  # fmt: skip

    def anaphor(self, tok: Tok) -> bool:
        """Whether a common noun written with "the"/"this" is what the text calls its topic ("The river then
        follows …" under "Ohio River")."""
        return tok.pos_ == "NOUN" and any(c.lower_ in ("the", "this") for c in tok.children) and (
            tok.lemma_.lower() in self.topic_kinds() or tok.lower_ in self.topic_kinds())  # fmt: skip

    def topic_kinds(self) -> set[str]:
        """The nouns the text calls its topic by: the title's words and the heads of the descriptions it gives the
        topic ("X is a 1997 American film", "X, an alkylating drug, …")."""
        if self.kinds is None:
            self.kinds = set(self.title_words)
            for t in self.doc:
                if t.dep_ in SUBJ and t.head.lemma_ == "be" and (t.i in self.lead or self.names_topic(t)):
                    self.kinds |= {a.lemma_.lower() for c in t.head.children if c.dep_ == "attr" for a in
                                   [c, *c.conjuncts] if a.pos_ in ("NOUN", "PROPN")}  # fmt: skip
                if t.dep_ == "appos" and t.pos_ == "NOUN" and self.names_topic(t.head):
                    self.kinds.add(t.lemma_.lower())
        return self.kinds


def pool(group: list[Aboutness]) -> None:
    """Two or more texts given together under one topic (a document's chunks): when none of them names the topic,
    the document is silent about it, and a common-noun subject is the topic's only when it is what one of them calls
    the topic ("the novel" after another chunk's "Wolf Hall is a historical novel")."""
    if len(group) < 2 or any(a.said for a in group):
        return
    kinds = set().union(*(a.topic_kinds() for a in group))
    for a in group:
        a.silent, a.kinds = True, kinds

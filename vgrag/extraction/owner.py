"""Whose attribute a copula's subject names: "The current editor is X" (the topic's editor), "Its capital is Y",
"France's capital is Paris" — the clause reader's reading of a described thing (clauses.py)."""

from __future__ import annotations

from typing import Any

from .aboutness import content as _content
from .mentions import proper
from .pronouns import possessive

Tok = Any  # a spaCy Token


def copula_owner(reader: Any, verb: Tok) -> tuple[str, str] | None:
    """(whose, what) when a copula's subject names an attribute of something: "The current editor" (of the
    topic), "Its capital" (the topic's), "France's capital" (France's); else None."""
    subj = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if subj is None or subj.pos_ not in ("NOUN", "PROPN") or subj.i in reader.ent_of:
        return None  # "The Association's General Secretary is X": a role, tagged PROPN, outside NER's names
    if subj.pos_ == "PROPN" and not any(c.dep_ == "poss" and proper(c) for c in subj.children):
        return None
    poss = next((c for c in subj.children if c.dep_ == "poss"), None)
    after = poss.right_edge.i if poss is not None else -1  # "the Association's General Secretary": the role
    what = " ".join(t.text for t in subj.subtree if after < t.i <= subj.i and t.dep_ in ("amod", "compound") or
                    t == subj)  # fmt: skip
    if poss is not None:  # "His father", "Its capital", "The film's director": the topic's, as "he" is the topic
        if poss.lower_ in ("his", "her", "its", "their"):  # with no topic, as "he"/"she"/"it" is read
            return (reader.topic, what) if reader.topic else (w.text, what) if (w := possessive(reader, poss)) else None
        whose = reader.arg(poss)
        if whose and whose.kind == "name":
            return whose.text.removesuffix("'s").removesuffix("'"), what
        the = any(c.lower_ in ("the", "this") for c in poss.children)
        return (reader.topic, what) if whose and whose.kind == "generic" and the and reader.topic else None
    if reader.topic and any(c.lower_ == "the" for c in subj.children) and _content(what) - reader.topic_words:
        return reader.topic, what
    return None


def of_name(reader: Any, tok: Any) -> Any | None:
    """The name a bare common noun written in lower case is "of" ("role" of "the role of Onegin"), read by the
    clause reader, if it is not the text's topic: "the remainder of Railtrack", "a version of Brother" under those
    titles are still the topic's facts (and "A Fistful of Death" is a title, not a fistful)."""
    of = [p for c in tok.children if c.dep_ == "prep" and c.lower_ == "of" for p in c.children if p.dep_ == "pobj"]
    name = reader.arg(of[0]) if len(of) == 1 and tok.text.islower() else None
    if name is None or name.kind != "name" or reader.topic_words and reader.topic_words <= _content(name.text):
        return None
    return name

"""Sentence and title shapes the clause reader asks about: an instruction to the reader (no fact about the topic),
the part of a document's title that its text names, and a name's head word."""

from __future__ import annotations

import re
from typing import Any

Tok = Any  # a spaCy Token

SUBJ = {"nsubj", "nsubjpass", "csubj", "csubjpass"}
_SMALL = {"the", "a", "an", "of", "and", "in", "on", "at", "for", "to", "de", "la", "le"}

TITLE_PARTS = re.compile(r",|\s[—–-]\s|:\s|\s\|\s")  # where a title's parts meet: "Tucson, Arizona"


def title_named(title: str, text: str) -> str:
    """The name a title gives in the words of the (case-folded) text: the first of its parts the text contains
    ("Tucson" of "Tucson, Arizona"), else the longest start of two or more words of a part it contains
    ("Vellora CM-40" of "Vellora CM-40 Espresso Machine — User Manual"); else the title."""
    parts = [p.strip() for p in TITLE_PARTS.split(title) if p.strip()]
    if len(parts) < 2:
        return title
    for part in parts:
        if part.casefold() in text:
            return part
    for part in parts:
        words = part.split()
        for n in range(len(words) - 1, 1, -1):
            if re.search(r"(?<!\w)" + re.escape(" ".join(words[:n]).casefold()) + r"(?!\w)", text):
                return " ".join(words[:n])
    return title


def imperative(verb: Tok) -> bool:
    """An instruction: the sentence's main verb in the base form with no subject and no auxiliary ("Hold the steam
    wand …", "Fill the tank and press the button"), or a base-form verb joined to such a main verb."""

    def bare(v: Tok) -> bool:  # a base-form verb with no subject and no auxiliary of its own
        return v.tag_ == "VB" and not any(c.dep_ in SUBJ or c.dep_ in ("aux", "auxpass") for c in v.children)

    main = verb
    while main.dep_ in ("conj", "advcl", "ccomp") and bare(main) and main.head is not main:
        main = main.head  # "…, then dip its tip …": "Purge" hangs on "dip"; "…; if it pours too slowly, use …"
    return bare(verb) and main.dep_ == "ROOT" and bare(main)


def head_word(text: str) -> str:
    """A name's last content word (its head), outside a parenthesised qualifier: "Laver", "guide"."""
    words = [w for w in re.findall(r"[^\W_]+", re.sub(r"\([^)]*\)", " ", text).casefold()) if w not in _SMALL]
    return words[-1] if words else ""

"""What "he", "she" or "it" stands for in a text with no topic to fall back on — a press release under a headline,
a report section named "Financing": the nearest named subject before it, in its sentence or the one before,
of the kind the pronoun asks for (a person for "he"/"she", anything else named for "it"), read from spaCy's
morphology and entity labels. "Brightwater Energy plc announced that it will build …": it is Brightwater Energy
plc; '"…," said Sarah Okonkwo. She added …': she is Sarah Okonkwo. A text with a topic (a Wikipedia article, a
section named after someone) keeps reading its pronouns as the topic (clauses.ClauseReader.arg)."""

from __future__ import annotations

from typing import Any

from .shapes import SUBJ

_NOT_NAMES = {"DATE", "TIME", "CARDINAL", "ORDINAL", "PERCENT", "QUANTITY", "MONEY"}


def antecedent(reader: Any, tok: Any) -> Any:
    """The reader's argument for the named subject a singular third-person pronoun refers to, or None."""
    gender = tok.morph.get("Gender")
    if tok.morph.get("Number") != ["Sing"] or not gender:
        return None  # "they": a group, too often not one named subject
    person = gender[0] in ("Masc", "Fem")
    doc, first = reader.doc, tok.sent.start
    lo = doc[first - 1].sent.start if first > 0 else 0
    for i in range(tok.i - 1, lo - 1, -1):
        t = doc[i]
        ent = reader.ent_of.get(i)
        if t.dep_ not in SUBJ or ent is None or ent.label_ in _NOT_NAMES or (ent.label_ == "PERSON") != person:
            continue
        a = reader.arg(t)
        if a is not None and a.kind == "name":
            return a
    return None

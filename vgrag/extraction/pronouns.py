"""What "he", "she" or "it" stands for in a text with no topic to fall back on — a press release under a headline,
a report section named "Financing": the nearest named subject before it, in its sentence or the one before,
of the kind the pronoun asks for (a person for "he"/"she", anything else named for "it"), read from spaCy's
morphology and entity labels. "Brightwater Energy plc announced that it will build …": it is Brightwater Energy
plc; '"…," said Sarah Okonkwo. She added …': she is Sarah Okonkwo. Likewise a definite noun alone ("the service",
"the astrolabe") is the name the text gave it before, whose head is that noun ("the International Cryosphere
Monitoring Service", "the Harrowgate astrolabe"). A text with a topic (a Wikipedia article, a section named after
someone) keeps reading its pronouns and "the film" as the topic (clauses.ClauseReader.arg, subject_arg)."""

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
        if t.dep_ not in SUBJ or ent is not None and (ent.label_ in _NOT_NAMES or (ent.label_ == "PERSON") != person):
            continue
        if ent is None and (person or t.pos_ != "NOUN" or not any(c.dep_ == "det" for c in t.children)):
            continue  # not named by NER: "it" may be "the astrolabe" (definite), not "Leaf fall" (a capital)
        a = reader.arg(t)
        if a is not None and a.kind == "name":
            return a
    return None


def definite(reader: Any, tok: Any) -> Any:
    """The reader's argument for the name a definite common noun alone refers to ("The service, which is based in
    Geneva, …" after "the International Cryosphere Monitoring Service (ICMS)"): the nearest earlier mention in the
    text headed by the same noun lemma (the head of its name, not a word inside one: "the film" is not the "Film"
    of "Film and Television Institute"; its last word, or followed by its preposition: "University of Sheffield",
    not "Wensleydale Pie 412" of a table row) in the same number that the reader reads as a name of two words or
    more; or None. A noun with its own preposition ("the laccase of Myceliophthora thermophila") is introduced by
    it, not one named before."""
    if tok.pos_ != "NOUN" or not any(c.dep_ == "det" and c.lower_ in ("the", "this") for c in tok.children) or \
            any(c.dep_ == "prep" for c in tok.children):  # fmt: skip
        return None
    lemma, number, doc = tok.lemma_.casefold(), tok.morph.get("Number"), reader.doc
    for i in range(tok.i - 1, -1, -1):
        t = doc[i]
        ent = reader.ent_of.get(i)
        if t.lemma_.casefold() != lemma or t.dep_ == "compound" or (ent is not None and ent.root.i != i) or \
                t.morph.get("Number") != number or i + 1 < len(doc) and doc[i + 1].like_num:  # fmt: skip
            continue
        if i + 2 < len(doc) and doc[i + 1].is_quote and i + 2 in reader.quoted:
            return reader.named(reader.quoted[i + 2], t)  # the title written beside it: 'our exhibition "Measuring
        a = reader.subject_arg(t)  # the Heavens"' (the parser reads a quoted title as anything); or its apposition
        if a is not None and a.kind == "name" and " " in a.text:
            return a
    return None

"""Facts a text states without a verb, read from spaCy's parse through a ClauseReader's arguments: appositions
("X, an English filmmaker,"), a name's prepositional modifier naming another thing ("Sterling Software of Plano"),
and a person's dates in parentheses ("Kate Condon (February 4, 1877 – May 27, 1941)").
"""

from __future__ import annotations

from typing import Any

from ..models import Triple
from .clauses import DATE_LABELS, ClauseReader, triple
from .relational import relational_triples
from .shapes import coordinated

Tok = Any  # a spaCy Token


def nominal_triples(r: ClauseReader) -> list[Triple]:
    """All the verbless readings of one parsed text."""
    return appositions(r) + name_modifiers(r) + lifespans(r) + relational_triples(r)


def appositions(r: ClauseReader) -> list[Triple]:
    """ "X, an English filmmaker," → (X, is, English filmmaker); "X, a member of Y," → (X, is member of, Y)."""
    out = []
    for tok in r.doc:
        if tok.dep_ == "appos" and tok.pos_ == "NOUN" and tok.i not in r.ent_of and set_off(r, tok):
            head = r.arg(by_line(r, tok))
            if head is None or head.kind != "name":
                continue
            for p, o in r.expand("is", tok, "is"):
                if o.node and (t := triple(head.text, p, o.text)):
                    out.append(t)
    return out


def set_off(r: ClauseReader, tok: Tok) -> bool:
    """Whether an apposition is set off from its noun by punctuation ("X, an English filmmaker", "X (a charity)"),
    as prose writes one: a table row's cells run together ("Offshore Wind Services 4,105 3,288 16.2%") give the
    parser an "apposition" that is only the next cell."""
    left = tok.left_edge.i  # the dash of "Equinor — Norway's state energy company —" is the apposition's own
    return r.doc[left].is_punct or left > 0 and r.doc[left - 1].is_punct


def by_line(r: ClauseReader, tok: Tok) -> Tok:
    """What an apposition describes: the noun the parser hung it on, except in a credit line ("Recipes by Élodie
    Marchand, pastry chef at the Old Granary Bakery", "a report by Lena Brunner, director of the ICMS"), where the
    description after the comma is the person the "by" names just before it (the parser hangs it on "Recipes")."""
    comma = tok.left_edge.i - 1
    ent = r.ent_of.get(comma - 1) if comma > 0 and r.doc[comma].text == "," else None
    if ent is None or ent.label_ != "PERSON" or ent.end != comma or ent.root.i == tok.head.i:
        return tok.head
    return ent.root if ent.root.dep_ == "pobj" and ent.root.head.lower_ == "by" else tok.head


def name_modifiers(r: ClauseReader) -> list[Triple]:
    """A name's own prepositional modifier naming another thing: "Sterling Software of Plano" → (Sterling
    Software, of, Plano), "the Presbyterian Church in Malawi" → (Presbyterian Church, in, Malawi)."""
    out = []
    for tok in r.doc:  # two named entities, the second in a phrase of its own (not "Bank of England")
        ent = r.ent_of.get(tok.i)
        if ent is None or tok.i != ent.root.i:
            continue
        head = r.arg(tok)
        if head is None or head.kind != "name":
            continue
        for c in tok.children:
            if c.dep_ != "prep":
                continue
            for p in c.children:
                for o in coordinated(p) if p.dep_ == "pobj" and c.i >= ent.end else []:
                    if r.ent_of.get(o.i) in (None, ent):
                        continue
                    a = r.arg(o)
                    if a is not None and a.kind in ("name", "date") and (t := triple(head.text, c.text, a.text)):
                        out.append(t)
    return out


def lifespans(r: ClauseReader) -> list[Triple]:
    """A person's dates in parentheses after the name, two dates joined by a dash: "Kate Condon (February 4,
    1877 – May 27, 1941)" → (Kate Condon, born, February 4, 1877), (Kate Condon, died, May 27, 1941)."""
    out = []
    for ent in r.doc.ents:
        if ent.label_ != "PERSON" or ent.end >= len(r.doc) or r.doc[ent.end].text != "(":
            continue
        close = next((t.i for t in r.doc[ent.end : ent.end + 24] if t.text == ")"), None)
        inside = [e for e in r.doc.ents if e.label_ in DATE_LABELS and ent.end < e.start and close and
                  e.end <= close]  # fmt: skip
        if len(inside) != 2 or not any(t.text in ("–", "-", "—") for t in r.doc[inside[0].end : inside[1].start]):
            continue
        who = r.arg(ent.root)
        dates = [r.arg(e.root) for e in inside]
        if who is None or who.kind != "name" or any(d is None or d.kind != "date" for d in dates):
            continue
        out += [t for p, d in zip(("born", "died"), dates, strict=True) if d and (t := triple(who.text, p, d.text))]
    return out

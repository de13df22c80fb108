"""Short names a text defines in quotes in parentheses — contracts, reports and judgments name a party once in full
and then by a defined term: 'Northwind Components Ltd, a company registered in England (the "Supplier")',
'This Supply Agreement (the "Agreement")'. The term is one entity with the thing it names.

What it names is read from the parse, not guessed from nearby words: spaCy hangs the quoted term on the noun
phrase it describes as an apposition, and a description between them ("a company registered in England") is an
apposition of the name in turn; the name is the top of that chain. A quoted word in brackets that is not such an
apposition ('(see "Minutes")') defines nothing. Likewise an abbreviation in brackets after a name, whatever its
letters: "Halvorsen Therapeutics (HTX)" (bracketed_abbreviations).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from .entities import key

_MAX_TERM = 5  # words: a defined term is a short name ("the Supplier", "Effective Date")
_MAX_LEAD = 2  # lower-case words before the quote: "the", "hereinafter", "together the"
_REACH = 12  # tokens from "(" to ")"


def defined_terms(doc: Any, arg: Any) -> list[tuple[str, str]]:
    """(long form, defined term) for each '(the "Term")' of a parsed text that is an apposition of a name.
    `arg(token)` is the reader's argument for a token (clauses.ClauseReader.arg): the long form is named exactly
    as the clause reader names that party everywhere else."""
    out = []
    for open_ in (t for t in doc if t.text == "("):
        close = next((t for t in doc[open_.i + 1 : open_.i + _REACH] if t.text == ")"), None)
        if close is None:
            continue
        quotes = [t for t in doc[open_.i + 1 : close.i] if t.is_quote]
        if len(quotes) != 2:
            continue
        term, lead = doc[quotes[0].i + 1 : quotes[1].i], doc[open_.i + 1 : quotes[0].i]
        term = term[1:] if len(term) > 1 and term[0].lower_ == "the" else term  # '("the Lender")'
        if not term or len(term) > _MAX_TERM or not term[0].text[:1].isupper() or len(lead) > _MAX_LEAD:
            continue
        if not all(t.is_alpha and t.is_lower for t in lead):
            continue
        root = next((t for t in term if not term.start <= t.head.i < term.end), None)
        if root is None or root.dep_ != "appos" or root.head.i >= open_.i:
            continue
        chain = [root.head]  # the described noun; a description of a name is itself an apposition of it
        cut = open_.i  # where an address between the name and the term starts
        while chain[-1].head.i < chain[-1].i and (chain[-1].dep_ == "appos" or chain[-1].dep_ == "conj" and
                                                    _address(chain[-1])):  # fmt: skip
            if _address(chain[-1]):  # 'the Harwick Museum of Art, Castle Street, Harwick ("the Lender")': the
                cut = min(cut, chain[-1].left_edge.i)  # street and town are where the party is, not the party
            chain.append(chain[-1].head)
        # the proper name nearest the term, on the chain or in apposition to it: "The Claimant, Kestrel Logistics
        # Ltd ("Kestrel")" defines Kestrel Logistics Ltd, not the role; with no proper name there, the chain's top
        near = [t for c in chain for t in (c, *c.children) if t.i < cut and (t is c or t.dep_ == "appos")]
        top = max((t for t in near if t.pos_ == "PROPN"), key=lambda t: t.i, default=chain[-1])
        if top.pos_ not in ("NOUN", "PROPN"):
            continue
        long = arg(top)
        if long is not None and long.kind in ("name", "phrase") and key(long.text) != key(term.text):
            out.append((long.text, term.text))
    return list(dict.fromkeys(out + _meanings(doc, arg)))


_PLACES = {"FAC", "GPE", "LOC"}


def _address(tok: Any) -> bool:
    """Whether a conjunct or apposition of a name is (part of) its address: a place or facility NER names ("Castle
    Street", "Quay Road"); not a party described by a place ("Harbor Medical Devices Inc, a Delaware corporation")."""
    return tok.ent_type_ in _PLACES


def _meanings(doc: Any, arg: Any) -> list[tuple[str, str]]:
    """(name, term) for each '"the Work" means the painting The Salt Marsh at Dunmere …': a quoted term as the
    subject of "means" whose object is, or is in apposition with, a proper name. A description as the meaning
    ('"Products" means sterile catheter assemblies') stays a fact, not a second name of the term."""
    out = []
    for verb in (t for t in doc if t.lemma_ == "mean" and t.pos_ == "VERB"):
        subj = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        obj = next((c for c in verb.children if c.dep_ == "dobj"), None)
        if subj is None or obj is None or not any(t.is_quote for t in doc[subj.left_edge.i : subj.i]):
            continue
        name = obj if obj.pos_ == "PROPN" else next((c for c in obj.children if c.dep_ == "appos" and
                                                     c.pos_ == "PROPN"), None)  # fmt: skip
        term, long = arg(subj), arg(name) if name is not None else None
        if term is not None and long is not None and long.kind == "name" and key(long.text) != key(term.text):
            out.append((long.text, term.text))
    return out


_SHORT = re.compile(r"[A-Z][A-Z&]+s?")  # an abbreviation: capitals ("HTX", "UZ" of "UZ Gent"), not a number or an id
_MAX_SHORT = 3  # words in the brackets: "(HTX)", "(UZ Gent)"


def bracketed_abbreviations(doc: Any, arg: Any) -> list[tuple[str, str]]:
    """(name, abbreviation) for an abbreviation written in brackets right after a proper name, whether or not its
    letters are the name's initials: "sponsored by Halvorsen Therapeutics (HTX)", "the University Hospital of Ghent
    (UZ Gent)". As for a quoted term, the parse says what it names: the bracketed words hang on a proper noun before
    the bracket as an apposition ("the lyra cluster (INC-2291)" and "(see HTX)" define nothing); the name is
    `arg(that noun)`, as the clause reader names it everywhere else. An abbreviation a text gives two names
    ("Lyon (FR)", "Nice (FR)") names neither."""
    out = []
    for open_ in (t for t in doc if t.text == "(" and t.i > 0):
        close = next((t for t in doc[open_.i + 1 : open_.i + _MAX_SHORT + 2] if t.text == ")"), None)
        if close is None or close.i == open_.i + 1:
            continue
        short = doc[open_.i + 1 : close.i]
        if not _SHORT.fullmatch(short[0].text) or not all(t.is_alpha and t.text[:1].isupper() for t in short):
            continue
        root = next((t for t in short if not short.start <= t.head.i < short.end), None)
        if root is None or root.dep_ != "appos" or root.head.i >= open_.i or root.head.pos_ != "PROPN":
            continue
        long = arg(root.head)
        if long is not None and long.kind == "name" and key(long.text) != key(short.text) and \
                short.text not in long.text.split():  # fmt: skip
            out.append((long.text, short.text))
    out = list(dict.fromkeys(out))
    given = Counter(key(s) for _, s in out)
    return [(long, s) for long, s in out if given[key(s)] == 1]

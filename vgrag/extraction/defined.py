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
        while (c := chain[-1]).head.i < c.i and (c.dep_ == "appos" or c.dep_ == "conj" and c.left_edge.i > 0 and
                                                  doc[c.left_edge.i - 1].pos_ != "CCONJ" and  # not "… and X"
                                                  (_address(c) or _address(c.head))):  # fmt: skip
            for a in (c, c.head):  # 'the Harwick Museum of Art, Castle Street, Harwick ("the Lender")': the
                cut = min(cut, a.left_edge.i) if _address(a) else cut  # street and town are where the party is
            chain.append(c.head)
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


_PLACES = {"FAC", "GPE", "LOC"}


def _address(tok: Any) -> bool:
    """Whether a conjunct or apposition of a name is (part of) its address: a place or facility NER names ("Castle
    Street", "Quay Road") or a proper noun with a number ("7 Tanner Street"); not a party described by a place
    ("Harbor Medical Devices Inc, a Delaware corporation")."""
    return tok.ent_type_ in _PLACES or tok.pos_ == "PROPN" and any(c.dep_ == "nummod" and c.like_num for c in
                                                                     tok.children)  # fmt: skip


def _meanings(doc: Any, arg: Any) -> list[tuple[str, str]]:
    """(name, term) for each '"the Work" means the painting The Salt Marsh at Dunmere …': a quoted term as the
    subject of "means" followed by a noun phrase that is, or ends in, a proper name (read from the words, since the
    parser often hangs the name on a clause after it: "the accounting application Tidewater Ledger supplied by …").
    A description as the meaning ('"Products" means sterile catheter assemblies listed in Schedule 1') stays a
    fact, not a second name of the term."""
    out = []
    for verb in (t for t in doc if t.lemma_ == "mean" and t.pos_ == "VERB"):
        subj = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if subj is None or not any(t.is_quote for t in doc[subj.left_edge.i : subj.i]):
            continue
        at = verb.i + 1
        while at < len(doc) and doc[at].pos_ in ("DET", "ADJ", "NOUN") and doc[at].text[:1].islower():
            at += 1  # "the accounting application", "the painting"
        if at < len(doc) and doc[at].pos_ == "DET":  # "the painting The Salt Marsh"
            at += 1
        end = at
        while end < len(doc) and doc[end].pos_ == "PROPN" and doc[end].text[:1].isupper():
            end += 1
        term, long = arg(subj), arg(doc[end - 1]) if end > at else None
        if term is not None and long is not None and long.kind == "name" and key(long.text) != key(term.text):
            out.append((long.text, term.text))
    return out

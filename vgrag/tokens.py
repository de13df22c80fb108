"""spaCy pipeline parts for names the small English model reads badly: identifiers ("INC-2291", "CVE-2026-1187",
"#4412", "3.3.0") kept whole and made entities. Added to the pipeline by nlp.load_spacy."""

from __future__ import annotations

import re

# ---------- identifiers: "INC-2291", "CVE-2026-1187", "#4412", "3.3.0", "3.3.x" are one token and one name

_ID = re.compile(
    r"#\d+"  # an issue or ticket number
    r"|[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)+"  # letters and digits joined by hyphens or dots (checked below)
    r"|\d{1,3}(?:\.\d{1,3}){2,}|\d{1,3}(?:\.\d{1,3})*\.x"  # a version: "3.3.0", "10.4.12", "3.3.x", "2.x"
)
_NUMERIC_LABELS = {"CARDINAL", "ORDINAL", "PERCENT", "QUANTITY", "MONEY", "DATE", "TIME"}
ID_LABEL = "ID"  # the entity label of an identifier-shaped token


def identifier(text: str) -> bool:
    """Whether a token is shaped like an identifier, whatever its prefix: "#" and digits ("#4412"), a version of
    three or more numbers or ending in "x" ("3.3.0", "3.3.x"), or parts joined by hyphens or dots of which one is
    a number and one starts with a capital letter ("INC-2291", "CVE-2026-1187", "SEV-2", "COVID-19", "B-52") — not
    a decimal ("1.8"), a date ("2026-07-08"), a range ("1990-95"), "mid-1990s" or "24-hour"."""
    if not _ID.fullmatch(text):
        return False
    if text[0] == "#" or text[0].isdigit():
        return True
    parts = re.split(r"[-.]", text)
    return any(p.isdigit() for p in parts) and any(p[:1].isupper() for p in parts)


def keep_identifiers(nlp: object) -> None:
    """The tokenizer keeps an identifier whole: the default rules split "CVE-2026-1187" at the hyphen between two
    numbers and "#4412" after the "#" (a prefix only before something else than digits now)."""
    from spacy.util import compile_prefix_regex

    tok = nlp.tokenizer  # type: ignore[attr-defined]
    before = tok.token_match
    tok.token_match = (lambda s: identifier(s) or bool(before(s))) if before else identifier
    prefixes = [r"#(?![0-9])" if p == "#" else p for p in nlp.Defaults.prefixes]  # type: ignore[attr-defined]
    tok.prefix_search = compile_prefix_regex(prefixes).search


class IdentifierEntities:
    """Each identifier-shaped token is a proper noun and an entity of its own (label ID), so the extractor names it
    like any other name: NER reads "#4412" as money, "3.3.0" as a number, or leaves "INC-2291" out. An identifier
    inside a longer name stays in it ("Boeing B-52 Stratofortress"), except a version at its end, which is a
    release of the named thing ("Larkspur 3.3.0": Larkspur and 3.3.0). A capitalised common noun before it says
    what kind of thing it is and is no part of it ("Incident INC-2291", "Issue #4412": spaCy's lemmatizer table of
    nouns; the tagger calls the word a proper noun)."""

    def __init__(self, nlp: object) -> None:
        try:
            self._nouns = nlp.get_pipe("lemmatizer").lookups.get_table("lemma_index")["noun"]  # type: ignore[attr-defined]
        except (KeyError, AttributeError, ValueError):
            self._nouns = set()

    def __call__(self, doc: object) -> object:
        return identifier_entities(doc, self._nouns)


def identifier_entities(doc: object, nouns: object = frozenset()) -> object:
    """See IdentifierEntities."""
    from spacy.tokens import Span

    ids = [t for t in doc if identifier(t.text)]  # type: ignore[attr-defined]
    if not ids:
        return doc
    ents = list(doc.ents)  # type: ignore[attr-defined]
    for tok in ids:
        tok.tag_, tok.pos_ = "NNP", "PROPN"
        kind = doc[tok.i - 1] if tok.i else None  # type: ignore[index]
        if kind is not None and kind.head.i == tok.i and kind.pos_ == "PROPN" and kind.text.istitle() and \
                kind.lower_ in nouns:  # type: ignore[operator]  # fmt: skip
            kind.tag_, kind.pos_ = "NN", "NOUN"
        ent = next((e for e in ents if e.start <= tok.i < e.end), None)
        version = tok.text[0].isdigit()
        if ent is not None and ent.label_ not in _NUMERIC_LABELS and not (version and ent.end == tok.i + 1):
            continue
        if ent is not None:
            ents.remove(ent)
            ents += [Span(doc, a, b, label=ent.label_) for a, b in ((ent.start, tok.i), (tok.i + 1, ent.end))
                     if a < b and any(c.isalnum() for c in doc[a:b].text)]  # type: ignore[index]  # fmt: skip
        ents.append(Span(doc, tok.i, tok.i + 1, label=ID_LABEL))
    doc.ents = sorted(ents, key=lambda e: e.start)  # type: ignore[attr-defined]
    return doc

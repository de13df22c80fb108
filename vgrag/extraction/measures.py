"""Measures are not part of names (issue #31): "300 g plain flour", "3 mM ABTS", "100 mM sodium acetate buffer" name
plain flour, ABTS and a sodium acetate buffer; a measure alone ("18.5 °C", "50 Hz") is a value, named as written.
A measure is a number followed by a unit, and a unit is read from the token's own shape, not from a list of units:
a symbol ("%", "°" and its scale's letter), a prime against its number (85'), or a short word with a
lower-case letter and no vowel ("g", "mM", "kg", "tbsp", "mg/kg", "km²"), which no English word is. A count is not
a measure ("two sons", "1 large egg": the word after the number is a word), nor is a number that starts a name
("2018 FIFA World Cup", "10 Downing Street").

Also read here: a head that only follows a name — a score the tagger took for a noun ("Harbourside Rovers 3–2") or
post-nominal letters NER left out of a person ("Siobhán Keating MRICS"): the name is the entity before it.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

Tok = Any  # a spaCy Token
_RANGE = re.compile(r"\d[\d.,]*[–—-]\d[\d.,]*")
_JOIN = {"x", "×", "–", "-", "to", "/", "±"}  # between the numbers of a range or a product: "75 x 200 mm"


def number(tok: Tok) -> bool:
    """A number or a range of numbers written as one token ("3", "0.1", "1,200", "70–80")."""
    return tok.like_num or bool(_RANGE.fullmatch(tok.text))


def unit(tok: Tok) -> bool:
    """Whether a token is a unit written after a number ("300 g", "3 mM", "25 °C", "63 %", "10 mg/kg"). spaCy splits
    "°C" in two: the letter written against a degree sign after a number is the unit's too (not a name "C"; merging
    the two tokens before the tagger was tried and changed the tagger's and NER's reading of the rest of the
    sentence: "rose above 8°C between 14 and 16 November 2022" lost its date range)."""
    doc = tok.doc
    if tok.i >= 2 and len(tok) == 1 and tok.is_alpha and doc[tok.i - 1].text == "°" and not doc[tok.i - 1].whitespace_:
        return number(doc[tok.i - 2])
    if tok.i == 0 or not number(doc[tok.i - 1]):
        return False
    t = tok.text
    letters = [c for c in t if c.isalpha()]
    if not letters:  # a symbol: "%", "‰", "£"; a prime written against its number: 85' (minutes), 6′ (feet)
        prime = all(c in "'′″" for c in t) and not tok.doc[tok.i - 1].whitespace_
        return prime or all(c in "%‰" or unicodedata.category(c)[0] == "S" for c in t)
    vowel = any(c.lower() in "aeiouy" for c in letters)
    return len(t) <= 6 and not vowel and (any(c.islower() for c in letters) or not t.isalnum())


def measure_end(words: list[Tok] | Any) -> int:
    """How many tokens at the start of a phrase are a measure: numbers, joiners and units, ending with a unit
    ("300 g" of "300 g plain flour", "75 x 200 mm" of "75 x 200 mm joists"); 0 when it does not start with one."""
    end = 0
    for i, w in enumerate(words):
        if i and unit(w):
            end = i + 1
        elif not (number(w) or i and w.lower_ in _JOIN):
            break
    return end


def measure(tok: Tok) -> str | None:
    """The measure a unit ends ("18.5 °C", "50 Hz", "21–33 °C", "75 x 200 mm"), as written, or None: a value, kept
    as GPT-3.5 names it ("Palermo | average temperature is above | 19 °C"), without the words of a name before it
    ("Oven 170 °C" is 170 °C)."""
    nxt = tok.doc[tok.i + 1] if tok.i + 1 < len(tok.doc) else None
    if not unit(tok) or nxt is not None and not tok.whitespace_ and unit(nxt):  # "°" of "°C" is not its end
        return None
    doc, start = tok.doc, tok.i - 1
    while not number(doc[start]):  # the number of "25 °C" (its degree sign between)
        start -= 1
    while start >= 2 and doc[start - 1].lower_ in _JOIN and number(doc[start - 2]):  # "75 x 200 mm", "14.5 to 28 °C"
        start -= 2  # (one number only otherwise: a table row "4,105 3,288 16.2%" is three measures)
    return doc[start : tok.i + 1].text


def letters(text: str) -> bool:
    """Post-nominal letters after a person's name ("KC", "MRICS", "FRICS", "MW", "MCIfA", "PhD"): a word of 2-7
    letters, capital first, with at least two capitals and no more small letters than capitals (not "McCain"), and
    not a Roman numeral ("Henry VIII")."""
    up = sum(c.isupper() for c in text)
    return text.isalpha() and text[:1].isupper() and 2 <= len(text) <= 7 and up >= max(2, len(text) - up) and \
        not set(text) <= set("IVXLCDM")  # fmt: skip


def named_before(tok: Tok, ent_of: dict[int, Any]) -> Tok | None:
    """The named entity that a phrase's head merely follows, or None: a number the tagger read as a noun
    ("Harbourside Rovers 3–2": a score after a club) or post-nominal letters NER left out of a person's name
    ("Siobhán Keating MRICS" — the name is Siobhán Keating)."""
    if _RANGE.fullmatch(tok.text):  # a score; a number alone may end a name ("The Jackson 5", "Apollo 11")
        before = [c for c in tok.children if c.i < tok.i and c.i in ent_of]
        return before[-1] if before else None
    ent = ent_of.get(tok.i - 1) if tok.i else None
    if ent is not None and ent.label_ == "PERSON" and len(ent) >= 2 and ent.end == tok.i and letters(tok.text):
        return ent.root
    return None

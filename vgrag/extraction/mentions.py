"""What makes a mention a name, read from spaCy's parse (no word lists): where a run-on list glued into one noun
phrase breaks, whether a noun phrase is a quantity or determiner phrase, and which token before a person's name is
a title rather than part of the name.

- Run-on lists: a document's list items, table cells and undetected heading lines reach the parser as one
  stretch of words ("Skin reactions Hepatotoxicity Infertility Hair loss Chlorambucil also binds …"). Inside one
  name, a capitalised word right after a lower-case content word, or a punctuation mark, starts a new item; the
  mention keeps the item that holds its head word.
- Quantity phrases: a noun phrase whose own determiner or modifier is a quantifier — a spaCy stop word tagged as
  a determiner/adjective/number other than an article ("many", "several other", "each"), a number or an ordinal
  ("two companies", "the first time") — says how many or which, not what: it is not an entity.
- Titles: a capitalised abbreviation ending in a full stop ("Dr.", "Prof.", "Ms.") directly before a PERSON span
  is the person's title, not part of the name.
"""

from __future__ import annotations

from typing import Any

Tok = Any
_ARTICLES = {"the", "a", "an"}
_QUANTIFIER_DEPS = {"det", "predet", "amod", "nummod", "quantmod", "advmod"}
_CELL = {";", "|", ":", "•", "·", "(", ")", "[", "]"}  # table cells, list bullets, a parenthesis
_QUANTIFIER_POS = {"DET", "ADJ", "NUM", "PRON", "ADV"}


def is_title(tok: Tok) -> bool:
    """A title abbreviation ("Dr.", "Prof.", "Mrs."): capitalised, ends with a full stop, at most 4 letters."""
    t = tok.text
    return t.endswith(".") and 2 <= len(t) <= 5 and t[0].isupper() and t[:-1].isalpha() and t[1:-1].islower()


def quantified(tok: Tok) -> bool:
    """Whether a common noun is quantified or picked out by number ("many genres", "several other proteins",
    "other writers", "the first time", "two parties"): its own modifiers before it say how many or which."""
    for c in tok.children:
        if c.i < tok.i and c.dep_ == "poss" and (c.tag_ in ("PRP$", "WP$") or c.pos_ == "PRON"):
            return True  # "whose recent clients", "its style guide", "one's life": refers back, names nothing
        if c.i > tok.i or c.dep_ not in _QUANTIFIER_DEPS:
            continue
        if c.lower_ in _ARTICLES:
            continue
        if c.is_stop and c.pos_ in _QUANTIFIER_POS and c.dep_ != "advmod":
            return True
        if c.ent_type_ == "ORDINAL" or c.like_num and any(q.dep_ in ("quantmod", "advmod") for q in c.children):
            return True  # "the first time", "over 400,000 copies"; an exact count ("two sons") stays: GPT-3.5's
            # triples name such objects (MuSiQue 0-400: pair recall 0.268 with counts, 0.271 without)
        if c.dep_ in ("amod", "advmod") and quantified(c):  # "very many"
            return True
    return False


def _breaks(prev: Tok, tok: Tok) -> bool:
    """Whether a new list item starts at `tok` inside one noun phrase."""
    if prev.text in _CELL or tok.text in _CELL or "\n" in prev.text or prev.is_space:
        return True
    if "\n" in prev.whitespace_:
        return True
    word = tok.text[:1]
    return (
        word.isupper()
        and prev.is_alpha
        and prev.text[:1].islower()
        and not prev.is_stop
        and prev.pos_ in ("NOUN", "ADJ", "VERB")
        and not tok.is_sent_start
    )


def item_span(doc: Any, start: int, end: int, head: int) -> tuple[int, int]:
    """The part of doc[start:end] that holds token `head`, cut where a run-on list starts a new item."""
    if end - start < 2 or not start <= head < end:
        return start, end
    s, e = start, end
    for i in range(start + 1, end):
        if _breaks(doc[i - 1], doc[i]):
            if i <= head:
                s = i
            else:
                e = i
                break
    while s < e and (doc[s].is_punct or doc[s].is_space):
        s += 1
    while e > s and (doc[e - 1].is_punct and doc[e - 1].text != "." or doc[e - 1].is_space):
        e -= 1
    return (s, e) if s < e else (start, end)

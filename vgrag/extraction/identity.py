"""One entity per thing: how two spellings of one name are recognised, as pure functions over strings.

- `fold`: a name without accents, case, punctuation or a leading title ("Dr.", "Prof.") — "Thomas C. Südhof",
  "thomas c. sudhof" and "Dr. Thomas C. Sudhof" fold to one string.
- `defined_abbreviations`: the abbreviations a text defines, "Chronic lymphocytic leukemia (CLL)" → (long form,
  "CLL"): the words before the parenthesis whose initials spell it (small function words may be skipped:
  "Food and Drug Administration (FDA)").
- `strip_heading`: a name with a heading of its own document glued to its start or end ("Chlorambucil History"
  under a "History" heading) without it.

Merges made automatically while ingesting use only evidence written in the document (entities.Canonicalizer).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..documents.structure import entity_like

_TITLE = re.compile(r"^[A-Z][a-z]{1,3}\.\s+(?=[A-Z])")  # "Dr. ", "Prof. ", "Mrs. " before a capitalised word
_DEFINED = re.compile(r"((?:[^\W\d_][\w'’\-]*\s+){1,8})\(([A-Z][A-Za-z]*[A-Z])s?\)")
_SMALL = {"of", "and", "the", "for", "in", "on", "to", "de", "&"}
_NUMBERING = re.compile(r"^\s*(?:[\dIVXivx]+[.)]|\d+(?:\.\d+)*\.?|[A-Za-z][.)])\s+")


def unaccented(name: str) -> str:
    """A name without accents or a leading title ("Dr. Jindřich Polák" → "Jindrich Polak"), case and
    punctuation kept."""
    s = _TITLE.sub("", name.strip())
    return unicodedata.normalize("NFC", "".join(c for c in unicodedata.normalize("NFKD", s) if not
                                                unicodedata.combining(c)))  # fmt: skip


def fold(name: str) -> str:
    """The string two spellings of one name share: accents, case, punctuation and a leading title dropped."""
    s = _TITLE.sub("", name.strip())
    s = "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))
    return " ".join(re.findall(r"\w+", s.casefold()))


def initials(words: Sequence[str], skip_small: bool) -> str:
    return "".join(w[0] for w in words if w and not (skip_small and w.casefold() in _SMALL)).upper()


def defined_abbreviations(text: str) -> list[tuple[str, str]]:
    """(long form, abbreviation) for each "Long form (LF)" in a text; the long form is the shortest run of words
    right before the parenthesis whose initials spell the abbreviation."""
    out = []
    for m in _DEFINED.finditer(text):
        words, abbr = m.group(1).split(), m.group(2)
        for n in range(1, len(words) + 1):
            tail = words[-n:]
            if tail[0].casefold() in _SMALL:
                continue
            if abbr.upper() in (initials(tail, False), initials(tail, True)):
                out.append((" ".join(tail), abbr))
                break
    return list(dict.fromkeys(out))


@dataclass(frozen=True)
class Headings:
    """A document's headings as a name would carry them: case-folded, without numbering ("1. Definitions" →
    "definitions"), indexed by their first and last word so a name is checked against the few that could fit."""

    forms: frozenset[str] = frozenset()
    by_edge: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.forms)

    def at_edges(self, first: str, last: str) -> tuple[str, ...]:
        edges = dict(self.by_edge)
        return tuple(dict.fromkeys(edges.get(first, ()) + edges.get(last, ())))


def heading_forms(headings: Iterable[str]) -> Headings:
    forms = set()
    for h in headings:
        h = " ".join(h.split())
        for form in (h, _NUMBERING.sub("", h)):
            if form and any(c.isalpha() for c in form):
                forms.add(form.casefold())
    edges: dict[str, set[str]] = {}
    for f in forms:
        for w in {f.split()[0], f.split()[-1]}:
            edges.setdefault(w, set()).add(f)
    return Headings(frozenset(forms), tuple((w, tuple(sorted(fs))) for w, fs in sorted(edges.items())))


def strip_heading(name: str, headings: Headings) -> str:
    """`name` without a heading (from `heading_forms`) glued to its end or start ("Chlorambucil History" →
    "Chlorambucil"), when what remains reads as a name and the heading is the less name-like part; else `name`."""
    words = name.split()
    if len(words) < 2:
        return name
    low = [w.casefold() for w in words]
    found = []
    for h in headings.at_edges(low[0], low[-1]):
        hw = h.split()
        if len(hw) >= len(words):
            continue
        for rest in (words[: -len(hw)] if low[-len(hw) :] == hw else None, words[len(hw) :] if low[: len(hw)] == hw
                     else None):  # fmt: skip
            if rest and rest[0][:1].isupper() and rest[0].casefold() not in _SMALL:
                text = " ".join(rest).strip(" ,;:")
                glue = not entity_like(" ".join(hw).title())  # "Career", "Early life": never part of a name
                if entity_like(text) and (glue or len(rest) >= 2):  # not "Leland Stanford" under "Stanford"
                    found.append((glue, len(hw), text))
    return max(found)[2] if found else name

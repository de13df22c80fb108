"""One entity per thing: how two spellings of one name are recognised, as pure functions over strings.

- `fold`: a name without accents, case, punctuation or a leading title ("Dr.", "Prof.") — "Thomas C. Südhof",
  "thomas c. sudhof" and "Dr. Thomas C. Sudhof" fold to one string.
- `defined_abbreviations`: the abbreviations a text defines, "Chronic lymphocytic leukemia (CLL)" → (long form,
  "CLL"): the words before the parenthesis whose initials spell it (small function words may be skipped:
  "Food and Drug Administration (FDA)").
- `strip_heading`: a name with a heading of its own document glued to its start or end ("Chlorambucil History"
  under a "History" heading) without it.
- `suggest_merges`: the uncertain cases over a list of stored names, for a person to decide (the graph editor's
  suggested fixes): names that fold alike, a surname and the one full name ending with it, an abbreviation and
  the one name whose initials spell it, heading-glued and run-on names, predicates that carry a year.

Merges made automatically while ingesting use only evidence written in the document (entities.Canonicalizer).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..documents.structure import entity_like

_TITLE = re.compile(r"^[A-Z][a-z]{1,3}\.\s+(?=[A-Z])")  # "Dr. ", "Prof. ", "Mrs. " before a capitalised word
_DEFINED = re.compile(r"((?:[^\W\d_][\w'’\-]*\s+){1,8})\(([A-Z][A-Za-z]*[A-Z])s?\)")
_SMALL = {"of", "and", "the", "for", "in", "on", "to", "de", "&"}
_NUMBERING = re.compile(r"^\s*(?:[\dIVXivx]+[.)]|\d+(?:\.\d+)*\.?|[A-Za-z][.)])\s+")
_YEAR = re.compile(r",?\s*\b(?:in|on|since|until|by|from|during)?\s*(?:1[0-9]{3}|20[0-9]{2})s?\b")
RUN_ON_WORDS = 6


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


# ---------- suggested fixes over stored names

SuggestionKind = Literal["same_folded", "surname", "abbreviation", "heading_glued", "run_on", "dated_predicate"]


@dataclass(frozen=True)
class Suggestion:
    """A fix a person may accept: merge `names` into `target`, rename `names[0]` to `target`, or (run_on) review
    it. `reason` says why, in words a user reads."""

    kind: SuggestionKind
    names: tuple[str, ...]
    target: str
    reason: str


def _preferred(names: Sequence[str]) -> str:
    """The spelling to keep: with accents over without, without a title, then the longest, then the first."""
    return max(names, key=lambda n: (not _TITLE.match(n), sum(ord(c) > 127 for c in n) > 0, len(n), -names.index(n)))


def suggest_merges(
    names: Sequence[str], headings: Iterable[str] = (), predicates: Sequence[str] = ()
) -> list[Suggestion]:
    """Fixes to suggest for a graph's entity names (and, optionally, its document headings and predicates).
    Pure and deterministic; nothing here is certain enough to merge without asking."""
    names = list(dict.fromkeys(n for n in names if n.strip()))
    out: list[Suggestion] = []
    groups: dict[str, list[str]] = {}
    for n in names:
        groups.setdefault(fold(n), []).append(n)
    for f, group in groups.items():
        if len(group) > 1 and f:
            out.append(Suggestion("same_folded", tuple(group), _preferred(group), "these names differ only in "
                                  "accents, case, punctuation or a title"))  # fmt: skip
    multi = [n for n in names if len(n.split()) >= 2 and all(w[:1].isupper() for w in n.split())]
    by_last: dict[str, list[str]] = {}
    for n in multi:
        by_last.setdefault(fold(n.split()[-1]), []).append(n)
    caps = [n for n in names if re.fullmatch(r"[A-Z][A-Z0-9]{1,9}s?", n)]
    for n in names:
        words = n.split()
        if len(words) == 1 and words[0][:1].isupper() and n not in caps:
            full = by_last.get(fold(n), [])
            if full and len({fold(x) for x in full}) == 1:  # one person ends with it (spellings folding alike)
                target = _preferred(full)
                out.append(Suggestion("surname", (n, target), target, f'"{n}" may be short for "{target}"'))
    for a in caps:
        abbr = a.rstrip("s") if a.endswith("s") and a[:-1].isupper() else a
        longs = [n for n in names if n != a and len(n.split()) >= 2 and abbr in (initials(n.split(), False),
                 initials(n.split(), True))]  # fmt: skip
        if len(longs) == 1:
            out.append(Suggestion("abbreviation", (a, longs[0]), longs[0], f'"{a}" may abbreviate "{longs[0]}"'))
    forms = heading_forms(headings)
    for n in names:
        stripped = strip_heading(n, forms) if forms else n
        if stripped != n:
            out.append(Suggestion("heading_glued", (n,), stripped, "a section heading of its document is glued on"))
        elif len(n.split()) >= RUN_ON_WORDS:
            out.append(Suggestion("run_on", (n,), n, f"{len(n.split())} words: possibly several names run together"))
    for p in dict.fromkeys(predicates):
        bare = " ".join(_YEAR.sub("", p).split()).strip(" ,")
        if bare != p.strip() and bare:
            out.append(Suggestion("dated_predicate", (p,), bare, "the predicate carries a year; keep it as the "
                                  "relation's date"))  # fmt: skip
    return out

"""A table's rows as facts: each paragraph written by documents.tables.row_text ("Cluster: lyra; Region:
ap-southeast-1; Brokers: 3.") gives (key cell, column header, cell) per other cell — the key is its first field —
and is taken out of the text the parser reads, so no row is read as a sentence ("Priya Natarajan | is | Security
fix" came from two adjacent cells). A row with one date cell dates its other facts (Triple.when)."""

from __future__ import annotations

import re

from ..documents.tables import is_date, parse_row
from ..models import Triple

_BREAK = re.compile(r"\n\s*\n")


def _predicate(header: str) -> str:
    """A column header as a predicate: its first word in lower case unless it is an acronym or a name's inner capital
    ("Booked by" → "booked by", "Larkspur version" → "larkspur version", "ICU beds" stays)."""
    first, _, rest = header.partition(" ")
    if first[:1].isupper() and first[1:] == first[1:].lower():
        first = first.lower()
    return f"{first} {rest}".strip()


def row_triples(fields: list[tuple[str, str]]) -> list[Triple]:
    """One row's facts: (key, header, cell) for every cell after the key; the other facts of a row with exactly one
    date cell carry that date as their `when`."""
    (_, key), rest = fields[0], fields[1:]
    dates = [v for _, v in rest if is_date(v)]
    when = dates[0] if len(dates) == 1 else ""
    return [Triple(key, _predicate(h), v, "" if v == when else when) for h, v in rest if v != key]


def table_facts(text: str) -> tuple[str, list[Triple]]:
    """The text with each table-row paragraph blanked (spaces of the same length: the offsets of the rest stay) and
    the rows' facts."""
    triples: list[Triple] = []
    pieces: list[str] = []  # the text in order, rows blanked (joined once: linear in the text)
    start = 0
    for end, nxt in [*((m.start(), m.end()) for m in _BREAK.finditer(text)), (len(text), len(text))]:
        para = text[start:end]
        fields = parse_row(para) if "; " in para else None
        if fields:
            triples += row_triples(fields)
        pieces += [re.sub(r"\S", " ", para) if fields else para, text[end:nxt]]
        start = nxt
    return "".join(pieces), triples

"""A table's rows as facts: each paragraph written by documents.tables.row_text ("Cluster: lyra; Region:
ap-southeast-1; Brokers: 3.") gives (key cell, column header, cell) per other cell — the key is its first field —
and is taken out of the text the parser reads, so no row is read as a sentence ("Priya Natarajan | is | Security
fix" came from two adjacent cells). A row with one date cell dates its other facts (Triple.when). A cell of a whole
clause ("G-HBRX departs Edinburgh for Inverness as flight HBA 317") is no name: it stays in the text as a sentence
of its own, read as any other, and gives no (key, header, cell) fact."""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import Any

from ..documents.tables import is_date, parse_row
from ..models import Triple
from .measures import letters
from .entities import key

_BREAK = re.compile(r"\n\s*\n")
CLAUSE_WORDS = 6  # a cell this long is a clause, not a name (a name of 6+ words is rare)


def clause(cell: str) -> bool:
    return len(cell.split()) >= CLAUSE_WORDS


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
    if clause(key):
        return []
    return [Triple(key, _predicate(h), v, "" if v == when else when) for h, v in rest if v != key and not clause(v)]


def _clauses_kept(para: str, fields: list[tuple[str, str]]) -> str:
    """The row blanked (spaces of the same length) but for its clause cells, each ended by a full stop where the
    row's ";" was, so the parser reads each as a sentence."""
    out, at = list(re.sub(r"\S", " ", para)), 0
    for _, value in fields:
        m = re.compile(r"\s+".join(map(re.escape, value.split()))).search(para, at)
        if m is None:
            continue
        at = m.end()
        if clause(value):
            out[m.start() : m.end()] = para[m.start() : m.end()]
            if m.end() < len(para) and para[m.end()] in ";.":
                out[m.end()] = "."
    return "".join(out)


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
        pieces += [_clauses_kept(para, fields) if fields else para, text[end:nxt]]
        start = nxt
    return "".join(pieces), triples


# ---------- one field on its own line: "Case officer: Alan Whitcombe, Principal Planning Officer"

_LABEL = re.compile(r"([A-Z][^\W\d_]*(?:[ -][^\W\d_]+){0,3}): +(?=\S)")  # a label of 1-4 words, then ": "
_NAME_ENDS = {",", "(", ";", ".", "–", "—"}


def is_field(line: str) -> bool:
    """Whether a line is a "Label: value" field already ("Conductor: Maren Holtby")."""
    return _LABEL.match(line) is not None

  # what may follow the name a field's value starts with
_LEAD = 2  # capitalised words before the name's NER span ("Cllr" of "Cllr Diane Ashworth", "Dr.")


def field_facts(doc: Any, arg: Any, topic: str, titled: Any) -> tuple[list[Triple], list[str]]:
    """(topic, label, name) for each paragraph that is one "Label: value" field whose value starts with a name —
    the header block of a report or minutes ("Case officer: Alan Whitcombe, Principal Planning Officer", "Applicant:
    Fenway Homes Ltd, 4 Station Yard, …", "Committee date: 2 July 2025"): a table row of one field, whose key is what
    the passage is about. The name is the NER span the value opens with (after at most two capitalised title words),
    named as the clause reader names it everywhere (`arg`), and it must end the value or be followed by a comma, a
    bracket or "and": a value that goes on as a clause ("Note: Alan Whitcombe will visit the site") is a sentence.
    A label holding a name is no label ("Ruth Okafor: Thanks, Daniel." in a transcript is speech). Also the names
    of two words or more that are people's — NER's PERSON, or after a title (`titled`: "Cllr", "Dr.") — which NER
    may miss in a list ("Cllr Lucy Adeyemi"): a later surname alone is one of them."""
    if not topic:
        return [], []
    text, out, persons, start = doc.text, [], [], 0
    starts, ents = [t.idx for t in doc], list(doc.ents)  # looked up by bisection: linear in a text of many lines
    ent_starts = [e.start_char for e in ents]
    for end, nxt in [*((m.start(), m.end()) for m in _BREAK.finditer(text)), (len(text), len(text))]:
        lead = len(text[start:end]) - len(text[start:end].lstrip())
        m = _LABEL.match(text, start + lead, end)
        start, para_end = nxt, end
        if m is None:
            continue
        k = bisect_left(ent_starts, m.end(1))  # an entity overlapping the label starts before its end
        named_label = bool(k and ents[k - 1].end_char > m.start(1))
        span = _value_name(doc, starts, ents[k] if k < len(ents) else None, m.end(), para_end)
        if span is None:
            continue
        after = next((t for t in doc[span.end :] if not t.is_space and not letters(t.text)), None)  # "… MCIfA,"
        if after is not None and after.idx < para_end and after.text not in _NAME_ENDS and after.pos_ != "CCONJ":
            continue
        if named_label and text[span.end_char : para_end].strip(" .*†‡"):
            continue  # a name as the label, then more than one name: a speaker's line ("Ruth Okafor: Thanks, …"),
            # not a cast list's "Tatyana: Lena Marwick"
        name = arg(span.root)
        if name is not None and name.node and key(name.text) != key(topic):
            label = m.group(1)
            named = any(t.ent_type_ for t in doc[bisect_left(starts, m.start(1)) : bisect_left(starts, m.end(1))])
            pred = label if named else label.lower() if label.istitle() else _predicate(label)  # a name keeps its
            # capitals ("Tatyana: Lena Marwick" of a cast list), a title-case label is lower-cased ("Lighting Designer")
            out.append(Triple(topic, pred, name.text))
            if len(name.text.split()) > 1 and (getattr(span, "label_", "") == "PERSON" or titled(span[0]) or
                                               span.start > 0 and titled(doc[span.start - 1])):  # fmt: skip
                persons.append(name.text)
    return out, persons


def _value_name(doc: Any, starts: list[int], ent: Any | None, at: int, end: int) -> Any | None:
    """The name a field's value (from char `at` to `end`) opens with: the NER span there (`ent`: the first one after
    the label; `starts`: the tokens' offsets), after at most two capitalised title words, else a run of two or more
    capitalised proper nouns NER missed ("Fenway Homes Ltd")."""
    i = bisect_left(starts, at)
    if i >= len(doc) or starts[i] >= end:
        return None
    if ent is not None and ent.start_char < end and ent.start - i <= _LEAD and \
            all((t.is_alpha or t.text.endswith(".")) and t.text[:1].isupper() for t in doc[i : ent.start]):  # fmt: skip
        return ent
    last = i
    while last < len(doc) and doc[last].pos_ == "PROPN" and doc[last].text[:1].isupper() and starts[last] < end:
        last += 1
    return doc[i:last] if last - i >= 2 else None

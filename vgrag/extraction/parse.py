"""Triples and JSON out of text a model or a file gave us, as pure functions: a usable triple or none, the first
JSON value in a reply with prose, fences or trailing commas around it, and triples from JSON, pipe or tuple lines."""

from __future__ import annotations

import json
import re
from dataclasses import replace

from ..models import MAX_NAME_CHARS, Triple, clean_triple
from ..nlp import identifier
from ..text import display_name


MAX_PREDICATE_WORDS = 8
_WORD = re.compile(r"[^\W\d_]{2,}")


def triple(s: str, p: str, o: str, when: str = "") -> Triple | None:
    """The offline extractor's triple: a subject with a word in it or an identifier ("#4412 was fixed by …",
    nlp.identifier), a predicate of at most 8 words, the date lower-case ("in 2012") kept on the relation."""
    if not (_WORD.search(s) or identifier(s)) or len(p.split()) > MAX_PREDICATE_WORDS:
        return None
    t = clean_triple((s, p, o))
    return replace(t, when=when[:1].lower() + when[1:]) if t is not None and when else t


MAX_TRIPLES_PER_CHUNK = 200  # a 1,200-character chunk states a few dozen facts; one reply listed 20,004


_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.S)


def _json_candidates(raw: str) -> list[str]:
    """Places in a model's reply where JSON may be: fenced blocks, the outermost {...} or [...], the whole text."""
    out = [m.group(1) for m in _FENCE.finditer(raw)]
    for open_, close in (("{", "}"), ("[", "]")):
        i, j = raw.find(open_), raw.rfind(close)
        if 0 <= i < j:
            out.append(raw[i : j + 1])
    out.append(raw)
    return out


def parse_json_loose(raw: str) -> object | None:
    """The first JSON value found in a reply, tolerating code fences, prose and trailing commas."""
    for cand in _json_candidates(raw):
        for text in (cand, re.sub(r",\s*([}\]])", r"\1", cand)):
            try:
                return json.loads(text)
            except (json.JSONDecodeError, ValueError, RecursionError):  # RecursionError: [[[[… 60,000 deep
                continue
    return None


_PIPE_LINE = re.compile(r"^\s*(?:[-*\d.)]+\s*)?\(?\s*([^|()]+?)\s*\|\s*([^|]+?)\s*\|\s*([^|()]+?)\s*\)?\s*$")
_TUPLE_LINE = re.compile(
    r"^\s*(?:[-*\d.)]+\s*)?\(\s*\"?([^\",()]+)\"?\s*,\s*\"?([^\",()]+)\"?\s*,\s*\"?([^\",()]+)\"?\s*\)"
)


def parse_triples_output(raw: str) -> tuple[tuple[Triple, ...], tuple[str, ...], str | None]:
    """Triples and entities from a model's reply; the error says what was wrong, triples keep what was usable."""
    data = parse_json_loose(raw)
    rows: list = []
    entities: list[str] = []
    if isinstance(data, dict):
        rows = data.get("triples") or data.get("extracted_triples") or data.get("relations") or []
        entities = [e for e in (data.get("entities") or data.get("named_entities") or []) if isinstance(e, str)]
    elif isinstance(data, list):
        rows = data
    if not rows:  # pipes or tuples, one triple a line
        for line in raw.splitlines():
            m = _PIPE_LINE.match(line) or _TUPLE_LINE.match(line)
            if m:
                rows.append([m.group(1), m.group(2), m.group(3)])
    triples: list[Triple] = []
    bad = 0
    rows = rows if isinstance(rows, list) else []
    over = max(0, len(rows) - MAX_TRIPLES_PER_CHUNK)
    for r in rows[:MAX_TRIPLES_PER_CHUNK]:
        if isinstance(r, dict):
            r = [r.get("subject", ""), r.get("predicate", r.get("relation", "")), r.get("object", "")]
        t = clean_triple(r) if isinstance(r, (list, tuple)) else None
        if t is None:
            bad += 1
        else:
            triples.append(t)
    triples = list(dict.fromkeys(triples))
    error = None
    if not triples and not raw.strip():
        error = "empty response"
    elif not triples and data is None and not rows:
        error = "no JSON or triple lines found in the response"
    elif not triples:
        error = f"no usable triples ({bad} malformed)" if bad else "the response listed no triples"
    elif bad:
        error = f"{bad} malformed triple(s) skipped"
    if over:
        error = "; ".join(x for x in (error, f"the reply listed {len(rows):,} triples for one chunk: only the first "
                                      f"{MAX_TRIPLES_PER_CHUNK} were read") if x)  # fmt: skip
    names = [display_name(e) for e in entities[: 2 * MAX_TRIPLES_PER_CHUNK] if len(e) <= 4 * MAX_NAME_CHARS]
    return tuple(triples), tuple(dict.fromkeys(n for n in names if n and len(n) <= MAX_NAME_CHARS)), error

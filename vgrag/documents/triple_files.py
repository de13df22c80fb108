"""Triples a user already has: HippoRAG OpenIE JSON, JSON lines and CSV, read into passages with their triples."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path

from ..models import Named, Triple, clean_triple
from ..text import display_name
from .sources import MAX_FILE_MB, InputError, clean_file_name, clean_text, decode_text

MAX_TRIPLES_MB = 4 * MAX_FILE_MB  # a triple file carries its passages and their triples

TRIPLE_TYPES = (".json", ".jsonl", ".csv")


@dataclass(frozen=True)
class ImportedPassage:
    title: str
    text: str
    triples: tuple[Triple, ...]
    entities: tuple[str, ...]
    skipped: int = 0  # malformed triples dropped
    named: Named | None = None  # the named entities an extraction's parse of the text found (bench's offline graphs)


SPREADSHEET_FORMULA = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet would run: export.py quotes it with '


def _text(value: object, where: str) -> str:
    """A text field of a triple file: a string (cleaned: see clean_text) or a number; missing/null is empty."""
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise InputError(f"{where} is a {type(value).__name__}, not text.")
    return clean_text(str(value))


def _list(value: object, where: str) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        raise InputError(f"{where} is a {type(value).__name__}, not a list.")
    return value


def _passage(title: str, text: str, raw_triples: list, entities: list) -> ImportedPassage:
    triples, skipped = [], 0
    for t in raw_triples:
        parts = [clean_text(x) if isinstance(x, str) else x for x in t] if isinstance(t, (list, tuple)) else None
        c = clean_triple(parts) if parts is not None else None
        if c is None:
            skipped += 1
        else:
            triples.append(c)
    ents = tuple(display_name(clean_text(e)) for e in entities if isinstance(e, str) and e.strip())
    return ImportedPassage(title, text, tuple(dict.fromkeys(triples)), ents, skipped)


def read_openie(data: bytes, name: str = "openie.json") -> list[ImportedPassage]:
    """HippoRAG OpenIE output: {"docs": [{title, text | passage, extracted_entities, extracted_triples}]}."""
    obj = _json(decode_text(data, name), name)
    docs = obj.get("docs") if isinstance(obj, dict) else None
    if not isinstance(docs, list):
        raise InputError(f"{name}: expected HippoRAG OpenIE JSON with a top-level 'docs' list.")
    out = []
    for i, d in enumerate(docs):
        if not isinstance(d, dict):
            raise InputError(f"{name}: docs[{i}] is not an object.")
        where = f"{name}: docs[{i}]"
        title = _text(d.get("title"), f"{where}.title").strip()
        text = _text(d.get("text"), f"{where}.text")
        if not text.strip():  # older files only carry "passage" = title + "\n" + text
            passage = _text(d.get("passage"), f"{where}.passage")
            text = passage.split("\n", 1)[1] if title and passage.startswith(title + "\n") else passage
        if not text.strip():
            raise InputError(f"{where} has no text.")
        triples = _list(d.get("extracted_triples"), f"{where}.extracted_triples")
        out.append(_passage(title, text, triples, _list(d.get("extracted_entities"), f"{where}.extracted_entities")))
    return out


def _json(text: str, name: str, where: str = "") -> object:
    """One JSON value, or InputError naming the file (and line) for invalid or absurdly nested JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{name}: {where}not valid JSON ({e.msg}, line {e.lineno} column {e.colno}).") from e
    except RecursionError as e:
        raise InputError(f"{name}: {where}JSON nested too deeply to read; check how the file was made.") from e


def _group_rows(rows: list[dict], name: str) -> list[ImportedPassage]:
    order: dict[tuple[str, str], tuple[list, list]] = {}
    for n, r in enumerate(rows, 1):
        where = f"{name}: row {n}"
        text = (_text(r.get("passage"), f"{where} 'passage'") or _text(r.get("text"), f"{where} 'text'")).strip()
        if not text:
            raise InputError(f"{where} has no 'passage' text.")
        key = (_text(r.get("title"), f"{where} 'title'").strip(), text)
        triples, ents = order.setdefault(key, ([], []))
        if r.get("triples") is not None:
            triples.extend(_list(r["triples"], f"{where} 'triples'"))
        elif any(r.get(k) for k in ("subject", "predicate", "object")):
            triples.append([_text(r.get(k), f"{where} '{k}'") for k in ("subject", "predicate", "object")])
        ents.extend(_list(r.get("entities"), f"{where} 'entities'"))
    return [_passage(t, x, tr, en) for (t, x), (tr, en) in order.items()]


def read_jsonl(data: bytes, name: str = "triples.jsonl") -> list[ImportedPassage]:
    """JSON lines of {passage, title?, subject, predicate, object} or {passage, title?, triples: [[s,p,o]…]}."""
    rows = []
    for n, line in enumerate(decode_text(data, name).splitlines(), 1):
        if not line.strip():
            continue
        r = _json(line, name, f"line {n} is ")
        if not isinstance(r, dict):
            raise InputError(f"{name}: line {n} is not a JSON object.")
        rows.append(r)
    if not rows:
        raise InputError(f"{name}: no rows.")
    return _group_rows(rows, name)


def read_csv(data: bytes, name: str = "triples.csv") -> list[ImportedPassage]:
    """CSV with a header: passage, subject, predicate, object (title optional)."""
    reader = csv.DictReader(io.StringIO(decode_text(data, name)))
    try:
        cols = {c.strip().lower() for c in reader.fieldnames or []}
        missing = {"passage", "subject", "predicate", "object"} - cols
        if missing:
            raise InputError(f"{name}: CSV header lacks column(s) {', '.join(sorted(missing))}.")
        rows = [{(k or "").strip().lower(): _unquoted(v) for k, v in r.items()} for r in reader]
    except csv.Error as e:  # e.g. a field over the csv module's 128 KB limit, a NUL byte
        raise InputError(f"{name}: not a readable CSV file at line {reader.line_num} ({e}); check the file "
                         "(a passage over 128 KB must be split into several rows).") from e  # fmt: skip
    if not rows:
        raise InputError(f"{name}: no rows.")
    return _group_rows(rows, name)


def _unquoted(value: object) -> object:
    """A CSV cell with the quote export.py puts before a spreadsheet formula character taken off again."""
    if isinstance(value, str) and value[:1] == "'" and value[1:2] and value[1] in SPREADSHEET_FORMULA:
        return value[1:]
    return value


def read_triples_file(name: str, data: bytes) -> list[ImportedPassage]:
    """Any supported pre-extracted triple file, chosen by extension; anything wrong with it is one InputError
    whose message starts with the file's name."""
    name = clean_file_name(name)
    suffix = Path(name).suffix.lower()
    if not data:
        raise InputError(f"{name}: the file is empty.")
    if len(data) > MAX_TRIPLES_MB * 1024 * 1024:
        raise InputError(f"{name}: {len(data) / 2**20:,.0f} MB is over the {MAX_TRIPLES_MB} MB limit for a triple "
                         "file; split it and import the parts.")  # fmt: skip
    reader = {".json": read_openie, ".jsonl": read_jsonl, ".csv": read_csv}.get(suffix)
    if reader is None:
        raise InputError(f"{name}: unsupported triple file; use HippoRAG OpenIE .json, .jsonl or .csv.")
    try:
        return reader(data, name)
    except InputError:
        raise
    except (TypeError, ValueError, AttributeError, KeyError, RecursionError, MemoryError) as e:  # a shape not foreseen
        raise InputError(f"{name}: could not be read ({type(e).__name__}: {str(e)[:200]}); check the file.") from e

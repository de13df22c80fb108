"""Triples a user already has: HippoRAG OpenIE JSON, JSON lines and CSV, read into passages with their triples."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path

from .parse import clean_triple
from .models import Triple
from .sources import MAX_FILE_MB, InputError, decode_text
from .text import display_name

MAX_TRIPLES_MB = 4 * MAX_FILE_MB  # a triple file carries its passages and their triples

TRIPLE_TYPES = (".json", ".jsonl", ".csv")


@dataclass(frozen=True)
class ImportedPassage:
    title: str
    text: str
    triples: tuple[Triple, ...]
    entities: tuple[str, ...]
    skipped: int = 0  # malformed triples dropped


def _passage(title: str, text: str, raw_triples: list, entities: list) -> ImportedPassage:
    triples, skipped = [], 0
    for t in raw_triples:
        c = clean_triple(t) if isinstance(t, (list, tuple)) else None
        if c is None:
            skipped += 1
        else:
            triples.append(c)
    ents = tuple(display_name(str(e)) for e in entities if isinstance(e, str) and e.strip())
    return ImportedPassage(title, text, tuple(dict.fromkeys(triples)), ents, skipped)


def read_openie(data: bytes, name: str = "openie.json") -> list[ImportedPassage]:
    """HippoRAG OpenIE output: {"docs": [{title, text | passage, extracted_entities, extracted_triples}]}."""
    try:
        obj = json.loads(decode_text(data, name))
    except json.JSONDecodeError as e:
        raise InputError(f"{name}: not valid JSON ({e}).") from e
    docs = obj.get("docs") if isinstance(obj, dict) else None
    if not isinstance(docs, list):
        raise InputError(f"{name}: expected HippoRAG OpenIE JSON with a top-level 'docs' list.")
    out = []
    for i, d in enumerate(docs):
        if not isinstance(d, dict):
            raise InputError(f"{name}: docs[{i}] is not an object.")
        title = str(d.get("title", "")).strip()
        text = d.get("text")
        if text is None:  # older files only carry "passage" = title + "\n" + text
            passage = str(d.get("passage", ""))
            text = passage.split("\n", 1)[1] if title and passage.startswith(title + "\n") else passage
        if not str(text).strip():
            raise InputError(f"{name}: docs[{i}] has no text.")
        out.append(_passage(title, str(text), d.get("extracted_triples") or [], d.get("extracted_entities") or []))
    return out


def _group_rows(rows: list[dict], name: str) -> list[ImportedPassage]:
    order: dict[tuple[str, str], tuple[list, list]] = {}
    for n, r in enumerate(rows, 1):
        text = str(r.get("passage") or r.get("text") or "").strip()
        if not text:
            raise InputError(f"{name}: row {n} has no 'passage' text.")
        key = (str(r.get("title") or "").strip(), text)
        triples, ents = order.setdefault(key, ([], []))
        if isinstance(r.get("triples"), list):
            triples.extend(r["triples"])
        elif any(r.get(k) for k in ("subject", "predicate", "object")):
            triples.append([r.get("subject") or "", r.get("predicate") or "", r.get("object") or ""])
        if isinstance(r.get("entities"), list):
            ents.extend(r["entities"])
    return [_passage(t, x, tr, en) for (t, x), (tr, en) in order.items()]


def read_jsonl(data: bytes, name: str = "triples.jsonl") -> list[ImportedPassage]:
    """JSON lines of {passage, title?, subject, predicate, object} or {passage, title?, triples: [[s,p,o]…]}."""
    rows = []
    for n, line in enumerate(decode_text(data, name).splitlines(), 1):
        if not line.strip():
            continue
        try:
            r = json.loads(line)
        except json.JSONDecodeError as e:
            raise InputError(f"{name}: line {n} is not valid JSON ({e.msg}).") from e
        if not isinstance(r, dict):
            raise InputError(f"{name}: line {n} is not a JSON object.")
        rows.append(r)
    if not rows:
        raise InputError(f"{name}: no rows.")
    return _group_rows(rows, name)


def read_csv(data: bytes, name: str = "triples.csv") -> list[ImportedPassage]:
    """CSV with a header: passage, subject, predicate, object (title optional)."""
    reader = csv.DictReader(io.StringIO(decode_text(data, name)))
    cols = {c.strip().lower() for c in reader.fieldnames or []}
    missing = {"passage", "subject", "predicate", "object"} - cols
    if missing:
        raise InputError(f"{name}: CSV header lacks column(s) {', '.join(sorted(missing))}.")
    rows = [{(k or "").strip().lower(): v for k, v in r.items()} for r in reader]
    if not rows:
        raise InputError(f"{name}: no rows.")
    return _group_rows(rows, name)


def read_triples_file(name: str, data: bytes) -> list[ImportedPassage]:
    """Any supported pre-extracted triple file, chosen by extension."""
    suffix = Path(name).suffix.lower()
    if not data:
        raise InputError(f"{name}: the file is empty.")
    if len(data) > MAX_TRIPLES_MB * 1024 * 1024:
        raise InputError(f"{name}: {len(data) / 2**20:,.0f} MB is over the {MAX_TRIPLES_MB} MB limit for a triple "
                         "file; split it and import the parts.")  # fmt: skip
    if suffix == ".json":
        return read_openie(data, name)
    if suffix == ".jsonl":
        return read_jsonl(data, name)
    if suffix == ".csv":
        return read_csv(data, name)
    raise InputError(f"{name}: unsupported triple file; use HippoRAG OpenIE .json, .jsonl or .csv.")

"""Reading inputs: documents (PDF, TXT, MD, HTML, DOCX) to text, and pre-extracted triple files to chunks."""

from __future__ import annotations

import csv
import html
import io
import json
import re
import zipfile
from html.parser import HTMLParser
from dataclasses import dataclass
from pathlib import Path

from .extract import clean_triple
from .models import Triple
from .text import display_name


class InputError(ValueError):
    """An input file that cannot be used; the message says why, in words for the person who gave it."""


@dataclass(frozen=True)
class ImportedPassage:
    title: str
    text: str
    triples: tuple[Triple, ...]
    entities: tuple[str, ...]
    skipped: int = 0  # malformed triples dropped


TEXT_TYPES = (".txt", ".md", ".markdown", ".pdf", ".html", ".htm", ".docx")
TRIPLE_TYPES = (".json", ".jsonl", ".csv")


def _decode(data: bytes, name: str) -> str:
    for enc in ("utf-8-sig", "utf-16"):
        try:
            text = data.decode(enc)
            if "\x00" not in text:
                return text
        except UnicodeDecodeError:
            continue
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError as e:
        raise InputError(f"{name}: not readable as text (unknown encoding).") from e


def _pdf_text(data: bytes, name: str) -> str:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError, PdfStreamError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise InputError(f"{name}: the PDF is encrypted; save an unlocked copy and upload that.")
        pages = [p.extract_text() or "" for p in reader.pages]
    except (PdfReadError, PdfStreamError, ValueError, KeyError, TypeError) as e:
        raise InputError(f"{name}: not a readable PDF ({type(e).__name__}: {e}).") from e
    text = "\n\n".join(p.strip() for p in pages if p.strip())
    if not text:
        raise InputError(f"{name}: the PDF has no extractable text (scanned images need OCR first).")
    return text


class _HTMLText(HTMLParser):
    """Visible text of an HTML page: script, style, head and template content skipped; block elements become
    paragraph breaks; character references decoded by the parser."""

    SKIP = {"script", "style", "head", "template", "noscript", "svg"}
    BLOCK = {"p", "div", "br", "li", "tr", "section", "article", "blockquote", "pre", "table", "ul", "ol"}
    BLOCK |= {f"h{i}" for i in range(1, 7)}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in self.SKIP:
            self._skip += 1
        elif tag in self.BLOCK:
            self.parts.append("\n\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP:
            self._skip = max(0, self._skip - 1)
        elif tag in self.BLOCK:
            self.parts.append("\n\n")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def _html_text(raw: str) -> str:
    parser = _HTMLText()
    parser.feed(raw)
    parser.close()
    text = "".join(parser.parts)
    return re.sub(r"\n\s*\n\s*", "\n\n", re.sub(r"[ \t\r\f\v]+", " ", text)).strip()


def _docx_text(data: bytes, name: str) -> str:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            xml = z.read("word/document.xml").decode("utf-8")
    except (zipfile.BadZipFile, KeyError) as e:
        raise InputError(f"{name}: not a readable .docx file.") from e
    paras = re.findall(r"<w:p[ >].*?</w:p>", xml, flags=re.S)
    return "\n\n".join(html.unescape("".join(re.findall(r"<w:t[^>]*>(.*?)</w:t>", p, flags=re.S))) for p in paras)


def document_text(name: str, data: bytes) -> str:
    """The plain text of an uploaded document, or InputError with a reason."""
    suffix = Path(name).suffix.lower()
    if not data:
        raise InputError(f"{name}: the file is empty.")
    if suffix == ".pdf":
        text = _pdf_text(data, name)
    elif suffix == ".docx":
        text = _docx_text(data, name)
    elif suffix in (".html", ".htm"):
        text = _html_text(_decode(data, name))
    elif suffix in (".txt", ".md", ".markdown", ""):
        text = _decode(data, name)
    else:
        raise InputError(f"{name}: unsupported type {suffix!r}; use one of {', '.join(TEXT_TYPES)}.")
    if not text.strip():
        raise InputError(f"{name}: no text found.")
    return text


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
        obj = json.loads(_decode(data, name))
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
    for n, line in enumerate(_decode(data, name).splitlines(), 1):
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
    reader = csv.DictReader(io.StringIO(_decode(data, name)))
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
    if suffix == ".json":
        return read_openie(data, name)
    if suffix == ".jsonl":
        return read_jsonl(data, name)
    if suffix == ".csv":
        return read_csv(data, name)
    raise InputError(f"{name}: unsupported triple file; use HippoRAG OpenIE .json, .jsonl or .csv.")

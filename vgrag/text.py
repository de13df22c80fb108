"""Text helpers shared by ingest and query: name normalisation, content-hash ids, chunking."""

from __future__ import annotations

import hashlib
import re
import unicodedata

_SPACE = re.compile(r"\s+")
_EDGE_PUNCT = "\"'`“”‘’«»()[]{}<>.,;:!?·-–—"


def normalize_name(name: str) -> str:
    """Unicode-safe key for an entity name: NFKC, case-folded, whitespace collapsed; accents and scripts kept."""
    s = unicodedata.normalize("NFKC", name)
    s = _SPACE.sub(" ", s).strip().strip(_EDGE_PUNCT).strip()
    return s.casefold()


def display_name(name: str) -> str:
    """The form shown to people: NFC with collapsed whitespace."""
    return _SPACE.sub(" ", unicodedata.normalize("NFC", name)).strip().strip(_EDGE_PUNCT).strip()


def _digest(*parts: str) -> str:
    h = hashlib.sha1()
    for p in parts:
        h.update(p.encode("utf-8"))
        h.update(b"\x1f")
    return h.hexdigest()[:20]


def entity_id(name: str) -> str:
    return "ent-" + _digest(normalize_name(name))


def relation_id(subject: str, predicate: str, obj: str) -> str:
    return "rel-" + _digest(normalize_name(subject), normalize_name(predicate), normalize_name(obj))


def passage_id(doc_id: str, title: str, text: str) -> str:
    return "psg-" + _digest(doc_id, title, text)


def doc_id(name: str) -> str:
    return "doc-" + _digest(name)


def content_hash(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


_SENT_END = re.compile(r"(?<=[.!?。！？])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9\u00C0-\u024F\u0400-\u04FF\u4e00-\u9fff])")
_ABBREV = re.compile(  # titles before names, then other abbreviations a sentence rarely ends with
    r"\b(?:Mr|Mrs|Ms|Messrs|Mme|Dr|Prof|Hon|Rev|Fr|Msgr|Gen|Col|Capt|Lt|Maj|Sgt|Adm|Gov|Pres|Sen|Rep|"
    r"St|Mt|Ft|Jr|Sr|Inc|Ltd|Co|Corp|Bros|vs|etc|e\.g|i\.e|U\.S|No|Vol|Fig|approx|ca)\.$"
)


def split_sentences(text: str) -> list[str]:
    """Split prose into sentences; keeps common abbreviations together."""
    out: list[str] = []
    for para in re.split(r"\n\s*\n", text):
        para = _SPACE.sub(" ", para).strip()
        if not para:
            continue
        start = 0
        for m in _SENT_END.finditer(para):
            candidate = para[start : m.start()].rstrip()
            if _ABBREV.search(candidate) or re.search(r"\b[A-Z]\.$", candidate):
                continue
            out.append(para[start : m.end()].strip())
            start = m.end()
        tail = para[start:].strip()
        if tail:
            out.append(tail)
    return out


def chunk_text(text: str, max_chars: int = 1200, overlap_sentences: int = 1) -> list[str]:
    """Sentence-aware chunks of at most max_chars (a longer sentence is cut), overlapping by whole sentences."""
    if max_chars < 50:
        raise ValueError("max_chars must be at least 50")
    sentences: list[str] = []
    for s in split_sentences(text):
        while len(s) > max_chars:
            cut = s.rfind(" ", 0, max_chars)
            cut = cut if cut > max_chars // 2 else max_chars
            sentences.append(s[:cut].strip())
            s = s[cut:].strip()
        if s:
            sentences.append(s)
    chunks: list[str] = []
    current: list[str] = []
    for s in sentences:
        if current and len(" ".join(current + [s])) > max_chars:
            chunks.append(" ".join(current))
            keep = current[-overlap_sentences:] if overlap_sentences > 0 else []
            while keep and len(" ".join(keep + [s])) > max_chars:
                keep = keep[1:]
            current = keep
        current.append(s)
    if current:  # the last sentence is always new here (the overlap kept is only what precedes it)
        chunks.append(" ".join(current))
    return chunks

"""Text helpers shared by ingest and query: name normalisation, content-hash ids, chunking."""

from __future__ import annotations

import hashlib
import re
import zlib
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from .nlp import load_spacy

_SPACE = re.compile(r"\s+")
_EDGE_PUNCT = "\"'`“”‘’«»()[]{}<>.,;:!?·-–—"
_PAIRS = {"(": ")", "[": "]", "{": "}", "<": ">", "“": "”", "‘": "’", "«": "»"}
_OPENERS = {v: k for k, v in _PAIRS.items()}


def _wrapped(s: str) -> bool:
    """Whether the bracket opening `s` is the one closing it."""
    depth = 0
    for i, c in enumerate(s):
        depth += (c == s[0]) - (c == s[-1])
        if depth == 0:
            return i == len(s) - 1
    return False


def _paired(s: str, c: str) -> bool:
    """Whether the bracket or quote `c` at an end of `s` has its partner inside `s` ("f(x)", "'Allo 'Allo")."""
    if c in _OPENERS:
        return s.count(_OPENERS[c]) >= s.count(c)
    if c in _PAIRS:
        return s.count(_PAIRS[c]) >= s.count(c)
    return c in "\"'" and s.count(c) % 2 == 0


def _strip_edges(s: str) -> str:
    """`s` without punctuation and quotes at its ends, but for a bracket or quote whose partner is inside it: "f(x)",
    "(500) Days of Summer" and "Fool (If You Think It's Over)" keep theirs; "Paris)", "(born 1990" and “Quoted” lose
    theirs. (Stripping every edge bracket stored "f(x" and "Organisation for … Development (OECD".)"""
    while True:
        s = s.strip()
        if len(s) > 1 and _PAIRS.get(s[0]) == s[-1] and _wrapped(s):
            s = s[1:-1]  # the whole name in brackets or quotes: “Quoted”, (a) — not "(a) and (b)"
        elif len(s) > 1 and s[0] == s[-1] and s[0] in "\"'" and s.count(s[0]) == 2:
            s = s[1:-1]  # in straight quotes: "Heroes"
        elif s and s[-1] in _EDGE_PUNCT and not _paired(s, s[-1]):
            s = s[:-1]
        elif s and s[0] in _EDGE_PUNCT and not _paired(s, s[0]):
            s = s[1:]
        else:
            return s


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # NUL, ESC, BEL … (C0, DEL, C1): never part of a name


def normalize_name(name: str) -> str:
    """Unicode-safe key for an entity name: NFKC, case-folded, whitespace and control characters collapsed;
    accents and scripts kept."""
    return _strip_edges(_SPACE.sub(" ", _CONTROL.sub(" ", unicodedata.normalize("NFKC", name)))).casefold()


def display_name(name: str) -> str:
    """The form shown to people: NFC with collapsed whitespace, control characters (NUL, ESC …) removed."""
    return _strip_edges(_SPACE.sub(" ", _CONTROL.sub(" ", unicodedata.normalize("NFC", name))))


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


def text_name(stem: str, data: bytes | str) -> str:
    """A name for text that came without one (pasted, or passed as strings): the stem and a short hash of the
    text, so each different text is its own document and the same text again is recognised."""
    return f"{stem} {content_hash(data)[:6]}"


_PARAGRAPH = re.compile(r"\n\s*\n")
_PIECE = 100_000  # characters given to the segmenter at once (a paragraph longer than this is cut at a space)


def _pieces(text: str) -> list[str]:
    """The text's paragraphs (blank-line separated), whitespace collapsed, the overlong ones cut at spaces."""
    out = []
    for para in _PARAGRAPH.split(text):
        para = _SPACE.sub(" ", para).strip()
        while len(para) > _PIECE:
            cut = para.rfind(" ", 0, _PIECE)
            cut = cut if cut > 0 else _PIECE
            out.append(para[:cut].strip())
            para = para[cut:].strip()
        if para:
            out.append(para)
    return out


def paragraphs(text: str) -> list[str]:
    """The text's paragraphs as its sentences are split from (blank-line separated, whitespace collapsed)."""
    return _pieces(text)


def _segment(paragraphs: list[str]) -> list[list[str]]:
    """Each paragraph's sentences by spaCy's statistical sentence segmenter (the `senter` of en_core_web_sm, on the
    tokenizer's output alone, all paragraphs in one batch: ~3x cheaper than one by one, ~9x cheaper than the parser's
    sentences, which it matches on 364 of 400 MuSiQue passages, while the rule-based `sentencizer` cuts quotes and
    brackets off); without spaCy's model, one sentence per paragraph."""
    nlp = load_spacy()
    if nlp is None:
        return [[p] for p in paragraphs]
    senter = nlp.get_pipe("senter")  # type: ignore[attr-defined]
    prose = [p for p in paragraphs if not repetitive(p)]  # the rest is cut at spaces: no model reads it
    docs = iter(senter.pipe((nlp.make_doc(p) for p in prose), batch_size=64))  # type: ignore[attr-defined]
    return [
        _cut(p) if repetitive(p) else [x for x in (_SPACE.sub(" ", t).strip() for t in _mend(p, next(docs).sents)) if x]
        for p in paragraphs
    ]


def _mend(text: str, sents: Iterable[Any]) -> list[str]:
    """The sentences' texts, those the segmenter cut inside a bracket joined again: "storage pit [" and "3012] was
    1.4 m across" (a piece that leaves more brackets open than it closes goes on in the next, when that one closes
    one). The open count is kept as the pieces are read: linear however many pieces a paragraph joins."""
    spans: list[list[int]] = []
    depth = 0  # brackets left open by the last span
    for s in sents:
        piece = s.text
        if spans and depth > 0 and any(c in piece for c in ")]"):
            spans[-1][1] = s.end_char
            depth += _balance(piece)
        else:
            spans.append([s.start_char, s.end_char])
            depth = _balance(piece)
    return [text[a:b] for a, b in spans]


def _balance(piece: str) -> int:
    return piece.count("[") + piece.count("(") - piece.count("]") - piece.count(")")


PROSE_RATIO = 8.0  # compressed-size ratio above which a text is not prose (prose: at most 2.9, see `repetitive`)


def repetitive(text: str) -> bool:
    """Whether a text repeats itself far more than prose: zlib compresses prose 1.7x (median; at most 2.9x over the
    3,459 passages of three Wikipedia-based corpora) and a run of `a a a …` or a row pasted 50 times 50x and more.
    Such text is stored and searchable but read by no model (spaCy reads it at ~4-35 KB/s for no sentence or fact)."""
    data = text.encode("utf-8")
    return len(data) >= 200 and len(data) > PROSE_RATIO * len(zlib.compress(data))


def _cut(text: str, size: int = 4000) -> list[str]:
    """Pieces of about `size` characters, cut at spaces: the "sentences" of text that is not prose (longer than a
    chunk, so prose beside it keeps chunks of its own)."""
    out = []
    while len(text) > size:
        at = text.rfind(" ", 0, size)
        at = at if at > 0 else size
        out.append(text[:at].strip())
        text = text[at:].strip()
    return [x for x in [*out, text] if x]


def split_texts(texts: Sequence[str]) -> list[list[str]]:
    """Each text's sentences (see split_sentences), the distinct texts segmented in one batch. Nothing is
    remembered: a document is split once at ingest and its passages keep their sentences (storage/tags.py)."""
    todo = list(dict.fromkeys(texts))
    pieces = [_pieces(t) for t in todo]
    found = iter(_segment([p for ps in pieces for p in ps]))
    done = {t: [x for _ in ps for x in next(found)] for t, ps in zip(todo, pieces, strict=True)}
    return [list(done[t]) for t in texts]


def split_sentences(text: str) -> list[str]:
    """Split prose into sentences with spaCy's sentence segmenter, paragraph by paragraph, whitespace collapsed."""
    return split_texts([text])[0]


def chunk_sentences(text: str, max_chars: int = 1200, overlap_sentences: int = 1) -> list[tuple[str, ...]]:
    """Sentence-aware chunks of at most max_chars (a longer sentence is cut), overlapping by whole sentences, each
    as its sentences: a chunk's text is `" ".join` of them, so its passage keeps them from ingest on."""
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
    chunks: list[tuple[str, ...]] = []
    current: list[str] = []
    for s in sentences:
        if current and len(" ".join(current + [s])) > max_chars:
            chunks.append(tuple(current))
            keep = current[-overlap_sentences:] if overlap_sentences > 0 else []
            while keep and len(" ".join(keep + [s])) > max_chars:
                keep = keep[1:]
            current = keep
        current.append(s)
    if current:  # the last sentence is always new here (the overlap kept is only what precedes it)
        chunks.append(tuple(current))
    return chunks


def chunk_text(text: str, max_chars: int = 1200, overlap_sentences: int = 1) -> list[str]:
    """The chunks of chunk_sentences as text."""
    return [" ".join(c) for c in chunk_sentences(text, max_chars, overlap_sentences)]

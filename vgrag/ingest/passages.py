"""A document's passages as they are stored: sentence-aware chunks that keep their sentences (a document is split
into sentences once), fitted to the passage column, and each sentence's named entities — from the extraction's parse,
else from spaCy's NER alone, so that no question tags them again (storage/tags.py)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ..documents.tables import parse_row
from ..documents.sources import InputError, base_name, clean_file_name, document_sections
from ..documents.structure import heading_name
from ..documents.topics import section_topics
from ..documents.triple_files import ImportedPassage
from ..extraction.tables import is_field
from ..extraction.tags import tag_sentences
from ..nlp import load_spacy
from ..storage.schema import COLUMNS, SENTENCES, TEXT, has_column
from ..storage.store import Graph
from ..storage.tags import Tags
from ..text import chunk_sentences, paragraphs, repetitive, split_texts
from .report import Failure, Tally

_ENDED = re.compile(r"[.!?][\"'”’)\]]*$")  # a sentence's end: a full stop, perhaps inside quotes or brackets
PASSAGE_BYTES = next(c.clip for c in COLUMNS["passages"] if c.name == TEXT)  # the most a stored passage holds
TAG_SLICE = 256  # sentences given to the NER at once: the NER lock is released between slices
TAG_CHARS = 2_000  # a longer "sentence" is no prose sentence (a table row, a list run together): not tagged


@dataclass(frozen=True)
class PlannedChunk:
    title: str  # the passage title: heading path (and PDF page), the file name only without headings
    topic: str  # what pronouns fall back to in offline extraction: a heading that names something, or ""
    text: str
    headings: tuple[str, ...] = ()  # the section's heading path (names glued to a heading lose it: Canonicalizer)
    sentences: tuple[str, ...] = ()  # the text's sentences (it is them joined by spaces): split once, kept with it
    parse_text: str = ""  # the text as the extractor reads it: a blank line where a paragraph starts (parse_text)


def _cut(sentence: str, limit: int) -> list[str]:
    """A sentence in pieces of at most `limit` bytes, cut at a space where one is near the end."""
    out = []
    while len(sentence.encode("utf-8")) > limit:
        head = sentence.encode("utf-8")[:limit].decode("utf-8", "ignore")
        at = head.rfind(" ")
        at = at if at > len(head) // 2 else len(head)
        out.append(sentence[:at].strip())
        sentence = sentence[at:].strip()
    return [x for x in [*out, sentence] if x]


def fit_passage(sentences: Sequence[str], limit: int = PASSAGE_BYTES) -> list[tuple[str, ...]]:
    """A passage's sentences as it will be stored: one passage when their text fits the passage column, else the
    same sentences packed in order into parts that do (a sentence longer than a part cut at a space) — never cut
    silently, never split again."""
    if len(" ".join(sentences).encode("utf-8")) <= limit:
        return [tuple(sentences)]
    parts: list[tuple[str, ...]] = []
    current: list[str] = []
    size = -1  # bytes of the current part joined by spaces
    for piece in (p for s in sentences for p in _cut(s, limit)):
        n = len(piece.encode("utf-8")) + 1
        if current and size + n > limit:
            parts.append(tuple(current))
            current, size = [], -1
        current.append(piece)
        size += n
    if current:
        parts.append(tuple(current))
    return parts


def plan_chunks(name: str, data: bytes, chunk_chars: int = 1200, overlap_sentences: int = 1) -> list[PlannedChunk]:
    """A document's chunks: sentence-aware, overlapping within a section, never across sections or pages."""
    shown = clean_file_name(name)
    fallback = base_name(shown)
    out: list[PlannedChunk] = []
    sections = document_sections(shown, data)
    for sec, topic in zip(sections, section_topics(sections, load_spacy), strict=True):
        title = sec.title(fallback, topic)
        heads = paragraph_heads(sec.text)
        label = list_label(sec.heading, topic)
        for c in chunk_sentences(sec.text, chunk_chars, overlap_sentences):
            out.extend(PlannedChunk(title, topic, " ".join(part), sec.heading, part, parse_text(part, heads, label))
                       for part in fit_passage(c))  # fmt: skip
    if not out:
        raise InputError(f"{shown}: no text found.")
    return out


def paragraph_heads(text: str) -> dict[str, list[str]]:
    """A section's paragraphs (whitespace collapsed, as its sentences are), by first word."""
    out: dict[str, list[str]] = {}
    for para in paragraphs(text):
        out.setdefault(para.split(" ", 1)[0], []).append(para)
    return out


LABEL_WORDS = 3  # a heading that labels a list ("Present", "Apologies", "In attendance") is this short


def list_label(heading: Sequence[str], topic: str) -> str:
    """The section's own heading when it is a short label, not the name of what the section is about (the topic):
    the items of a list under it are its values ("## Present" over "Cllr Diane Ashworth (Mayor, in the chair)")."""
    if not heading:
        return ""
    h = heading_name(heading[-1])
    return h if 0 < len(h.split()) <= LABEL_WORDS and h != topic and h[:1].isupper() and ":" not in h else ""


def parse_text(sentences: Sequence[str], heads: dict[str, list[str]], label: str = "") -> str:
    """A chunk's sentences as the extractor reads them: joined by spaces as stored, but by a blank line before a
    sentence that begins a paragraph of its section after one that does not end a sentence — a list item, a table
    row, a heading line without a full stop — so that the parser does not read one item's words as another's
    subject or object (nlp.paragraph_starts). After a full stop the parser ends the sentence anyway, and a blank
    line there would only be one more token for the tagger to read (with one, "In 2024 Fernleaf raised £4.2
    million from Westbridge Ventures" lost its relation). The stored passage keeps its text; each sentence is still
    found in this one (extraction.tags.sentence_tags). Under a heading that is a `label`, a paragraph of one
    sentence without a full stop — a list item — is read as the field "label: item" (extraction.tables.field_facts):
    the people of an attendance list are the meeting's "Present"."""
    out = []
    row = False  # whether the sentence before was (part of) a table row, documents.tables: one paragraph each
    for i, s in enumerate(sentences):
        para = next((p for p in heads.get(s.split(" ", 1)[0], ()) if p.startswith(s)), None)
        starts = i and para is not None and (not _ENDED.search(sentences[i - 1]) or row or parse_row(para))
        row = bool(para and parse_row(para)) if para is not None else row
        if label and para == s and not _ENDED.search(s) and not parse_row(para) and not is_field(s):
            s = f"{label}: {s}"
        out.append(("\n\n" if starts else " ") + s if i else s)
    return "".join(out)


def keeps_sentences(graph: Graph) -> bool:
    """Whether the graph's passages have the sentences column (a graph made before it stores none: nothing to tag)."""
    return has_column(graph.client, graph.coll("passages"), SENTENCES)


def tag_missing(
    sentences: Sequence[Sequence[str]],
    tags: Sequence[Sequence[Tags | None]],
    tally: Tally,
    on_slice: Callable[[int, int], None] | None = None,
) -> list[tuple[Tags | None, ...]]:
    """Each chunk's sentences' tags, where its extraction's parse named none (an LLM extractor, an import) by spaCy's
    NER alone, TAG_SLICE sentences at a time (`on_slice` hears done, total); text that is not prose (repetitive, or
    a "sentence" over TAG_CHARS) names nothing; without spaCy, those stay untagged (None)."""
    t0 = time.perf_counter()
    todo = [x for ss, ts in zip(sentences, tags, strict=True) for x, t in zip(ss, ts, strict=True) if t is None]
    found: dict[str, Tags] = {x: () for x in todo if len(x) > TAG_CHARS or repetitive(x)}
    todo = list(dict.fromkeys(x for x in todo if x not in found))
    nlp = load_spacy() if todo else None
    for start in range(0, len(todo) if nlp is not None else 0, TAG_SLICE):
        part = todo[start : start + TAG_SLICE]
        found.update(zip(part, map(tuple, tag_sentences(nlp, part)), strict=True))
        if on_slice is not None:
            on_slice(start + len(part), len(todo))
    tally.timings["tag"] += time.perf_counter() - t0
    return [tuple(found.get(x) if t is None else t for x, t in zip(ss, ts, strict=True))
            for ss, ts in zip(sentences, tags, strict=True)]  # fmt: skip


def fitted_imports(passages: Sequence[ImportedPassage], name: str, tally: Tally
                   ) -> list[tuple[ImportedPassage, tuple[str, ...]]]:  # fmt: skip
    """Imported passages with their sentences (segmented once, in one batch), split where they exceed the passage
    column (each part keeps the passage's triples), each split reported as a Failure naming the file and the
    passage."""
    out: list[tuple[ImportedPassage, tuple[str, ...]]] = []
    for n, (p, sentences) in enumerate(zip(passages, split_texts([p.text for p in passages]), strict=True)):
        sentences = tuple(sentences) or (p.text,)
        if len(p.text.encode("utf-8")) <= PASSAGE_BYTES:
            out.append((p, sentences))
            continue
        parts = fit_passage(sentences)
        if len(parts) > 1:
            size = len(p.text.encode("utf-8"))
            tally.failures.append(Failure(name, n, (
                f"{name}: passage {n + 1} ({p.title or 'untitled'}) has {size:,} bytes, over the"
                f" {PASSAGE_BYTES:,}-byte "
                f"limit of a stored passage; it was stored as {len(parts)} passages, each with its triples."
            )))  # fmt: skip
        out.extend((replace(p, text=" ".join(part)), part) for part in parts)
    return out

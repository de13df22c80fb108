"""The graph's records: frozen dataclasses with tuple fields."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .text import display_name, normalize_name

MAX_NAME_CHARS = 300  # longer "names" (a subject, predicate or object) are sentences or junk, not a name


@dataclass(frozen=True)
class Triple:
    subject: str
    predicate: str
    object: str
    when: str = ""  # a year or date the text attaches to the fact ("in 2012"); kept out of the predicate

    def sentence(self) -> str:
        """The triple as the sentence that is embedded and shown."""
        return f"{self.subject} {self.predicate} {self.object}"


@dataclass(frozen=True)
class Entity:
    id: str
    name: str
    relation_ids: tuple[str, ...] = ()
    passage_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class Relation:
    id: str
    subject: str
    predicate: str
    object: str
    subject_id: str
    object_id: str
    passage_ids: tuple[str, ...] = ()
    when: str = ""  # the triple's date ("in 2012"), "" when none or in a graph stored before dates were kept

    @property
    def text(self) -> str:
        return f"{self.subject} {self.predicate} {self.object}"


@dataclass(frozen=True)
class Passage:
    id: str
    title: str
    text: str
    doc_id: str
    chunk_index: int = 0
    entity_ids: tuple[str, ...] = ()
    relation_ids: tuple[str, ...] = ()
    sentences: str = ""  # its sentences and their named entities, as stored (storage/tags.py decode_sentences)

    @property
    def full_text(self) -> str:
        """Title and text as embedded and as the benchmark compares them."""
        return f"{self.title}\n{self.text}" if self.title else self.text


@dataclass(frozen=True)
class Document:
    id: str
    name: str
    content_hash: str
    n_passages: int
    complete: bool
    added_at: float
    key: str = ""  # its identity as given (vgrag/ingest/identity.py); "" for a document stored before keys were kept
    deleting: bool = False  # a delete was started and not finished (finished on the next open)


@dataclass(frozen=True)
class Named:
    """The named entities a parse of a text found, with their places in the text it parsed (`text`)."""

    text: str = ""
    spans: tuple[tuple[int, int, str, str], ...] = ()  # (start, end, entity text, spaCy label)


def clean_triple(t: Sequence[object]) -> Triple | None:
    """A usable triple or None: three non-empty string parts of at most MAX_NAME_CHARS characters (control
    characters removed, see display_name), subject different from object."""
    if len(t) != 3 or not all(isinstance(x, (str, int, float)) for x in t):
        return None
    if any(len(str(x)) > 4 * MAX_NAME_CHARS for x in t):
        return None  # not even normalised: a 1 MB "name" costs time before it is refused
    s, p, o = (display_name(str(x)) for x in t)
    if not s or not p or not o or normalize_name(s) == normalize_name(o):
        return None
    if max(len(s), len(p), len(o)) > MAX_NAME_CHARS:
        return None
    return Triple(s, p, o)

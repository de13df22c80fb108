"""The query trace: one immutable object per pipeline step, composed into a QueryTrace."""

from __future__ import annotations

import dataclasses
import enum
import json
import time
import types
import typing
from dataclasses import dataclass, field
from typing import Literal

from ..config import QueryParams
from ..llm.record import LLMCall
from .state import QueryState
from .verdict import Verdict


def ms_since(t0: float) -> float:
    """Milliseconds since a `time.perf_counter()` reading, as every step of a trace records its time."""
    return round((time.perf_counter() - t0) * 1000, 2)


PassageSource = Literal["graph", "named", "linked", "dense", "expanded", "lexical"]
RerankMethod = Literal["graph", "similarity", "llm"]
AnswerMethod = Literal["extractive", "llm"]
TraceMethod = Literal["graph", "naive", "hybrid"]


class Step(enum.Enum):
    """The query's steps in order, as the Ask page, the graph drawing and the replay page step through them."""

    QUERY_ENTITIES = "query entities"
    SEEDS = "seeds"
    HOP_1 = "hop 1"
    HOP_2 = "hop 2"
    EVICTION = "eviction"
    RERANK = "rerank"
    ANSWER = "answer"

    @property
    def label(self) -> str:
        return self.value

    @property
    def index(self) -> int:
        return list(Step).index(self)

    @property
    def hop_depth(self) -> int | None:
        return {Step.HOP_1: 1, Step.HOP_2: 2}.get(self)

    def reached(self, other: Step) -> bool:
        """True once this step is at or past `other` (the drawing shows everything up to the current step)."""
        return self.index >= other.index


@dataclass(frozen=True)
class EntityView:
    id: str
    name: str


@dataclass(frozen=True)
class RelationView:
    """A relation the query touched, with its similarity to the question."""

    id: str
    subject: str
    predicate: str
    object: str
    subject_id: str
    object_id: str
    passage_ids: tuple[str, ...]
    similarity: float

    @property
    def text(self) -> str:
        return f"{self.subject} {self.predicate} {self.object}"


@dataclass(frozen=True)
class QueryEntity:
    text: str
    method: str  # "exact-name", "ner", "noun-phrase", "keyword"
    entity_id: str | None = None


@dataclass(frozen=True)
class QueryEntitiesStep:
    entities: tuple[QueryEntity, ...]
    ms: float


@dataclass(frozen=True)
class ScoredId:
    id: str
    score: float
    via: str = ""  # what found it: the query entity text, "question", "hop 1" …


@dataclass(frozen=True)
class SeedStep:
    entity_hits: tuple[ScoredId, ...]
    relation_hits: tuple[ScoredId, ...]
    below_threshold: tuple[ScoredId, ...]
    ms: float


@dataclass(frozen=True)
class HopStep:
    depth: int
    new_entity_ids: tuple[str, ...]
    new_relation_ids: tuple[str, ...]
    ms: float


@dataclass(frozen=True)
class EvictionStep:
    before: int
    after: int
    cap: int
    evicted: tuple[str, ...]
    ms: float


@dataclass(frozen=True)
class RerankStep:
    method: RerankMethod
    candidates: tuple[ScoredId, ...]  # every candidate with the rerank's score, best first
    selected: tuple[str, ...]
    ms: float
    llm: LLMCall | None = None
    error: str | None = None  # why the LLM result was not used (then `method` says what was)


@dataclass(frozen=True)
class RankedPassage:
    id: str
    title: str
    text: str
    score: float
    source: PassageSource  # found through the graph's relations, by a name an evidence passage mentions (titles.py),
    # by an entity it shares with an evidence passage (links.py), by the question's dense search, or the evidence search
    relation_ids: tuple[str, ...] = ()
    named_by: str = ""  # the evidence passage that mentions this passage's title ("named") or shares an entity with
    # it ("linked", query/links.py)
    sentences: str = ""  # its sentences and their named entities as stored at ingest (storage/tags.py)


@dataclass(frozen=True)
class PassageStep:
    passages: tuple[RankedPassage, ...]
    dense_ids: tuple[str, ...]  # what dense search alone returned (for top-up and comparison)
    cut: tuple[str, ...]  # graph passages ranked below the top-k cut
    ms: float


@dataclass(frozen=True)
class Citation:
    n: int
    passage_id: str
    title: str
    text: str = ""  # the passage, so a cited passage outside the top-k can still be shown


@dataclass(frozen=True)
class Mark:
    """A span of an evidence sentence to highlight: a name the question states, or the short answer."""

    start: int
    end: int
    kind: Literal["name", "answer"]


@dataclass(frozen=True)
class Referent:
    """Who a pronoun or a bare "the company" of an evidence sentence is (query/referents.py): the tool's reading,
    shown beside the word, never part of the document's text."""

    start: int
    end: int
    name: str


@dataclass(frozen=True)
class Evidence:
    """One evidence sentence, cited to its numbered passage in the retrieved list."""

    n: int
    passage_id: str
    title: str
    sentence: str
    marks: tuple[Mark, ...] = ()
    referents: tuple[Referent, ...] = ()  # the names its "she", "it", "the company" stand for (not document text)

    def parts(self) -> list[tuple[str, str]]:
        """The sentence as (text, kind) pieces, kind "" for plain text: each view escapes and highlights them. A
        referent follows its word as a piece of kind "referent" (" [= Katarzyna Pyrek]"): the tool's insertion, which
        every view shows apart from the document's words."""
        spans = [(m.start, m.end, m.kind, "") for m in self.marks]
        spans += [(r.start, r.end, "", r.name) for r in self.referents]
        out, at = [], 0
        for start, end, kind, name in sorted(spans, key=lambda x: (x[0], x[1])):
            if start >= at:
                out += [(self.sentence[at:start], ""), (self.sentence[start:end], kind)]
                at = end
            if name and end == at:
                out.append((f" [= {name}]", "referent"))
        return [p for p in out + [(self.sentence[at:], "")] if p[0]]

    def shown(self) -> str:
        """The sentence as shown, with its referents inserted ("She [= Katarzyna Pyrek] married …")."""
        return "".join(text for text, _ in self.parts())


@dataclass(frozen=True)
class AnswerStep:
    text: str
    citations: tuple[Citation, ...]
    paths: tuple[tuple[str, ...], ...]  # chains of selected relation ids linking the question's entities
    method: AnswerMethod
    ms: float
    llm: LLMCall | None = None
    error: str | None = None
    short: str = ""  # the answer itself (offline reader), "" when abstaining or for LLM answers
    abstained: bool = False  # offline: no short answer shown (not confident enough, not English, no candidate)
    asked: str = ""  # offline: the question word and asked noun the reader typed the answer by ("which city")
    how: str = ""  # the offline reader's signals that decided its best candidate, in words
    confidence: float = 0.0  # the offline reader's confidence in its best candidate (shown or not), 0..1
    evidence: tuple[Evidence, ...] = ()  # offline: the sentences shown first, each cited, names/answer marked
    verdict: Verdict | None = None  # found / partly found / not in these documents, and what is found or missing


@dataclass(frozen=True)
class QueryTrace:
    question: str
    method: TraceMethod
    params: QueryParams
    query_entities: QueryEntitiesStep | None = None
    seeds: SeedStep | None = None
    hops: tuple[HopStep, ...] = ()
    eviction: EvictionStep | None = None
    rerank: RerankStep | None = None
    passages: PassageStep | None = None
    answer: AnswerStep | None = None
    entities: tuple[EntityView, ...] = ()
    relations: tuple[RelationView, ...] = ()
    total_ms: float = 0.0
    retrieval_ms: float = 0.0
    state: QueryState | None = field(default=None, compare=False, repr=False)  # for the answer step; not exported

    @property
    def llm_calls(self) -> tuple[LLMCall, ...]:
        calls = [s.llm for s in (self.rerank, self.answer) if s is not None and s.llm is not None]
        return tuple(calls)

    def entity_name(self, eid: str) -> str:
        return next((e.name for e in self.entities if e.id == eid), eid)

    def relation(self, rid: str) -> RelationView | None:
        return next((r for r in self.relations if r.id == rid), None)

    def passage_ids(self) -> list[str]:
        return [p.id for p in self.passages.passages] if self.passages else []

    def to_dict(self) -> dict:
        d = dataclasses.asdict(dataclasses.replace(self, state=None))
        del d["state"]
        for p in d["passages"]["passages"] if d["passages"] else ():
            del p["sentences"]  # the store's encoding, not the run's (a rebuilt trace splits its passages again)
        if d["answer"] is not None:  # the answer's evidence leads, as on the page
            a = d["answer"]
            d["answer"] = {"verdict": a.pop("verdict"), "evidence": a.pop("evidence"), **a}
        return d

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)


def _build(tp: object, value: object) -> object:
    """Inverse of dataclasses.asdict for the trace types: nested dataclasses, tuples, optionals."""
    if value is None:
        return None
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return _build(next(a for a in args if a is not type(None)), value)
    if origin is tuple:
        item = args[0] if len(args) == 2 and args[1] is Ellipsis else None
        return tuple(_build(item, v) if item is not None else v for v in value)  # type: ignore[union-attr]
    if isinstance(tp, type) and dataclasses.is_dataclass(tp) and isinstance(value, dict):
        hints = typing.get_type_hints(tp)
        return tp(**{k: _build(hints[k], v) for k, v in value.items() if k in hints})
    return value


def trace_from_dict(d: dict) -> QueryTrace:
    """Rebuild a QueryTrace from its JSON form (export → import round trip)."""
    return _build(QueryTrace, d)  # type: ignore[return-value]

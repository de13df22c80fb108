"""What an ingest reports: progress events as it runs, failures by file, and the final counts and timings."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from ..models import Triple
from ..storage.store import Graph
from ..storage.writer import WriteStats


@dataclass(frozen=True)
class ChunkResult:
    doc_name: str
    chunk_index: int
    text: str
    triples: tuple[Triple, ...]
    raw: str = ""
    error: str | None = None


Stage = Literal["read", "extract", "store", "embed", "done"]


@dataclass(frozen=True)
class Progress:
    """One progress event: how far, and (per chunk) what was just extracted."""

    stage: Stage
    done: int
    total: int
    message: str = ""
    chunk: ChunkResult | None = None


@dataclass(frozen=True)
class Failure:
    source: str
    chunk_index: int | None
    reason: str


@dataclass(frozen=True)
class IngestReport:
    documents: tuple[str, ...]
    unchanged: tuple[str, ...]
    replaced: tuple[str, ...]  # the documents a new content of theirs replaced (their names as they were)
    chunks: int
    triples: int
    passages_new: int
    entities_new: int
    relations_new: int
    texts_embedded: int
    failures: tuple[Failure, ...]
    timings: dict[str, float] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    prompt_tokens: int = 0  # LLM extraction only
    completion_tokens: int = 0
    beside: tuple[str, ...] = ()  # stored beside documents of the same name (numbered), none of them replaced
    edits_reapplied: int = 0  # hand edits (vgrag/editing) of replaced documents applied again to their new content
    edits_stale: tuple[str, ...] = ()  # those that no longer apply (their targets are gone), each with the reason


ProgressFn = Callable[[Progress], None]


def noop(_: Progress) -> None:
    return None


@dataclass
class Tally:
    """Running totals of one ingest."""

    chunks: int = 0
    triples: int = 0
    passages_new: int = 0
    entities_new: int = 0
    relations_new: int = 0
    texts_embedded: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    timings: dict[str, float] = field(
        default_factory=lambda: {"read": 0.0, "extract": 0.0, "tag": 0.0, "embed": 0.0, "store": 0.0}
    )
    failures: list[Failure] = field(default_factory=list)
    documents: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    beside: list[str] = field(default_factory=list)
    edits_reapplied: int = 0
    edits_stale: list[str] = field(default_factory=list)

    def add(self, s: WriteStats) -> None:
        self.passages_new += s.passages_new
        self.entities_new += s.entities_new
        self.relations_new += s.relations_new
        self.texts_embedded += s.texts_embedded
        self.timings["embed"] += s.embed_s
        self.timings["store"] += s.store_s

    def report(self, graph: Graph, t_start: float) -> IngestReport:
        self.timings["total"] = time.perf_counter() - t_start
        return IngestReport(
            documents=tuple(self.documents),
            unchanged=tuple(self.unchanged),
            replaced=tuple(self.replaced),
            chunks=self.chunks,
            triples=self.triples,
            passages_new=self.passages_new,
            entities_new=self.entities_new,
            relations_new=self.relations_new,
            texts_embedded=self.texts_embedded,
            failures=tuple(self.failures),
            timings={k: round(v, 3) for k, v in self.timings.items()},
            counts=graph.counts(),
            prompt_tokens=self.prompt_tokens,
            beside=tuple(self.beside),
            completion_tokens=self.completion_tokens,
            edits_reapplied=self.edits_reapplied,
            edits_stale=tuple(self.edits_stale),
        )

"""Ingest: files or pre-extracted triples → passages → triples → the graph, with live progress and a report."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from .embed import Embedder
from .entities import Canonicalizer, graph_aliases, graph_lookup
from .extract import Extraction, Extractor
from .models import Document, Triple
from .sources import InputError, clean_file_name, document_sections
from .triple_files import ImportedPassage
from .store import Graph
from .text import chunk_text, content_hash, doc_id
from .writer import SourceChunk, WriteStats, delete_document, write_chunks

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ChunkResult:
    doc_name: str
    chunk_index: int
    text: str
    triples: tuple[Triple, ...]
    raw: str = ""
    error: str | None = None


Stage = Literal["read", "extract", "store", "embed", "tag", "done"]


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
    replaced: tuple[str, ...]
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


ProgressFn = Callable[[Progress], None]


@dataclass(frozen=True)
class PlannedChunk:
    title: str  # the passage title: heading path (and PDF page), the file name only without headings
    topic: str  # what pronouns fall back to in offline extraction: a heading that names something, or ""
    text: str


def plan_chunks(name: str, data: bytes, chunk_chars: int = 1200, overlap_sentences: int = 1) -> list[PlannedChunk]:
    """A document's chunks: sentence-aware, overlapping within a section, never across sections or pages."""
    fallback = clean_file_name(name)
    out: list[PlannedChunk] = []
    for sec in document_sections(fallback, data):
        title, topic = sec.title(fallback), sec.topic
        out.extend(PlannedChunk(title, topic, c) for c in chunk_text(sec.text, chunk_chars, overlap_sentences))
    if not out:
        raise InputError(f"{fallback}: no text found.")
    return out


def _noop(_: Progress) -> None:
    return None


@dataclass
class _Tally:
    chunks: int = 0
    triples: int = 0
    passages_new: int = 0
    entities_new: int = 0
    relations_new: int = 0
    texts_embedded: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    timings: dict[str, float] = field(
        default_factory=lambda: {"read": 0.0, "extract": 0.0, "embed": 0.0, "store": 0.0, "tag": 0.0}
    )
    failures: list[Failure] = field(default_factory=list)
    documents: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)

    def add(self, s: WriteStats) -> None:
        self.passages_new += s.passages_new
        self.entities_new += s.entities_new
        self.relations_new += s.relations_new
        self.texts_embedded += s.texts_embedded
        self.timings["embed"] += s.embed_s
        self.timings["store"] += s.store_s
        self.timings["tag"] += s.tag_s

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
            completion_tokens=self.completion_tokens,
        )


def _begin_document(graph: Graph, name: str, digest: str, n: int, tally: _Tally) -> str | None:
    """Register a document; None when the same content is already fully stored."""
    did = doc_id(name)
    old = graph.documents.get(did)
    if old is not None and old.content_hash == digest and old.complete:
        tally.unchanged.append(name)
        return None
    if old is not None and old.content_hash != digest:
        delete_document(graph, did)
        tally.replaced.append(name)
    added = old.added_at if old else time.time()
    graph.documents.put(Document(did, name, digest, n_passages=n, complete=False, added_at=added))
    return did


def _finish_document(graph: Graph, did: str, name: str, digest: str, n: int) -> None:
    old = graph.documents.get(did)
    added = old.added_at if old else time.time()
    graph.documents.put(Document(did, name, digest, n_passages=n, complete=True, added_at=added))


def _embed_reporter(on_progress: ProgressFn, name: str, done: int, total: int) -> Callable[[int, int], None]:
    """A write_chunks callback that turns embedding progress into honest Progress events: texts done of total,
    the rate, and the time left for this batch."""
    t0 = time.perf_counter()

    def report(k: int, n: int) -> None:
        rate = k / max(time.perf_counter() - t0, 1e-6)
        left = (n - k) / rate if rate > 0 else 0.0
        msg = f"{name}: embedding {k:,}/{n:,} texts ({rate:,.0f}/s, about {left:,.0f} s left)"
        on_progress(Progress("embed", done, total, msg))

    return report


def _tag_reporter(on_progress: ProgressFn, name: str, done: int, total: int) -> Callable[[int, int], None]:
    """A write_chunks callback for the reader's NER at ingest (tags.py): sentences tagged of those new."""

    def report(k: int, n: int) -> None:
        on_progress(Progress("tag", done, total, f"{name}: finding names in sentences {k:,}/{n:,}"))

    return report


def ingest_documents(
    graph: Graph,
    embedder: Embedder,
    extractor: Extractor,
    files: Sequence[tuple[str, bytes]],
    chunk_chars: int = 1200,
    overlap_sentences: int = 1,
    batch_size: int = 16,
    on_progress: ProgressFn = _noop,
) -> IngestReport:
    """Read, chunk, extract and store documents; bad files and failed chunks are reported, never fatal."""
    t_start = time.perf_counter()
    tally = _Tally()
    plans: list[tuple[str, str, list[PlannedChunk]]] = []
    for n, (raw_name, data) in enumerate(files):
        name = clean_file_name(raw_name)
        on_progress(Progress("read", n, len(files), f"reading {name}"))
        t0 = time.perf_counter()
        try:
            chunks = plan_chunks(name, data, chunk_chars, overlap_sentences)
        except InputError as e:
            tally.failures.append(Failure(name, None, str(e)))
            on_progress(Progress("read", n + 1, len(files), str(e)))
            continue
        except Exception as e:  # noqa: BLE001 - one unreadable file must not stop the others
            log.exception("reading %s failed", name)
            msg = f"{name}: could not be read ({type(e).__name__}: {e}); check the file and upload it again."
            tally.failures.append(Failure(name, None, msg))
            continue
        tally.timings["read"] += time.perf_counter() - t0
        plans.append((name, content_hash(data), chunks))
    total = sum(len(c) for _, _, c in plans)
    done = 0
    canon = Canonicalizer(graph_lookup(graph))  # one name per thing across this ingest and the graph
    for name, digest, chunks in plans:
        did = _begin_document(graph, name, digest, len(chunks), tally)
        if did is None:
            done += len(chunks)
            on_progress(Progress("extract", done, total, f"{name}: unchanged, skipped"))
            continue
        tally.documents.append(name)
        doc_triples = 0
        for start in range(0, len(chunks), batch_size):
            part = chunks[start : start + batch_size]
            t0 = time.perf_counter()
            try:
                results = extractor.extract_many([c.text for c in part], [c.topic for c in part])
            except Exception as e:  # noqa: BLE001 - an extractor failure must not lose the chunks
                log.exception("extractor failed on %s", name)
                results = [Extraction(error=f"extractor failed: {type(e).__name__}: {e}") for _ in part]
            results = canon.apply(results)
            tally.timings["extract"] += time.perf_counter() - t0
            batch: list[SourceChunk] = []
            for i, (chunk, ex) in enumerate(zip(part, results, strict=True)):
                idx, text = start + i, chunk.text
                batch.append(SourceChunk(did, chunk.title, text, idx, ex.triples, ex.entities))
                doc_triples += len(ex.triples)
                if ex.error:
                    tally.failures.append(Failure(name, idx, ex.error))
                tally.triples += len(ex.triples)
                tally.prompt_tokens += ex.prompt_tokens
                tally.completion_tokens += ex.completion_tokens
                done += 1
                on_progress(
                    Progress(
                        "extract",
                        done,
                        total,
                        f"{name} chunk {idx + 1}/{len(chunks)}",
                        ChunkResult(name, idx, text, ex.triples, ex.raw, ex.error),
                    )
                )
            on_progress(Progress("store", done, total, f"storing {len(batch)} chunks of {name}"))
            tally.add(
                write_chunks(
                    graph,
                    embedder,
                    batch,
                    _embed_reporter(on_progress, name, done, total),
                    _tag_reporter(on_progress, name, done, total),
                )
            )
            tally.chunks += len(batch)
        graph_aliases(graph).add(did, canon.aliases)
        _finish_document(graph, did, name, digest, len(chunks))
        if not doc_triples:
            tally.failures.append(Failure(name, None, (
                f"{name}: no facts (triples) found in any of its {len(chunks)} chunk(s). Its text is stored and "
                "searchable, but it adds nothing to the graph; try the LLM extractor (Settings) for this file."
            )))  # fmt: skip
    report = tally.report(graph, t_start)
    on_progress(Progress("done", total, total, "done"))
    return report


def ingest_imported(
    graph: Graph,
    embedder: Embedder,
    source_name: str,
    data_hash: str,
    passages: Sequence[ImportedPassage],
    batch_size: int = 2000,
    on_progress: ProgressFn = _noop,
) -> IngestReport:
    """Store pre-extracted passages and triples (HippoRAG OpenIE, JSONL, CSV) as one source document."""
    t_start = time.perf_counter()
    tally = _Tally()
    did = _begin_document(graph, source_name, data_hash, len(passages), tally)
    if did is None:
        on_progress(Progress("done", len(passages), len(passages), f"{source_name}: unchanged, skipped"))
        return tally.report(graph, t_start)
    tally.documents.append(source_name)
    for n, p in enumerate(passages):
        if p.skipped:
            tally.failures.append(Failure(source_name, n, f"{p.skipped} malformed triple(s) skipped"))
    for start in range(0, len(passages), batch_size):
        part = passages[start : start + batch_size]
        chunks = [SourceChunk(did, p.title, p.text, start + i, p.triples, p.entities) for i, p in enumerate(part)]
        tally.triples += sum(len(p.triples) for p in part)
        reporter = _embed_reporter(on_progress, source_name, start, len(passages))
        tagger = _tag_reporter(on_progress, source_name, start, len(passages))
        tally.add(write_chunks(graph, embedder, chunks, reporter, tagger))
        tally.chunks += len(chunks)
        on_progress(Progress("store", start + len(part), len(passages), f"stored {start + len(part)} passages"))
    _finish_document(graph, did, source_name, data_hash, len(passages))
    report = tally.report(graph, t_start)
    on_progress(Progress("done", len(passages), len(passages), "done"))
    return report

"""Ingest: files or pre-extracted triples → passages → triples → the graph, with live progress and a report."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..documents.sources import InputError, base_name, clean_file_name, source_key
from ..documents.triple_files import ImportedPassage
from ..embed import Embedder
from ..extraction.entities import Canonicalizer, graph_aliases, graph_lookup
from ..extraction.extract import Extraction, Extractor
from ..extraction.tags import sentence_tags
from .identity import base_of, place
from .report import ChunkResult, Failure, IngestReport, Progress, ProgressFn, Tally, noop
from ..models import Document
from ..storage.store import Graph
from ..storage.writer import SourceChunk, delete_document, write_chunks
from ..text import content_hash, doc_id, repetitive
from .passages import PlannedChunk, fitted_imports, keeps_sentences, plan_chunks, tag_missing

__all__ = ["IngestReport", "Progress", "ProgressFn", "ingest_documents", "ingest_imported", "plan_chunks"]

log = logging.getLogger(__name__)


def _begin_document(graph: Graph, key: str, name: str, digest: str, n: int, tally: Tally, replaces: str | None = None,
                    ) -> str:  # fmt: skip
    """Register a document where ingest_identity.place put it; the document it replaces (`replaces`) is deleted
    first and named in the report. A record already under this key is an interrupted ingest of the same content."""
    gone = graph.documents.get(replaces) if replaces else None
    if gone is not None:
        delete_document(graph, gone.id)
        tally.replaced.append(gone.name)
    did = doc_id(key)
    old = graph.documents.get(did)
    added = old.added_at if old else time.time()
    graph.documents.put(Document(did, name, digest, n_passages=n, complete=False, added_at=added, key=key))
    return did


def _finish_document(graph: Graph, did: str, name: str, digest: str, n: int, key: str) -> None:
    old = graph.documents.get(did)
    added = old.added_at if old else time.time()
    graph.documents.put(Document(did, name, digest, n_passages=n, complete=True, added_at=added, key=key))


def _replay_edits(graph: Graph, embedder: Embedder, name: str, docs: set[str], tally: Tally) -> None:
    """A document stored in place of an older content: the hand edits of the old one applied again where their
    targets exist; those that no longer apply are reported (vgrag/editing)."""
    if not docs:
        return
    from ..editing.run import replay_own_edits

    done = replay_own_edits(graph, embedder, docs)
    tally.edits_reapplied += len(done.applied)
    for _, why in done.stale:
        tally.edits_stale.append(why)
        tally.failures.append(Failure(name, None, f"{name}: {why}; redo it on the Review page if it is still needed."))


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


def ingest_documents(
    graph: Graph,
    embedder: Embedder,
    extractor: Extractor,
    files: Sequence[tuple[str, bytes]],
    chunk_chars: int = 1200,
    overlap_sentences: int = 1,
    batch_size: int = 16,
    on_progress: ProgressFn = noop,
) -> IngestReport:
    """Read, chunk, extract and store documents, one file after the other (a file that is slow or bad never
    holds back the files before it); bad files and failed chunks are reported, never fatal."""
    if chunk_chars < 50 or batch_size < 1 or overlap_sentences < 0:
        raise ValueError(f"chunk_chars must be at least 50 (got {chunk_chars}), batch_size at least 1 (got "
                         f"{batch_size}) and overlap_sentences 0 or more (got {overlap_sentences}).")  # fmt: skip
    t_start = time.perf_counter()
    tally = Tally()
    given = [(source_key(raw), clean_file_name(raw), content_hash(data), data) for raw, data in files]
    contents: dict[str, list[str]] = {}  # key -> the distinct contents given under it, in upload order
    seen: set[tuple[str, str]] = set()
    for key, _, digest, _ in given:
        if (base_of(key), digest) not in seen:  # the same file twice in one upload, however its path is spelled
            seen.add((base_of(key), digest))
            contents.setdefault(key, []).append(digest)
    docs = graph.documents.all()
    names = {key: name for key, name, _, _ in reversed(given)}
    placed = {
        (key, d): p for key, ds in contents.items() for d, p in zip(ds, place(docs, key, names[key], ds), strict=True)
    }
    # one name per thing across this ingest and the graph (whose recorded aliases hold the abbreviations its
    # documents define)
    canon = Canonicalizer(graph_lookup(graph), stored=graph_aliases(graph).all())
    count = _Count()
    for n, (key, name, digest, data) in enumerate(given):
        where = placed.pop((key, digest), None)
        if where is None:  # stored already, or given twice in this upload
            tally.unchanged.append(name)
            continue
        key, name, replaces = where.key, where.name, where.replaces
        if where.beside:
            tally.beside.append(name)  # other documents have this name: nothing replaced on a name alone
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
        count.total += len(chunks)
        doc = _Doc(key, name, digest, chunks, replaces)
        _store_document(graph, embedder, extractor, canon, doc, batch_size, tally, count, on_progress)
    report = tally.report(graph, t_start)
    on_progress(Progress("done", count.total, count.total, "done"))
    return report


@dataclass
class _Count:
    done: int = 0  # chunks extracted so far in this ingest
    total: int = 0  # chunks of the files read so far


@dataclass(frozen=True)
class _Doc:
    key: str
    name: str
    digest: str
    chunks: list[PlannedChunk]
    replaces: str | None


REPETITIVE = "not extracted: the text repeats itself like no prose does (stored and searchable as it is)"


def _extract_all(extractor: Extractor, canon: Canonicalizer, doc: _Doc, batch_size: int, tally: Tally,
                 count: _Count, on_progress: ProgressFn) -> list[Extraction]:  # fmt: skip
    """Every chunk's extraction, in batches, before anything of the document is written."""
    canon.begin(h for c in doc.chunks for h in c.headings)  # this document's headings and own evidence
    out: list[Extraction] = []
    for start in range(0, len(doc.chunks), batch_size):
        part = doc.chunks[start : start + batch_size]
        t0 = time.perf_counter()
        prose = [i for i, c in enumerate(part) if not repetitive(c.text)]
        try:
            found = extractor.extract_many([part[i].parse_text or part[i].text for i in prose],
                                           [part[i].topic for i in prose])  # fmt: skip
        except Exception as e:  # noqa: BLE001 - an extractor failure must not lose the chunks
            log.exception("extractor failed on %s", doc.name)
            found = [Extraction(error=f"extractor failed: {type(e).__name__}: {e}", failed=True) for _ in prose]
        results = [Extraction(error=REPETITIVE) for _ in part]  # stored and searchable, never parsed
        for i, ex in zip(prose, found, strict=True):
            results[i] = ex
        results = canon.apply(results)
        tally.timings["extract"] += time.perf_counter() - t0
        for i, (chunk, ex) in enumerate(zip(part, results, strict=True)):
            count.done += 1
            idx = start + i
            on_progress(Progress("extract", count.done, count.total, f"{doc.name} chunk {idx + 1}/{len(doc.chunks)}",
                                 ChunkResult(doc.name, idx, chunk.text, ex.triples, ex.raw, ex.error)))  # fmt: skip
        out.extend(results)
    return out


def _store_document(graph: Graph, embedder: Embedder, extractor: Extractor, canon: Canonicalizer, doc: _Doc,
                    batch_size: int, tally: Tally, count: _Count, on_progress: ProgressFn) -> None:  # fmt: skip
    """Extract, then write one document. When the extractor could not run on some chunks (an LLM endpoint down),
    a document that would replace a stored one is not written (the stored one keeps its triples), and a new one is
    written but left incomplete, so the next ingest of the same file extracts it again — never "complete" with
    triples missing."""
    results = _extract_all(extractor, canon, doc, batch_size, tally, count, on_progress)
    failed = [i for i, ex in enumerate(results) if ex.failed]
    for i, ex in enumerate(results):
        if ex.error and ex.error != REPETITIVE:
            tally.failures.append(Failure(doc.name, i, ex.error))
    skipped = sum(ex.error == REPETITIVE for ex in results)
    if skipped:
        tally.failures.append(Failure(doc.name, None, f"{doc.name}: {skipped} of its {len(doc.chunks)} chunk(s) "
                                      f"{REPETITIVE}."))  # fmt: skip
    if failed and doc.replaces:
        msg = (
            f"{doc.name}: the extractor failed on {len(failed)} of its {len(doc.chunks)} chunk(s), so the stored "
            "version was kept, with its triples; ingest the file again when the extractor works (Settings)."
        )
        tally.failures.append(Failure(doc.name, None, msg))
        return
    did = _begin_document(graph, doc.key, doc.name, doc.digest, len(doc.chunks), tally, doc.replaces)
    tally.documents.append(doc.name)
    keep = keeps_sentences(graph)
    for start in range(0, len(doc.chunks), batch_size):
        chunks, found = doc.chunks[start : start + batch_size], results[start : start + batch_size]
        tags = [()] * len(chunks)  # a graph made before passages kept sentences: nothing to tag
        if keep:
            parsed = [sentence_tags(ex.named, c.sentences) if ex.error != REPETITIVE else [()] * len(c.sentences)
                      for c, ex in zip(chunks, found, strict=True)]  # fmt: skip
            tags = tag_missing([c.sentences for c in chunks], parsed, tally)  # what no parse named: the NER alone
        batch = [SourceChunk(did, c.title, c.text, start + i, ex.triples, ex.entities, c.sentences, t)
                 for i, (c, ex, t) in enumerate(zip(chunks, found, tags, strict=True))]  # fmt: skip
        tally.triples += sum(len(c.triples) for c in batch)
        on_progress(Progress("store", count.done, count.total, f"storing {len(batch)} chunks of {doc.name}"))
        tally.add(write_chunks(graph, embedder, batch, _embed_reporter(on_progress, doc.name, count.done, count.total)))
        tally.chunks += len(batch)
    tally.prompt_tokens += sum(ex.prompt_tokens for ex in results)
    tally.completion_tokens += sum(ex.completion_tokens for ex in results)
    graph_aliases(graph).add(did, canon.aliases)
    if failed:
        msg = (
            f"{doc.name}: the extractor failed on {len(failed)} of its {len(doc.chunks)} chunk(s); its text is "
            "stored and searchable, and the document is marked incomplete: ingest the same file again when the "
            "extractor works and its triples are extracted then."
        )
        tally.failures.append(Failure(doc.name, None, msg))
        return
    _finish_document(graph, did, doc.name, doc.digest, len(doc.chunks), doc.key)
    _replay_edits(graph, embedder, doc.name, {did, doc.replaces} if doc.replaces else set(), tally)
    if not any(ex.triples for ex in results):
        tally.failures.append(Failure(doc.name, None, (
            f"{doc.name}: no facts (triples) found in any of its {len(doc.chunks)} chunk(s). Its text is stored and "
            "searchable, but it adds nothing to the graph; try the LLM extractor (Settings) for this file."
        )))  # fmt: skip


def ingest_imported(
    graph: Graph,
    embedder: Embedder,
    source_name: str,
    data_hash: str,
    passages: Sequence[ImportedPassage],
    batch_size: int = 2000,
    on_progress: ProgressFn = noop,
) -> IngestReport:
    """Store pre-extracted passages and triples (HippoRAG OpenIE, JSONL, CSV) as one source document; a passage
    too long for the passage column is stored in parts, and the report says so."""
    t_start = time.perf_counter()
    tally = Tally()
    key, source_name = source_key(source_name), clean_file_name(source_name)
    (where,) = place(graph.documents.all(), key, source_name, [data_hash])  # as for documents (ingest_identity)
    if where is None:
        tally.unchanged.append(source_name)
        on_progress(Progress("done", len(passages), len(passages), f"{source_name}: unchanged, skipped"))
        return tally.report(graph, t_start)
    if where.beside:
        tally.beside.append(where.name)
    key, source_name = where.key, where.name
    fitted = fitted_imports(passages, source_name, tally)  # with their sentences, split once here
    keep = keeps_sentences(graph)
    did = _begin_document(graph, key, source_name, data_hash, len(fitted), tally, where.replaces)
    tally.documents.append(source_name)
    for n, (p, _) in enumerate(fitted):
        if p.skipped:
            tally.failures.append(Failure(source_name, n, (
                f"{source_name}: passage {n + 1}: {p.skipped} malformed triple(s) skipped; each needs a subject, "
                "a predicate and an object (check the file)."
            )))  # fmt: skip
    untitled = base_name(source_name)  # a passage without a title is cited by its file, as a document's is
    for start in range(0, len(fitted), batch_size):
        part = fitted[start : start + batch_size]
        tags = [()] * len(part)
        if keep:  # the names an extraction's parse found (bench's offline graphs), else the NER alone

            def heard(k: int, n: int, start: int = start) -> None:
                on_progress(Progress("store", start, len(fitted), f"finding names: {k:,} of {n:,} sentences"))

            parsed = [sentence_tags(p.named, ss) if p.named else [None] * len(ss) for p, ss in part]
            tags = tag_missing([ss for _, ss in part], parsed, tally, heard)
        chunks = [SourceChunk(did, p.title or untitled, p.text, start + i, p.triples, p.entities, ss, t)
                  for i, ((p, ss), t) in enumerate(zip(part, tags, strict=True))]  # fmt: skip
        tally.triples += sum(len(p.triples) for p, _ in part)
        reporter = _embed_reporter(on_progress, source_name, start, len(fitted))
        tally.add(write_chunks(graph, embedder, chunks, reporter))
        tally.chunks += len(chunks)
        on_progress(Progress("store", start + len(part), len(fitted), f"stored {start + len(part)} passages"))
    _finish_document(graph, did, source_name, data_hash, len(fitted), key)
    _replay_edits(graph, embedder, source_name, {did, where.replaces} if where.replaces else set(), tally)
    report = tally.report(graph, t_start)
    on_progress(Progress("done", len(fitted), len(fitted), "done"))
    return report

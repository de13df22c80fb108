"""The benchmark's graph: its name, the documents a run stores in it, and whether a run may replace it (never a
graph a benchmark run did not build)."""

from __future__ import annotations

import hashlib
import json
import re
import time
import unicodedata
from collections.abc import Sequence

from .data import BenchData
from ..documents.sources import InputError, source_key
from ..documents.triple_files import ImportedPassage, read_openie
from ..embed import Embedder
from ..ingest import ingest_imported
from ..storage.database import Database
from ..storage.meta import DocumentLog
from ..storage.store import Graph
from ..text import content_hash, doc_id


def graph_name(data_name: str, extract: str, model_id: str, n_distractors: int) -> str:
    """The benchmark's graph: "bench_" + the folder's name in ASCII letters, digits and _ (a name with other
    letters, like "données", also gets a short hash of itself, so two such folders never share a graph)."""
    slug = re.sub(r"[^A-Za-z0-9]", "_", unicodedata.normalize("NFKD", data_name).encode("ascii", "ignore").decode())
    if not data_name.isascii():
        slug = f"{slug[:13]}_{hashlib.sha1(data_name.encode()).hexdigest()[:6]}"
    name = "bench_" + slug[:20] + ("_off" if extract != "openie" else "") + ("_e5" if "e5" in model_id else "")
    return name + (f"_d{n_distractors}" if n_distractors else "")


def source_name(data: BenchData, extract: str) -> str:
    """The document a benchmark corpus is stored as: its OpenIE file, or its offline extraction."""
    return f"{data.name}/{data.openie.name}" if extract == "openie" and data.openie else f"{data.name}-offline"


def plan(data: BenchData, extract: str, distractors: Sequence[BenchData] = ()) -> list[tuple[BenchData, str]]:
    """What a run stores, in order, with how: the corpus ("openie" or "offline"), then each distractor corpus (its
    OpenIE file when it has one); FileNotFoundError before anything is stored when the OpenIE file is missing."""
    if extract == "openie" and data.openie is None:
        raise FileNotFoundError(f"no openie*.json in {data.name}; use extract='offline'")
    return [(data, extract)] + [(x, "openie" if x.openie else "offline") for x in distractors]


def _mark(name: str) -> str:
    return f"bench:{name}"  # the graph's record of the documents benchmark runs wrote in it (dropped with it)


def claim_graph(db: Database, name: str, sources: Sequence[str]) -> bool:
    """Whether the graph `name` exists, after checking a benchmark run may replace or fill it: everything in it was
    written by a benchmark run (its "bench" record lists those documents; a graph made before that record counts
    when all its documents are this run's). A user's own graph of that name is an InputError, left untouched."""
    if db.graph_info(name) is None:
        return False
    mark = db.meta.get(_mark(name))
    written = set(mark["sources"]) if mark else set()
    ours = written | {doc_id(source_key(s)) for s in sources}
    docs = DocumentLog(db.meta, name).all()
    others = [d.name for d in docs if d.id not in ours]
    if others or not (mark or docs):
        raise InputError(
            f"This database already has a graph named “{name}” that a benchmark run did not build"
            + (f" (it holds {others[0]})" if others else "")
            + ": it is left as it is. Rename the benchmark folder, or drop that graph on the Overview page."
        )
    return True


def open_bench_graph(
    db: Database, name: str, embedder: Embedder, runs: Sequence[tuple[BenchData, str]], keep: bool = False
) -> Graph:
    """The benchmark's graph, emptied first unless `keep`, and marked as the benchmark's before anything is stored
    in it (so an interrupted run's graph is recognised too); InputError for a graph a benchmark did not build."""
    sources = [source_name(d, how) for d, how in runs]
    exists = claim_graph(db, name, sources)
    if exists and not keep:
        db.drop_graph(name)
    graph = db.open_graph(name, embedder.model_id, embedder.dim)
    mark = db.meta.get(_mark(name)) if exists and keep else None
    with graph.lock:
        ids = {doc_id(source_key(x)) for x in sources} | set(mark["sources"] if mark else ())
        db.meta.put(_mark(name), "bench", name, {"sources": sorted(ids)})
    return graph


def _passages(
    data: BenchData, extract: str, skip: set[tuple[str, str]], graph: Graph
) -> tuple[str, str, list[ImportedPassage]]:
    """(source name, digest, passages) of a corpus: its OpenIE triples, or the offline extractor's (not run again
    when the graph already holds this corpus complete: a re-run with `--db` then stores nothing, as ingest would
    skip it)."""
    name = source_name(data, extract)
    if extract == "openie" and data.openie is not None:  # plan() refused a missing one
        raw = data.openie.read_bytes()
        passages = [p for p in read_openie(raw, data.openie.name) if (p.title, p.text) not in skip]
        return name, content_hash(raw), passages
    from ..extraction.extract import OfflineExtractor

    corpus = [(t, x) for t, x in data.corpus if (t, x) not in skip]
    digest = content_hash(json.dumps(corpus) + "offline")
    stored = graph.documents.get(doc_id(name))
    if stored is not None and stored.complete and stored.content_hash == digest:
        return name, digest, [ImportedPassage(t, x, (), ()) for t, x in corpus]
    results = OfflineExtractor().extract_many([x for _, x in corpus], [t for t, _ in corpus])
    passages = [ImportedPassage(t, x, r.triples, r.entities, named=r.named)  # its names: no second NER at import
                for (t, x), r in zip(corpus, results, strict=True)]  # fmt: skip
    return name, digest, passages


def build_graph(graph: Graph, embedder: Embedder, runs: Sequence[tuple[BenchData, str]]) -> tuple[float, dict]:
    """Ingest the corpora of a plan (see `plan`): each as its OpenIE triples or the offline extractor's, passages
    already stored by an earlier corpus of the plan skipped. Returns (seconds, report)."""
    t0 = time.perf_counter()
    seen: set[tuple[str, str]] = set()
    info: dict = {"triples": 0, "texts_embedded": 0, "passages_by_source": {}}
    for n, (d, how) in enumerate(runs):
        name, digest, passages = _passages(d, how, seen, graph)
        seen |= {(p.title, p.text) for p in passages}
        report = ingest_imported(graph, embedder, name, digest, passages)
        info["triples"] += report.triples
        info["texts_embedded"] += report.texts_embedded
        info["passages_by_source"][name] = len(passages)
        info["counts"] = report.counts
        info["timings" if n == 0 else f"timings_{name}"] = report.timings
    return time.perf_counter() - t0, info

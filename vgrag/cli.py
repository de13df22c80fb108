"""Command line: python -m vgrag ingest|query|graphs|docs|check|export|bench."""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from .config import Settings, query_params_from
from .embed import EmbedderUnavailable
from .documents.inputs import InputError, clean_text, read_file
from .documents.triple_files import TRIPLE_TYPES
from .editing.commands import add_edit_parser, cmd_edit
from .ingest import Progress
from .storage.database import StoreError, quiet_storage_logs
from .workspace import Workspace


def _out(text: str) -> None:
    """A line for the terminal: no escape codes or other control characters from documents or models."""
    sys.stdout.write(_plain(text) + "\n")


def _plain(text: str) -> str:
    return clean_text(text).replace("\r", " ")


def _bar(p: Progress) -> None:
    """A progress bar on a terminal; one line per stored batch (and per 50 chunks) in logs and pipes."""
    if not sys.stderr.isatty():
        if p.stage in ("store", "done") or p.done % 50 == 0:
            sys.stderr.write(f"{p.stage} {p.done}/{p.total} {_plain(p.message)}\n")
            sys.stderr.flush()
        return
    width = 30
    filled = int(width * p.done / p.total) if p.total else width
    msg = _plain(p.message)[:50]
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {p.done}/{p.total} {p.stage:8} {msg:50}")
    if p.stage == "done":
        sys.stderr.write("\n")
    sys.stderr.flush()


def _report(r: object) -> None:
    _out(json.dumps(r.__dict__ if hasattr(r, "__dict__") else r, default=lambda o: o.__dict__, indent=1))


def cmd_ingest(ws: Workspace, a: argparse.Namespace) -> int:
    if a.openie or a.triples:
        path = Path(a.openie or a.triples)
        name = str(path if a.triples else path.with_suffix(".json"))  # the path given: its identity (ingest.py)
        report = ws.import_triples((name, read_file(path)), a.graph, a.batch_size, on_progress=_bar)
    else:
        if not a.files:
            sys.stderr.write("give files to ingest, or --openie FILE / --triples FILE" + "\n")
            return 2
        files = []
        for f in a.files:  # a folder, a pipe or a 3 GB file is a message about that path; the others go on
            try:
                files.append((f, read_file(f)))
            except InputError as e:
                sys.stderr.write(f"error: {_plain(str(e))}\n")
        if not files:
            return 2
        report = ws.add_documents(files, a.graph, a.extractor, False, a.chunk_chars, a.overlap, on_progress=_bar)
        if len(files) < len(a.files):
            _report(report)
            return 1
    _report(report)
    return 1 if report.failures and not report.chunks else 0


def cmd_query(ws: Workspace, a: argparse.Namespace) -> int:
    params = query_params_from({k: v for k, v in vars(a).items() if v is not None and k not in ("only", "exclude")})
    trace = ws.query(
        a.question, a.graph, params, method=a.method, use_llm=not a.offline, only=a.only or (), exclude=a.exclude or ()
    )
    for step, error in (
        ("rerank", trace.rerank and trace.rerank.error),
        ("answer", trace.answer and trace.answer.error),
    ):
        if error:
            sys.stderr.write(f"note ({step}): {_plain(error)}\n")
    if a.json:
        _out(trace.to_json())
        return 0
    a = trace.answer
    if a is not None and a.evidence:  # offline: the evidence first, then the short answer or why there is none
        for e in a.evidence:
            _out(f"  [{e.n}] {e.shown()}")  # a pronoun's referent in "[= …]": the tool's, not the text's
        _out(f"Short answer: {a.short} (confidence {a.confidence:.0%})" if a.short else a.text.split(". Evidence:")[0])
        if a.how:
            _out(f"  decided by: {a.how}")
    else:
        _out(a.text if a else "")
    for c in trace.answer.citations if trace.answer else ():
        _out(f"  [{c.n}] {c.title} ({c.passage_id})")
    for path in trace.answer.paths[:3] if trace.answer else ():
        _out("  path: " + " → ".join(trace.relation(r).text for r in path if trace.relation(r)))
    _out(f"  {trace.total_ms:.0f} ms")
    return 0


def cmd_graphs(ws: Workspace, a: argparse.Namespace) -> int:
    if a.drop:
        if not ws.drop(a.drop):  # type: ignore[attr-defined]
            raise StoreError(f"No graph named {a.drop!r} in {ws.db.uri}; nothing was dropped.")
        _out(f"dropped {a.drop}")
        return 0
    for g in ws.db.list_graphs():  # type: ignore[attr-defined]
        _out(f"{g.name}\t{g.embedder}\t{g.dim}")
    return 0


def cmd_docs(ws: Workspace, a: argparse.Namespace) -> int:
    if a.delete:
        _report(ws.delete_document(a.delete, a.graph))
        return 0
    for d in ws.documents(a.graph):
        _out(f"{d.id}\t{d.name}\t{d.n_passages}\t{'complete' if d.complete else 'INCOMPLETE'}")
    return 0


def cmd_check(ws: Workspace, a: argparse.Namespace) -> int:
    repaired = None
    if a.repair:
        rep = ws.repair(a.graph)
        repaired = {"rewritten": rep.rewritten, "deleted": rep.deleted, "restored": rep.restored}
    r = ws.check(a.graph)
    out = {"ok": r.ok, "counts": r.counts, "problems": list(r.problems), "warnings": list(r.warnings)}
    if repaired is not None:
        out["repaired"] = repaired
    _out(json.dumps(out, indent=1))
    return 0 if r.ok else 1


def cmd_export(ws: Workspace, a: argparse.Namespace) -> int:
    from .storage.export import export_graph

    data = export_graph(ws.graph(a.graph, create=False), a.format)  # type: ignore[attr-defined]
    if not a.out:
        sys.stdout.buffer.write(data)
        return 0
    out = Path(a.out)
    if out.is_dir():
        raise InputError(f"{out}: is a folder; give a file name for the export (for example {out}/graph.{a.format}).")
    try:
        with open(out, "wb") as f:
            f.write(data)
    except OSError as e:
        if out.is_file():
            out.unlink()  # half an export is no export
        raise InputError(f"{out}: the export could not be written ({e.strerror or e}); nothing was kept. Free "
                         "some space or choose another place.") from e  # fmt: skip
    return 0


def cmd_bench(ws: Workspace | None, a: argparse.Namespace) -> int:
    from .evaluation.bench import format_table, run_bench
    from .evaluation.data import load_bench, load_corpus
    from .embed import make_embedder

    s = Settings.from_env()
    data = load_bench(a.data, a.questions)
    if a.limit:
        data = replace(data, questions=data.questions[: a.limit])
    distractors = [load_corpus(d) for d in a.distractors or []]
    emb = make_embedder(a.embedder or s.embedder, s.embed_model, s.embed_base_url, s.embed_api_key)
    result = run_bench(
        data,
        emb,
        a.methods.split(","),
        query_params_from({"hops": a.hops}),
        extract=a.extract,
        measure_embed=not a.no_embed_baseline,
        answers=a.answers,
        distractors=distractors,
        db_uri=a.db,
        keep=bool(a.db),
        unanswerable=a.unanswerable,
        on_progress=lambda st, d, t: _bar(Progress(st if d < t else "done", d, t, "questions")),
    )
    if a.out:
        Path(a.out).write_text(json.dumps(result, indent=1))
    _out(format_table(result))
    return 0


def _at_least(low: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least `low` (0 chunk characters or a batch of 0 was a raw error)."""

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if n < low:
            raise argparse.ArgumentTypeError(f"must be at least {low} (got {n})")
        return n

    return parse


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m vgrag", description="Vector Graph RAG over Milvus")
    p.add_argument("--graph", default=None, help="graph name (default: VGRAG_GRAPH or 'demo')")
    sub = p.add_subparsers(dest="cmd", required=True)
    i = sub.add_parser("ingest", help="add documents or pre-extracted triples to a graph")
    i.add_argument("files", nargs="*")
    i.add_argument("--openie", help="HippoRAG OpenIE JSON file")
    i.add_argument("--triples", help=f"triples file ({', '.join(TRIPLE_TYPES)})")
    i.add_argument("--extractor", choices=["offline", "llm"], default="offline")
    i.add_argument("--chunk-chars", type=_at_least(50), default=1200)
    i.add_argument("--overlap", type=_at_least(0), default=1, help="sentences of overlap between chunks")
    i.add_argument("--batch-size", type=_at_least(1), default=2000, help="passages per stored batch (triple imports)")
    q = sub.add_parser("query", help="ask a question")
    q.add_argument("question")
    q.add_argument("--json", action="store_true", help="print the whole trace as JSON")
    q.add_argument("--method", choices=["graph", "naive", "hybrid"], default="graph")
    q.add_argument("--only", action="append", metavar="NAME", help="read only this document (name or id as `docs` "
                   "lists it); repeat for more")  # fmt: skip
    q.add_argument("--exclude", action="append", metavar="NAME", help="never read this document; repeatable")
    q.add_argument("--offline", action="store_true", help="no LLM calls even when an endpoint is configured")
    q.add_argument("--hops", type=int)
    q.add_argument("--passage-top-k", dest="passage_top_k", type=int)
    q.add_argument("--rerank", choices=["auto", "graph", "similarity", "llm"])
    g = sub.add_parser("graphs", help="list graphs (or --drop NAME)")
    g.add_argument("--drop")
    d = sub.add_parser("docs", help="list a graph's documents (or --delete ID_OR_NAME)")
    d.add_argument("--delete")
    c = sub.add_parser("check", help="consistency check of a graph (--repair: restore one-sided links first)")
    c.add_argument("--repair", action="store_true", help="restore links one side lost, then check")
    e = sub.add_parser("export", help="export a graph")
    e.add_argument("--format", choices=["graphml", "json", "csv"], default="json")
    e.add_argument("--out")
    b = sub.add_parser("bench", help="Recall@k of naive vs graph on HippoRAG-format data")
    b.add_argument("--data", required=True)
    b.add_argument("--questions")
    b.add_argument("--methods", default="naive,hybrid,graph", help="any of naive, hybrid (dense + BM25), graph")
    b.add_argument("--embedder", choices=["minilm", "e5", "openai"], help="default: VGRAG_EMBEDDER or minilm")
    b.add_argument(
        "--distractors",
        nargs="+",
        metavar="DIR",
        help="extra corpora added to the graph (their OpenIE triples, else offline)",
    )
    b.add_argument("--extract", choices=["openie", "offline"], default="openie")
    b.add_argument("--hops", type=int, default=1)
    b.add_argument("--limit", type=int, default=0, help="first N questions only")
    b.add_argument("--no-embed-baseline", action="store_true", help="skip timing the embed-only baseline")
    b.add_argument("--answers", action="store_true", help="also score the offline answers (contains, EM, F1)")
    b.add_argument("--unanswerable", action="store_true", help="with --answers: ask each question again with its "
                   "gold passages excluded, and report the verdict rates of both halves")  # fmt: skip
    b.add_argument("--db", help="keep the benchmark graph in this Milvus Lite file; a re-run reuses it")
    b.add_argument("--out")
    add_edit_parser(sub)  # `edit …`: fixing the graph by hand (vgrag/editing/commands.py)
    return p


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    quiet_storage_logs()
    a = build_parser().parse_args(argv)
    if a.cmd == "query" and re.search("[\udc80-\udcff]", a.question):  # bytes that were not UTF-8, kept by argv
        sys.stderr.write(f"error: the question is not UTF-8 text ({os.fsencode(a.question)[:60]!r}); use a UTF-8 "
                         "terminal (LANG=C.UTF-8) or retype it.\n")  # fmt: skip
        return 2
    try:
        if a.cmd == "bench":
            return cmd_bench(None, a)

        ws = Workspace.open(Settings.from_env())
        handler = {
            "ingest": cmd_ingest,
            "query": cmd_query,
            "graphs": cmd_graphs,
            "docs": cmd_docs,
            "check": cmd_check,
            "export": cmd_export,
            "edit": lambda w, x: cmd_edit(w, x, _out),
        }[a.cmd]
        return handler(ws, a)
    except (StoreError, InputError, FileNotFoundError, ValueError, EmbedderUnavailable) as e:
        sys.stderr.write(f"error: {_plain(str(e))}" + "\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted: documents not finished are listed as INCOMPLETE (`docs`) and written again "
                         "by the next ingest of the same files.\n")  # fmt: skip
        return 130

"""A realistic upload asked through the app's query pipeline, for the tests/test_verdict_*.py of each upload: its
files ingested as a user's are (offline extraction, the real MiniLM embedder) into one graph, and every question of
its questions.json asked once (scripts/verdict_uploads.py measures the same over every upload)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from vgrag.extraction.extract import OfflineExtractor
from vgrag.ingest import ingest_documents
from vgrag.query.pipeline import run_query
from vgrag.query.question import norm

FIXTURES = Path(__file__).resolve().parent / "fixtures"
KINDS = (".md", ".txt", ".html", ".pdf", ".docx")


@dataclass(frozen=True)
class Asked:
    question: str
    answer: str  # as the files write it; "" for a question they do not answer
    verdict: str  # found / partly / missing
    said: str
    in_evidence: bool  # the answer is in the evidence shown


def ask_upload(db, embedder, name: str) -> dict[str, Asked]:  # type: ignore[no-untyped-def]
    """Every question of tests/fixtures/<name> (answerable and not), asked of a graph built from its files."""
    folder = FIXTURES / name
    spec = json.loads((folder / "questions.json").read_text())
    files = [(p.name, p.read_bytes()) for p in sorted(folder.iterdir()) if p.suffix in KINDS and p.stem != "README"]
    graph = db.open_graph(f"verdict_{name}", embedder.model_id, embedder.dim)
    try:
        report = ingest_documents(graph, embedder, OfflineExtractor(), files)
        # a sanity check that the files were read and extracted (the insurance policy, sums and limits in "we"
        # sentences, gives 9 relations offline; the hospital leaflets 15; the other uploads 20 or more)
        assert report.counts["passages"] >= len(files) and report.counts["relations"] >= 8, report.counts
        out = {}
        for q, gold in [*spec["answerable"], *[(q, "") for q in spec["unanswerable"]]]:
            step = run_query(q, graph, embedder).answer
            shown = " ".join(norm(e.sentence) for e in step.evidence)
            hit = bool(gold) and f" {norm(gold)} " in f" {shown} "
            out[q] = Asked(q, gold, step.verdict.kind, step.verdict.said, hit)
        return out
    finally:
        db.drop_graph(f"verdict_{name}")

"""The offline extractor on one text, or on a fixture document as ingest reads it, for the extraction tests."""

from __future__ import annotations

from pathlib import Path

from vgrag.extraction.entities import Canonicalizer
from vgrag.extraction.extract import Extraction, OfflineExtractor
from vgrag.ingest import plan_chunks

FIX = Path(__file__).parent / "fixtures"


def extract_one(text: str, title: str = "") -> Extraction:
    (ex,) = OfflineExtractor().extract_many([text], [title])
    return ex


def names_of(ex: Extraction) -> set[str]:
    return {x for t in ex.triples for x in (t.subject, t.object)}


def facts(results: list) -> set[tuple[str, str, str]]:
    return {(t.subject, t.predicate, t.object) for r in results for t in r.triples}


def ingested(name: str) -> list[Extraction]:
    """A fixture's extractions as ingest makes them: its chunks (the text the extractor reads) and topics, then the
    document's own evidence (vgrag.ingest._extract_all)."""
    chunks = plan_chunks(name, (FIX / name).read_bytes())
    canon = Canonicalizer()
    canon.begin(h for c in chunks for h in c.headings)
    return canon.apply(OfflineExtractor().extract_many([c.parse_text or c.text for c in chunks],
                                                       [c.topic for c in chunks]))  # fmt: skip

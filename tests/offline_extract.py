"""The offline extractor on one text, for the extraction tests."""

from __future__ import annotations

from vgrag.extraction.extract import Extraction, OfflineExtractor


def extract_one(text: str, title: str = "") -> Extraction:
    (ex,) = OfflineExtractor().extract_many([text], [title])
    return ex


def names_of(ex: Extraction) -> set[str]:
    return {x for t in ex.triples for x in (t.subject, t.object)}

"""An abbreviation one document defines is the same thing in the graph's other documents (issue #31, one entity per
thing): an investigation report writes "the Marine Accident Investigation Branch (MAIB)", the harbour board's
press release on it writes only "the MAIB" — one entity, whether the two are uploaded together or a week apart.
Two documents defining one abbreviation as two things leave a third's bare use alone."""

from __future__ import annotations

import pytest

from vgrag.extraction.entities import graph_aliases
from vgrag.extraction.extract import OfflineExtractor
from vgrag.ingest import ingest_documents
from vgrag.nlp import load_spacy

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="spaCy model en_core_web_sm not installed")

REPORT = (
    b"# Report 4/2026: grounding of the ferry Hoy Head at Lyness\n\n"
    b"The Marine Accident Investigation Branch (MAIB) was notified of the grounding on 3 March 2026. The vessel "
    b"is operated by Orkney Ferries. Its master, Ewan Drever, had held command for six years.\n"
)
RELEASE = (
    b"# Harbour board statement\n\n"
    b"The MAIB published its report on 12 September 2026. Orkney Harbour Authority accepted all four "
    b"recommendations made by the MAIB.\n"
)
CLINIC = (
    b"# Stroke service review\n\n"
    b"The Mobile Stroke Unit (MSU) was funded by the Kirkwall Health Board. Dr Anna Flett leads the service.\n"
)
PORT = (
    b"# Port security plan\n\n"
    b"The Marine Security Unit (MSU) patrols Scapa Flow. It reports to Orkney Harbour Authority.\n"
)
BOTH = b"# Joint exercise\n\nThe MSU took part in the exercise at Stromness on 4 May 2026.\n"


def names(graph) -> set[str]:
    return {e.name for e in graph.iter_entities()}


def test_a_release_naming_the_branch_by_its_letters_joins_the_report_that_defines_them(graph, embedder):
    ingest_documents(graph, embedder, OfflineExtractor(), [("report.md", REPORT), ("statement.md", RELEASE)])
    found = names(graph)
    assert "Marine Accident Investigation Branch" in found and "MAIB" not in found
    published = [r for r in graph.iter_relations() if "published" in r.predicate]
    assert published and all(r.subject == "Marine Accident Investigation Branch" for r in published)


def test_a_document_uploaded_later_reads_the_graphs_recorded_definition(graph, embedder):
    ingest_documents(graph, embedder, OfflineExtractor(), [("report.md", REPORT)])
    assert "MAIB" in graph_aliases(graph).of("Marine Accident Investigation Branch")
    ingest_documents(graph, embedder, OfflineExtractor(), [("statement.md", RELEASE)])
    assert "MAIB" not in names(graph)
    assert any(r.subject == "Marine Accident Investigation Branch" and "published" in r.predicate
               for r in graph.iter_relations())  # fmt: skip


def test_letters_defined_as_two_things_stay_apart_elsewhere(graph, embedder):
    ingest_documents(graph, embedder, OfflineExtractor(), [("clinic.md", CLINIC), ("port.md", PORT)])
    ingest_documents(graph, embedder, OfflineExtractor(), [("exercise.md", BOTH)])
    found = names(graph)
    assert {"Mobile Stroke Unit", "Marine Security Unit", "MSU"} <= found
    took_part = [r for r in graph.iter_relations() if r.predicate.startswith("took")]
    assert took_part and all(r.subject == "MSU" for r in took_part)

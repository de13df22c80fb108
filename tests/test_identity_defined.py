"""An abbreviation written in brackets right after a name is that name's, whether or not its letters are the name's
initials (issue #31, walk21 finding 6): "Halvorsen Therapeutics (HTX)" stayed two entities while "Meridian Clinical
Research (MCR)", whose initials spell it, was merged."""

from __future__ import annotations

import pytest

from vgrag.extraction.entities import graph_aliases
from vgrag.extraction.extract import OfflineExtractor
from vgrag.ingest import ingest_documents
from vgrag.nlp import load_spacy

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="spaCy model en_core_web_sm not installed")

PROTOCOL = (
    b"# ORCHID-2 protocol summary\n\n"
    b"## Sponsor\n\n"
    b"The trial is sponsored by Halvorsen Therapeutics (HTX), a biotechnology company based in Copenhagen. Site "
    b"monitoring and data management are carried out for HTX by Meridian Clinical Research (MCR), a contract "
    b"research organisation headquartered in Dublin.\n\n"
    b"## Oversight\n\n"
    b"HTX funds the Steering Committee. No member of the board is employed by HTX or MCR.\n"
)
RELEASES = (
    b"# Release notes\n\n"
    b"The cluster in Lyra (see HTX) was upgraded by the platform team. The lyra cluster (INC-2291) stopped "
    b"delivering messages.\n"
)


def test_a_bracketed_abbreviation_is_the_name_before_it(graph, embedder):
    ingest_documents(graph, embedder, OfflineExtractor(), [("protocol.md", PROTOCOL)])
    names = {e.name for e in graph.iter_entities()}
    assert "Halvorsen Therapeutics" in names and "HTX" not in names
    assert "MCR" not in names  # initials: merged before too
    assert "HTX" in graph_aliases(graph).of("Halvorsen Therapeutics")


def test_brackets_that_are_no_apposition_of_a_name_define_nothing(graph, embedder):
    ingest_documents(graph, embedder, OfflineExtractor(), [("notes.md", RELEASES)])
    aliases = graph_aliases(graph).all()
    assert not any("HTX" in forms or "INC-2291" in forms for forms in aliases.values())

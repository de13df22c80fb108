"""A title word before a person's name is no part of it (issue #31, walk21 finding 6): "Professor Varga" and
"Professor Ines Varga" stayed two entities, as the title was folded only when abbreviated ("Dr.", "Prof."). The
title is any capitalised common noun spaCy's NER leaves out of the person's name, not a word list."""

from __future__ import annotations

import pytest

from offline_extract import extract_one, names_of
from vgrag.extraction.extract import OfflineExtractor
from vgrag.ingest import ingest_documents
from vgrag.nlp import load_spacy

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="spaCy model en_core_web_sm not installed")

PROTOCOL = (
    b"# ORCHID-2 protocol summary\n\n"
    b"## Governance\n\n"
    b"The coordinating investigator is Professor Ines Varga of the University Hospital of Ghent. Professor Varga "
    b"chairs the Steering Committee, which is responsible for the conduct of the trial.\n"
)


def test_title_and_full_name_are_one_person(graph, embedder):
    ingest_documents(graph, embedder, OfflineExtractor(), [("protocol.md", PROTOCOL)])
    names = {e.name for e in graph.iter_entities()}
    assert "Ines Varga" in names
    assert not {"Professor Varga", "Professor Ines Varga", "Varga"} & names


def test_other_titles_the_same_way():
    ex = extract_one("Inspector Maria Lindqvist questioned the driver in Malmo. Inspector Lindqvist later arrested "
                     "him at the harbour.")  # fmt: skip
    assert "Maria Lindqvist" in names_of(ex) and not {"Inspector Lindqvist", "Inspector Maria Lindqvist"} & names_of(
        ex)  # fmt: skip


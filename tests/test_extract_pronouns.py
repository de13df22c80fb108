"""A press release under a headline has no topic for its pronouns to fall back on: "it" and "she" are the named
subject before them (pronouns.py), of the kind the pronoun asks for; a text with a topic keeps reading them as the
topic."""

from __future__ import annotations

import pytest

from offline_extract import extract_one
from vgrag.extraction.extract import OfflineExtractor
from vgrag.ingest import ingest_documents
from vgrag.nlp import load_spacy

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="spaCy model en_core_web_sm not installed")

PRESS = b"""# Brightwater Energy to build offshore wind farm near Hull

Brightwater Energy plc announced on Tuesday that it will build Humber Gateway North, a wind farm east of Hull.
The turbines will be supplied by Siemens Gamesa. "This is the largest investment in our history," said Sarah
Okonkwo, the chief executive. She joined Brightwater Energy plc from Equinor in 2019.

## Local reaction

Mike Ross of Hull City Council welcomed the plan. He said it would bring 400 jobs to the Humber Estuary.
"""


def test_pronouns_under_a_headline_are_the_named_subject_before_them(graph, embedder):
    ingest_documents(graph, embedder, OfflineExtractor(), [("press.md", PRESS)])
    rels = {(r.subject, r.predicate, r.object) for r in graph.iter_relations()}
    assert ("Brightwater Energy plc", "build", "Humber Gateway North") in rels, rels
    assert ("Sarah Okonkwo", "joined", "Brightwater Energy plc") in rels, rels
    # "it would bring 400 jobs": the only named subject before it is a person, so "it" is nobody named
    assert not [r for r in rels if r[2] == "Humber Estuary" and r[0] != "Mike Ross"], rels


def test_a_text_with_a_topic_reads_its_pronouns_as_the_topic():
    ex = extract_one("Pixar released the film in 1995. It was directed by John Lasseter.", "Toy Story")
    facts = {(t.subject, t.predicate, t.object) for t in ex.triples}
    assert ("Toy Story", "directed by", "John Lasseter") in facts, ex.triples

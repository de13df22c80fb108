"""A clause whose subject is denied states nothing ("provided that no homes are built in Flood Zone 2" gave the
report as built in Flood Zone 2), and a "not" covers the verbs joined to its verb by "or" ("shall not lend the Work
… or move it" gave the Borrower as moving it) — vgrag/extraction/shapes.py `denied`, `denies`; walk23 finding 4.
A planning report, a loan agreement, a tenancy agreement, a match report."""

from __future__ import annotations

import pytest

from vgrag.extraction.extract import OfflineExtractor
from vgrag.nlp import load_spacy

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="spaCy model en_core_web_sm not installed")


def _triples(text: str, title: str = "") -> set[tuple[str, str, str]]:
    (r,) = OfflineExtractor().extract_many([text], [title])
    return {(t.subject, t.predicate, t.object) for t in r.triples}


@pytest.mark.parametrize("text, title, place", [
    ("The Environment Agency has no objection, provided that no homes are built in Flood Zone 2.",
     "Planning Committee Report", "Flood Zone 2"),
    ("No player from Harbourside Rovers was selected for the Wales squad.", "", "Wales squad"),
])  # fmt: skip
def test_a_denied_subject_gives_no_fact(text, title, place):
    assert not [t for t in _triples(text, title) if t[2] == place and not t[1].startswith("not")]


@pytest.mark.parametrize("text, subject, verb, thing", [
    ("The Borrower shall not lend the Work to any third party or move it from the Exhibition gallery.",
     "Borrower", "move", "Exhibition gallery"),
    ("The Tenant must not sublet the flat or keep pets at 14 Alma Road without consent.", "Tenant", "keep",
     "14 Alma Road"),
])  # fmt: skip
def test_a_not_covers_the_verbs_joined_by_or(text, subject, verb, thing):
    triples = _triples(text)
    said = [t for t in triples if t[0] == subject and verb in t[1] and t[2] == thing]
    assert said and all(t[1].startswith("not ") for t in said), triples


def test_a_verb_joined_by_and_keeps_its_own_polarity():
    triples = _triples("The band did not tour Japan and recorded an album in Berlin.", "The Wombats")
    assert ("The Wombats", "recorded in", "Berlin") in triples, triples

"""A section of a report opening with a name that shares one word with the document's long title is about that
name, not the title (vgrag/extraction/clauses.py, `ClauseReader.named`; walk23: "Brackley Fen Town Council objects
…" under "South Fenland District Council — Planning Committee Report" gave the report as the objector). The first
sentence's subject stands for the topic only when it holds half or more of the title's words ("Rodney George Laver"
under "Rod Laver")."""

from __future__ import annotations

import pytest

from vgrag.extraction.extract import OfflineExtractor
from vgrag.nlp import load_spacy

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="spaCy model en_core_web_sm not installed")


def _triples(text: str, title: str) -> set[tuple[str, str, str]]:
    (r,) = OfflineExtractor().extract_many([text], [title])
    return {(t.subject, t.predicate, t.object) for t in r.triples}


@pytest.mark.parametrize("title, text, subject", [
    ("Eastmoor Water Services — Annual Drinking Water Quality Report",
     "Greenway Parish Council objected to the new treatment works at Holm Lane.",
     "Greenway Parish Council"),
    ("Northfield Hospital Trust: Board Report on Theatre Capacity",
     "Westgate Clinic Trust transferred 40 patients to Northfield in March.", "Westgate Clinic Trust"),
])  # fmt: skip
def test_a_name_sharing_one_word_with_a_long_title_is_itself(title, text, subject):
    triples = _triples(text, title)
    assert [t for t in triples if t[0] == subject], triples
    assert not [t for t in triples if t[0] == title], triples


def test_the_full_name_opening_an_article_is_still_its_topic():
    text = "Rodney George Laver (born 9 August 1938) is an Australian former tennis player. He won Wimbledon in 1961."
    triples = _triples(text, "Rod Laver")
    assert [t for t in triples if t[0] == "Rod Laver" and "Wimbledon" in t[2]], triples
    assert not [t for t in triples if t[0] == "Rodney George Laver"], triples

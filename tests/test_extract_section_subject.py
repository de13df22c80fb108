"""A later section of a report opening with a name that shares one word with the document's title is about that
name, not the title (vgrag/extraction/clauses.py `ClauseReader.named`, extract.pool_topics; walk23: "Brackley Fen
Town Council objects …" under "South Fenland District Council — Planning Committee Report" gave the report as the
objector). Only a document's opening sentence names its topic by another name ("Rodney George Laver" under "Rod
Laver")."""

from __future__ import annotations

import pytest

from vgrag.extraction.extract import OfflineExtractor
from vgrag.nlp import load_spacy

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="spaCy model en_core_web_sm not installed")


def _triples(text: str, title: str, opening: str = "") -> set[tuple[str, str, str]]:
    """The triples of `text` given after the document's `opening` section, both under `title`."""
    texts = [opening, text] if opening else [text]
    results = OfflineExtractor().extract_many(texts, [title] * len(texts))
    return {(t.subject, t.predicate, t.object) for t in results[-1].triples}


@pytest.mark.parametrize("title, opening, text, subject", [
    ("Northfield District Council — Planning Committee Report",
     "The application seeks permission for twelve homes on land east of Mill Road.",
     "Holme Parish Council objects to the scheme on the grounds of flood risk.", "Holme Parish Council"),
    ("Northfield Hospital Trust: Board Report on Theatre Capacity",
     "Theatre capacity fell by nine per cent in the second quarter.",
     "Westgate Clinic Trust transferred 40 patients to Northfield Hospital in March.", "Westgate Clinic Trust"),
])  # fmt: skip
def test_a_later_section_opening_with_a_name_sharing_a_word_with_the_title_is_about_that_name(
    title, opening, text, subject
):
    triples = _triples(text, title, opening)
    assert [t for t in triples if t[0] == subject], triples
    assert not [t for t in triples if t[0] == title], triples


def test_the_full_name_opening_an_article_is_still_its_topic():
    text = "Rodney George Laver (born 9 August 1938) is an Australian former tennis player. He won Wimbledon in 1961."
    triples = _triples(text, "Rod Laver")
    assert [t for t in triples if t[0] == "Rod Laver" and "Wimbledon" in t[2]], triples
    assert not [t for t in triples if t[0] == "Rodney George Laver"], triples

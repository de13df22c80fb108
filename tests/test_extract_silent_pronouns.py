"""In a document that never names its topic (aboutness.py: a report under a title no chunk writes), "it" is the thing
just written of, not the title: "The site is a former quarry … It is bounded by the A46" says nothing of the report
(vgrag/extraction/pronouns.py `silent_antecedent`; walk23: the planning report's title was the subject of "bounded
by Mill Lane", "withdrew", "releases"), and a verb after a preposition ("withdrew it … after receiving …") takes the
subject of the verb it hangs on. An article that names its topic keeps "it" as its topic."""

from __future__ import annotations

import pytest

from vgrag.extraction.extract import OfflineExtractor
from vgrag.nlp import load_spacy

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="spaCy model en_core_web_sm not installed")

TITLE = "Ashby District Council — Planning Committee Report 2025/14"
CHUNKS = [
    "The site is a former quarry at the western edge of Ashby. It is bounded by the A46 to the west.",
    "Holme Parish Council objects to the scheme. The Environment Agency raised an objection in March but withdrew it "
    "after receiving a new flood risk assessment from Brookfield Homes.",
]


def _triples(texts: list[str], title: str) -> set[tuple[str, str, str]]:
    results = OfflineExtractor().extract_many(texts, [title] * len(texts))
    return {(t.subject, t.predicate, t.object) for r in results for t in r.triples}


def test_it_in_a_report_that_never_names_its_title_is_not_the_title():
    triples = _triples(CHUNKS, TITLE)
    assert not [t for t in triples if t[0] == TITLE], triples
    assert [t for t in triples if t[0] == "Environment Agency" and "flood risk assessment" in t[2]], triples


def test_it_in_an_article_is_its_topic():
    text = "Ashby Quarry is a former limestone quarry in Leicestershire. It is bounded by the A46 to the west."
    assert ("Ashby Quarry", "bounded by", "A46") in _triples([text], "Ashby Quarry")

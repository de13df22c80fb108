"""Long names that are not names (#31, session 23): a place glued onto an organisation because NER drew the span
across a phrase the parser hangs elsewhere ("member of the Legislative Assembly for Kew"), and a quoted
translation that is a sentence taken for a title. Biographies and film articles written for these tests; each test
fails without its mechanism (`mentions.parsed_span`, `mentions.quoted_sentence`)."""

from __future__ import annotations

import pytest

from tests.offline_extract import extract_one, names_of
from vgrag.nlp import load_spacy

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="spaCy model en_core_web_sm not installed")


def test_a_seat_after_for_is_whose_member_not_part_of_the_house():
    ex = extract_one(
        "Margaret Ellison (born 3 May 1951) is an Australian former politician. She was the member of the House of "
        "Representatives for Wide Bay from the 1990 election until her retirement in 2016.",
        "Margaret Ellison",
    )
    names = names_of(ex)
    assert "House of Representatives" in names
    assert not any(n.endswith("for Wide Bay") for n in names)


def test_a_quoted_sentence_is_no_title_and_the_film_keeps_its_facts():
    ex = extract_one(
        'Mera Saaya Laut Aa (Translated into English as "Beware, you might lose your shadow") is a 1994 Indian '
        "Hindi-language drama film starring Ravi Kapoor and directed by Anil Mehta.",
        "Mera Saaya Laut Aa (1994 film)",
    )
    assert not any("you might" in n for n in names_of(ex))
    assert ("Mera Saaya Laut Aa", "is", "Indian Hindi-language drama film") in {
        (t.subject, t.predicate, t.object) for t in ex.triples
    }


def test_a_quoted_title_that_is_a_clause_in_title_case_stays_a_title():
    ex = extract_one(
        "The Harbour Lights are a rock band from Leeds. "
        'Their single "You Might Think" was released by Polydor in 1984.',
        "The Harbour Lights",
    )
    assert "You Might Think" in names_of(ex)

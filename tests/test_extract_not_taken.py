"""A prepositional phrase naming the alternative not taken ("instead of Bristol", "rather than to Basel") is no fact:
read as one it says the opposite of the text (shapes.not_taken). Sentences in three domains — a clinical trial's
monitoring plan, a court listing, a security disclosure — each with the fact that is true beside it."""

from __future__ import annotations

import pytest

from offline_extract import extract_one, facts
from vgrag.nlp import load_spacy

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="spaCy model en_core_web_sm not installed")


def triples(text: str, title: str = "") -> set[tuple[str, str, str]]:
    return facts([extract_one(text, title)])


@pytest.mark.parametrize(
    ("text", "true", "not_taken"),
    [
        ("Dr. Lucía Paredes sent the samples to Leiden rather than to Basel.", "Leiden", "Basel"),
        ("Helix Security Labs reported the flaw to Larkspur instead of to Open Queue Foundation.", "Larkspur",
         "Open Queue Foundation"),
        ("The Kestrel Shipping appeal was heard in Cardiff instead of Bristol.", "Cardiff", "Bristol"),
    ],
)  # fmt: skip
def test_the_alternative_not_taken_is_no_fact(text: str, true: str, not_taken: str) -> None:
    got = triples(text)
    assert any(o == true for _, _, o in got), got
    assert not any(not_taken in (s, o) for s, _, o in got), got


def test_a_phrase_after_instead_of_is_not_taken_either():
    # spaCy hangs "instead" on "of", and "of" on the clause: the phrase after it is the verb's own sibling
    got = triples("Liver enzymes must be measured every two weeks instead of at selected visits.")
    assert not any(o == "selected visits" for _, _, o in got), got

"""A travel guide (tests/fixtures/travel_guide.md, written by a tester as a new user's upload): facts hang on what
they are about — the town its subtitled title names, a church whose heading is written "St. Ebba's Church" — and a
sentence saying something does not exist gives no fact, or a denied one."""

from __future__ import annotations

import pytest
from offline_extract import extract_one, facts, ingested

from vgrag.documents.sources import document_sections
from vgrag.documents.topics import names_it, section_topics
from vgrag.extraction.shapes import title_named
from vgrag.nlp import load_spacy

nlp = load_spacy()
pytestmark = pytest.mark.skipif(nlp is None, reason="spaCy's en_core_web_sm is not installed")
TITLE = "Quillhaven: A Visitor's Guide to the Old Town"


def test_the_guide_s_facts_hang_on_the_town_and_the_church_not_on_its_title():
    found = facts(ingested("travel_guide.md"))
    names = {x for s, _, o in found for x in (s, o)}
    assert TITLE not in names  # the title is a guide to the town, not a thing the text says anything of
    assert ("Quillhaven", "is", "small harbour town") in found
    assert ("Peninsula Way", "runs from", "Quillhaven") in found
    church = {(p, o) for s, p, o in found if s == "St. Ebba's Church"}  # its section's topic, "St." and all
    assert {("is", "oldest building"), ("rebuilt by", "Peter Quayle"), ("contains grave of", "Hamish Calder")} <= church
    assert not any("shop" in p for _, p, _ in found)  # "there is no shop between the lighthouse and Dunlow"


def test_a_heading_with_st_and_a_possessive_is_the_name_its_text_uses():
    text = "St. Ebba's Church is the oldest building in Quillhaven. Its bell tower was rebuilt in 1703."
    assert names_it("St. Ebba's Church", text, nlp)
    assert not names_it("Walking", "The Cliff Path links the harbour with Skerry Point.", nlp)


def test_a_subtitled_title_is_named_by_the_part_the_text_writes_as_it_is_written():
    guide = "Quillhaven is a small harbour town. The Peninsula Way runs from Quillhaven to Dunlow."
    assert title_named(TITLE, guide.casefold(), guide) == "Quillhaven"
    album = "Capricorn One: Singles & Rarities is a compilation album by Capricorn One."  # the title written whole
    named = "Capricorn One: Singles & Rarities"
    assert title_named(named, album.casefold(), album) == named
    study = "This case study follows Northwind Logistics through one winter."  # "case study" is no name here
    assert title_named("Case Study: Northwind Logistics", study.casefold(), study) == "Case Study: Northwind Logistics"


def test_st_is_a_word_of_a_place_s_name_and_a_title_is_a_person_s():
    names = {x for t in extract_one("In May 2001 the band flew to St. Louis. St. Louis is a city in Missouri.").triples
             for x in (t.subject, t.object)}  # fmt: skip
    assert "St. Louis" in names and "Louis" not in names
    person = {x for t in extract_one("Dr. Emmanuel Mignot joined Stanford University in 1993.").triples
              for x in (t.subject, t.object)}  # fmt: skip
    assert "Emmanuel Mignot" in person


def test_what_a_sentence_denies_is_no_fact_or_a_denied_one():
    text = ("Harwick Bank was founded by Jane Moss in 1901. Harwick Bank has no branch in Leeds. "
            "There is no bank in Dunlow.")  # fmt: skip
    found = {(t.subject, t.predicate, t.object) for t in extract_one(text, "Harwick Bank").triples}
    assert ("Harwick Bank", "not has branch in", "Leeds") in found
    assert not any(p.startswith("has branch") or o == "Dunlow" for _, p, o in found)


def test_a_title_saying_what_the_document_does_is_no_topic():
    """A title "Eating and Sleeping in Quillhaven" (a page of the same guide) names nothing: its sections' facts
    are their own ("She worked as a schoolteacher" is no fact of the page), not the title's."""
    found = facts(ingested("travel_guide_food.html"))
    assert not {s for s, _, _ in found} & {"Eating and Sleeping in Quillhaven"}
    assert ("The Tidewater Bakery", "run by", "Ines Varga") in found
    assert ("Orla Menzies", "born in village of", "Tressock") in found
    assert section_topics(document_sections("saving.md", b"# Finding Nemo\n\nFinding Nemo is a 2003 film.\n"),
                          load_spacy) == ["Finding Nemo"]  # fmt: skip  # a title the text writes is a name

"""Release notes (tests/fixtures/cms_release_notes.md, written before the extractor read it) and the walk-through's
changelog (session 21): facts hang on the product the title names, not on the title, and a chunk that never names
its topic — a "Fixed" list under the product's name — is not about it, so its generic subjects are not the topic."""

from __future__ import annotations

import pytest
from offline_extract import extract_one, facts, ingested, names_of

from vgrag.documents.structure import Section
from vgrag.documents.topics import named_part, refers, section_topics
from vgrag.nlp import load_spacy

nlp = load_spacy()
pytestmark = pytest.mark.skipif(nlp is None, reason="spaCy's en_core_web_sm is not installed")


def test_release_notes_facts_hang_on_the_product_and_not_on_another_section_s_subjects():
    found = facts(ingested("cms_release_notes.md"))
    names = {x for s, _, o in found for x in (s, o)}
    assert "Fernhill CMS Release Notes" not in names  # the title is the product's notes, not a thing
    assert ("Fernhill CMS", "maintained by", "Tarn Foundation") in found
    on_product = {(p, o) for s, p, o in found if s == "Fernhill CMS"}
    # "The queue was designed by …", "The flaw was reported by …", "the fix was tested by …": other sections' things
    assert not on_product & {("designed by", "Nadia Okafor"), ("tested by", "Bruno Salas")}
    assert not any(o.startswith("Ines Vidal") for _, o in on_product)


def test_a_title_is_named_by_the_start_its_text_uses_as_a_name():
    changelog = "Larkspur MQ is an open-source message queue maintained by the Open Queue Foundation."
    assert named_part("Larkspur MQ Changelog", changelog, nlp) == "Larkspur MQ"
    guide = "This guide is for staff. Reports of Kestrel Analytics are written in British English."
    assert named_part("Kestrel Analytics Style Guide", guide, nlp) == "Kestrel Analytics"
    report = "The Annual General Meeting was held in Leeds. Revenue rose by 4 %."  # a name starting as it does
    assert named_part("Annual Report 2025", report, nlp) == "Annual Report 2025"
    match = "Kingsmere Athletic came from behind to beat Harbourside Rovers at Castle Lane."  # the rest names a team
    assert (
        named_part("Kingsmere Athletic 3–2 Harbourside Rovers", match, nlp)
        == "Kingsmere Athletic 3–2 Harbourside Rovers"
    )


def test_a_section_under_headings_that_are_no_names_keeps_the_topic_only_while_it_talks_about_it():
    sections = [
        Section(("Fernhill CMS Release Notes",), "Fernhill CMS is a content management system."),
        Section(("Fernhill CMS Release Notes", "5.4.0", "Fixed"), "Editors with large images received an error."),
        Section(("Fernhill CMS Release Notes", "5.4.0", "Added"), "It now exports the audit log as CSV."),
        Section(("Alan Turing",), "Alan Turing was an English mathematician."),
        Section(("Alan Turing", "Early life"), "Turing was born in Maida Vale, London."),
    ]
    assert section_topics(sections, load_spacy) == ["Fernhill CMS", "", "Fernhill CMS", "Alan Turing", "Alan Turing"]
    assert refers("Alan Turing", "In 1931 he went to King's College.") and not refers("Alan Turing", "The war ended.")


def test_a_name_right_after_its_noun_is_what_the_noun_means_and_a_comma_s_is_a_second_description():
    ex = extract_one('Roopa Ganguly is known for her role in B R Chopra\'s hit television series "Mahabharat".')
    assert "Mahabharat" in names_of(ex) and not any("television series" in n for n in names_of(ex))
    ex = extract_one("Scott Young was a Canadian journalist, the father of Neil Young.", "Scott Young")
    assert "Canadian journalist" in names_of(ex)

"""Manuals and guides (a new domain, from a new user's upload): instructions to the reader are no facts about the
document's topic, a company named like the product is not the product, and a title's kind ("— User Manual") is not
part of the name the text uses."""

from __future__ import annotations

from offline_extract import extract_one

MANUAL = "Vellora CM-40 Espresso Machine — User Manual"


def test_instructions_to_the_reader_are_no_facts_about_the_topic():
    text = (
        "Rinse the water tank and fill it with fresh cold water up to the MAX line. When the light stays on, place a "
        "cup under the group head and press the coffee button. If it pours too fast, use a finer grind. Purge the "
        "steam wand into the drip tray, then dip its tip just below the surface of cold milk."
    )
    ex = extract_one(text, MANUAL)
    assert not [t for t in ex.triples if t.subject in (MANUAL, "Vellora CM-40")], ex.triples


def test_a_company_sharing_the_products_first_word_stays_itself():
    ex = extract_one(
        "Vellora Appliances guarantees the Vellora CM-40 espresso machine against defects for two years.",
        "Vellora CM-40 Warranty and Service Guide",
    )
    assert ("Vellora Appliances", "guarantees") in {(t.subject, t.predicate) for t in ex.triples}, ex.triples


def test_a_titles_kind_is_not_part_of_the_name_the_text_uses():
    ex = extract_one("The Vellora CM-40 is a semi-automatic espresso machine made by Vellora Appliances.", MANUAL)
    assert {t.subject for t in ex.triples} == {"Vellora CM-40"}, ex.triples


def test_a_full_name_in_the_lead_is_still_the_shortened_title():
    text = "Rodney George Laver is an Australian former tennis player. He won 11 Grand Slam titles."
    ex = extract_one(text, "Rod Laver")
    assert ex.triples and {t.subject for t in ex.triples} == {"Rod Laver"}, ex.triples


def test_a_huge_title_with_a_kind_is_read_in_linear_time():
    """A 20,000-word heading before " — User Manual": every start of its words was looked for (minutes); now only
    a name's first words are."""
    import time

    from vgrag.extraction.shapes import title_named

    title = "a " * 20_000 + "— User Manual"
    t0 = time.perf_counter()
    assert title_named(title, "x " * 600) == title
    assert time.perf_counter() - t0 < 2.0


def test_a_clause_whose_subject_the_parser_lost_is_not_about_the_title():
    """ "Repair claims in Spain … are handled by X": the parser reads "claims" as a verb and "handled" has no
    subject left; the claims, not the guide, are handled."""
    guide = "Corvane K9 Kettle Warranty Guide"
    ex = extract_one(
        "Repair claims in Spain and Portugal are handled by Iberia Servicios Tecnicos, which runs a workshop in "
        "Valencia. To register the kettle you need the serial number printed under the base.",
        guide,
    )
    assert not [t for t in ex.triples if t.subject == guide], ex.triples


def test_a_title_that_reads_as_a_clause_keeps_its_facts():
    """A verb the parser makes a subject is a misread noun ("Repair claims …") unless it holds the title's words:
    "Every Man Dies Alone is a novel …" is about the title."""
    title = "Every Man Dies Alone"
    ex = extract_one("Every Man Dies Alone is a 1962 novel by the Welsh author Gwen Parry, set in Cardiff.", title)
    assert (title, "Gwen Parry") in {(t.subject, t.object) for t in ex.triples}, ex.triples

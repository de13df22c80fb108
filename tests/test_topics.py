"""Which heading a passage is about (vgrag/documents/topics.py): report-style headings that name nothing are no
topic; names, titles and the disease/drug headings of notes are."""

from __future__ import annotations

from pathlib import Path

import pytest

from vgrag.documents.sources import document_sections
from vgrag.documents.topics import names_it, section_topics
from vgrag.ingest import plan_chunks
from vgrag.nlp import load_spacy

FIX = Path(__file__).parent / "fixtures"
nlp = load_spacy()
needs_spacy = pytest.mark.skipif(nlp is None, reason="spaCy's en_core_web_sm is not installed")

POSTMORTEM = b"""# Postmortem: search outage of 12 March 2024

## Impact

Between 14:05 and 15:40 UTC, search requests from the Android app timed out. The Orders API kept serving cached
results. The root cause was not known until 15:10.

## Root Cause

A schema migration locked the products table for 95 minutes. The root cause was a missing index on the
tenant column, which Marta Kowalski found in the slow query log.

## Action Items

Add the index before the next migration (owner: Marta Kowalski). Review the impact of long-running migrations.
"""

NOTES = b"""# Neurology notes

## Narcolepsy

Narcolepsy is a chronic sleep disorder. Most patients with narcolepsy report daytime sleepiness.

### Treatment

Modafinil is prescribed first; treatment is adjusted after a month.

## Levetiracetam

Levetiracetam is an anticonvulsant used to treat epilepsy. It was approved in 1999.

## Treatment

Patients are reviewed every six months without treatment changes.
"""

ARTICLES = b"""# Films and people

## Christopher Nolan

Christopher Edward Nolan (born 30 July 1970) is a British-American film director. He directed The Prestige.

## The Prestige (film)

The Prestige is a 2006 mystery thriller film directed by Christopher Nolan.
"""


def _topics(name: str, data: bytes) -> dict[str, str]:
    return {c.title: c.topic for c in plan_chunks(name, data)}


@needs_spacy
def test_report_headings_that_name_nothing_are_no_topic():
    topics = _topics("postmortem.md", POSTMORTEM)
    assert set(topics.values()) == {""}, topics  # not "Impact", "Root Cause", "Action Items"
    # the title is then the whole path, so a passage still says where it is
    assert "Postmortem: search outage of 12 March 2024 › Root Cause" in topics


@needs_spacy
def test_a_heading_the_text_names_or_makes_its_subject_is_the_topic():
    topics = _topics("notes.md", NOTES)
    assert topics["Narcolepsy"] == "Narcolepsy"  # "Narcolepsy is …", though the text also writes "narcolepsy"
    assert topics["Narcolepsy › Treatment"] == "Narcolepsy"  # "treatment is adjusted": no name, no definition
    assert topics["Levetiracetam"] == "Levetiracetam"
    assert topics["Neurology notes › Treatment"] == ""  # "without treatment changes": no name


@needs_spacy
def test_a_nested_article_whose_text_paraphrases_its_heading_keeps_it():
    topics = _topics("films.md", ARTICLES)
    assert topics == {"Christopher Nolan": "Christopher Nolan", "The Prestige (film)": "The Prestige"}


@needs_spacy
def test_new_domain_fixtures():
    for name in ("postmortem.docx", "court_judgment.pdf"):
        sections = document_sections(name, (FIX / name).read_bytes())
        assert set(section_topics(sections, load_spacy)) == {""}, name  # not "Impact", "The Facts", "The Law"
    sections = document_sections("clinical_notes.md", (FIX / "clinical_notes.md").read_bytes())
    topics = dict(zip((s.heading[-1] for s in sections), section_topics(sections, load_spacy), strict=True))
    assert topics["Chlorambucil"] == topics["Side effects"] == "Chlorambucil"
    assert topics["Narcolepsy"] == topics["Diagnosis"] == "Narcolepsy"  # not "Diagnosis"
    assert topics["Treatment"] == ""  # "observed without treatment"


@needs_spacy
def test_a_heading_its_section_defines_is_the_topic():
    data = (b"# Cardiology notes\n\n## Hypertension\n\nHypertension is a long-term condition in which the blood "
            b"pressure in the arteries is raised. It rarely causes symptoms.\n\n## Anaemia\n\nAnaemia is a decrease "
            b"in the number of red blood cells. Iron deficiency is the commonest cause of anaemia.\n")  # fmt: skip
    assert set(_topics("cardiology.md", data).values()) == {"Hypertension", "Anaemia"}  # common nouns, not names


@needs_spacy
def test_a_heading_inside_a_longer_name_is_not_named():
    text = "The Law Society of England and Wales issued guidance. Counsel relied on the guidance."
    assert not names_it("The Law", text, nlp)
    assert names_it("The Law Society of England and Wales", text, nlp)
    text = "The company follows the Norwegian Code of Practice for Corporate Governance. The board has seven members."
    assert not names_it("Corporate Governance", text, nlp)  # a name holding the heading's words is another name
    assert not names_it("Root Cause", "The root cause was a missing index.", nlp)


def test_outermost_headings_stay_topics_and_numbers_are_not_part_of_a_name():
    sections = document_sections("a.md", b"# Louis V of France\n\nLouis V (c. 967 - 987) was King of the Franks.")
    assert section_topics(sections, lambda: None) == ["Louis V of France"]  # a title is what a document is about
    sections = document_sections("b.md", b"# Supply contract\n\n## 2. Supply of Products\n\nThe Supplier ships goods.")
    assert section_topics(sections, lambda: None) == [""]  # no mention of "Supply of Products" (no spaCy: mentions)
    sections = document_sections("c.md", b"# 2. Marie Curie\n\nMarie Curie was a physicist in Paris.")
    assert section_topics(sections, lambda: None) == ["Marie Curie"]  # a section number is not part of a name


@needs_spacy
def test_held_out_annual_report_keeps_its_segments_and_drops_its_report_headings():
    sections = document_sections("annual_report.pdf", (FIX / "annual_report.pdf").read_bytes())
    topics = dict(zip((s.heading[-1] for s in sections), section_topics(sections, load_spacy), strict=True))
    for segment in ("Offshore Wind Services", "Aquaculture Technology", "Ship Design"):
        assert topics[segment] == segment, topics  # "Offshore Wind Services installs and maintains …"
    for report in ("Financial Review", "Outlook", "Risk Factors", "Corporate Governance"):
        assert topics[report] != report, topics  # a label of the report's own, or another name's words


KETTLE = """# Corvane K9 Kettle — Instruction Manual

## About your kettle

The Corvane K9 is a 1.7-litre cordless kettle made by Corvane Home of Leeds. Its heating element was supplied by
Strix.

## Descaling

Descale the kettle every month with Corvane ScaleAway. Limescale builds up faster where the water is hard.

## Warranty

Repairs in Ireland are handled by Liffey Appliance Care of Dublin.
"""


def test_a_title_is_named_once_for_its_whole_document():
    """A section that never names the product ("Descaling") still has the name the document gives its title, not
    the whole title with its kind ("— Instruction Manual")."""
    topics = _topics("kettle.md", KETTLE.encode())
    assert set(topics.values()) == {"Corvane K9"}, topics


MINUTES = """# Eastwick Parish Council — Minutes of the Annual Parish Meeting

**Date:** Monday 12 May 2025, 7.30 pm
**Venue:** Village Hall, Church Lane, Eastwick

## 1. Chair's report

The council agreed to buy a defibrillator for the village hall. Cllr Ruth Bamber will order it from St John Supplies.
"""
MANUAL = """# Kestrel K7 Stand Mixer — User Manual

## Before first use

The Kestrel K7 has a 5-litre bowl and a 1,000 W motor. Wash the bowl and the beater in warm soapy water.
"""


@pytest.mark.skipif(load_spacy() is None, reason="spaCy model en_core_web_sm not installed")
def test_a_place_the_title_names_its_body_after_is_not_the_topic():
    # the text writes "Eastwick" only in the venue line: the minutes are the parish council's, not the village's
    assert set(_topics("minutes.md", MINUTES.encode()).values()) == {"Eastwick Parish Council"}
    # control: the manual's text talks about the "Kestrel K7" (a subject): the title's name, shortened
    assert set(_topics("manual.md", MANUAL.encode()).values()) == {"Kestrel K7"}


GALLERY = b"""# Harrowgate Gallery \xe2\x80\x93 Press Release

## Exhibiting artists

The following notes are for catalogue copy. Please check with the press office before shortening them.

### Odile Marchetti \xe2\x80\x93 painter, *Low Tide*

Odile Marchetti was born in Trieste and trained at the Accademia di Belle Arti in Venice. She moved to Leeds in 2011
and taught at the Leeds School of Art until 2019. Her series *Low Tide* was shortlisted for the Jerwood Prize.

### Kwame Ofori-Atta \xe2\x80\x94 sculptor

Born in Kumasi, Kwame Ofori-Atta studied at the Slade. In 2019 he showed at the Baltic in Gateshead.
"""


@needs_spacy
def test_a_biography_under_a_name_then_its_role_is_that_persons():
    """A heading "Name – role" heads the named person's section: "She moved to Leeds" is hers, not the gallery's."""
    sections = document_sections("gallery.md", GALLERY)
    topics = dict(zip((s.heading[-1] for s in sections), section_topics(sections, load_spacy), strict=True))
    assert topics["Odile Marchetti \u2013 painter, Low Tide"] == "Odile Marchetti"
    assert topics["Kwame Ofori-Atta \u2014 sculptor"] == "Kwame Ofori-Atta"
    assert topics["Exhibiting artists"] != "Odile Marchetti"


@needs_spacy
def test_her_facts_in_her_biography_are_hers():
    from vgrag.extraction.extract import OfflineExtractor

    chunks = plan_chunks("gallery.md", GALLERY)
    found = OfflineExtractor().extract_many([c.parse_text or c.text for c in chunks], [c.topic for c in chunks])
    facts = {(t.subject, t.predicate, t.object) for r in found for t in r.triples}
    assert ("Odile Marchetti", "moved to", "Leeds") in facts
    assert ("Kwame Ofori-Atta", "studied at", "Slade") in facts
    assert ("Kwame Ofori-Atta", "born in", "Kumasi") in facts  # a predicate is no sentence: "Born" is lower-cased
    assert not any(t[0].startswith("Harrowgate") and t[2] in ("Leeds", "Slade") for t in facts)


@needs_spacy
def test_a_titles_place_after_a_comma_qualifies_the_name_the_text_writes():
    report = (b"# Land at Mill Ings, Garston, Westmarch\n\n## Summary\n\nHarwick Archaeology excavated land at "
              b"Mill Ings, Garston, in May 2025 for Pelham Estates Ltd.\n\n## Results\n\nThe site produced a kiln.\n")
    sections = document_sections("report.md", report)
    assert set(section_topics(sections, load_spacy)) == {"Land at Mill Ings"}

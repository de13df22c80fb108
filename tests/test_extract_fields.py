"""Facts of ordinary documents' header blocks and lists (walk23 findings 5-7): a "Label: value" line whose value
starts with a name is a one-field table row, (topic, label, name); a list under a heading that is a label gives the
same for each item; a short capitalised word a document writes before people's names ("Sgt", "Cllr") is a title,
like "Dr."; a defined term is merged with its party across an address, and '"the Software" means <name>' defines
it. The texts are made up for these tests, in more than one domain."""

from __future__ import annotations

import pytest

from vgrag.extraction.extract import OfflineExtractor
from vgrag.ingest.passages import plan_chunks
from vgrag.nlp import load_spacy

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="spaCy model en_core_web_sm not installed")

SURVEY = b"""<html><body><h1>Oakridge Housing Association</h1>
<p>Surveyor: Hannah Brierley, Senior Building Surveyor</p>
<p>Client: Oakridge Housing Association, 12 Mill Road, Ashford</p>
<p>Contractor: Pellow Roofing Services</p>
<p>Note: Hannah Brierley will revisit the roof in March.</p>
<h2>Findings</h2><p>Oakridge Housing Association owns the terrace at Fern Row. The roof of number 4 leaks at the
valley gutter, and the flashing on number 6 has slipped.</p></body></html>"""

GOVERNORS = b"""# Westfield Primary School

## Attendees

- Dr Fiona Marsh (Chair)
- Peter Okoro (Headteacher)
- Grace Liddell

## Finance

Westfield Primary School will spend the capital grant on new windows. The governors approved the budget.
"""

PARISH = b"""# Elmbridge Parish Council

## Present

- Cllr Joan Whitby
- Cllr Amir Haddad
- Cllr Ruth Penrose

## Footpaths

Cllr Whitby proposed the footpath repairs, and Cllr Haddad seconded the proposal.
"""

LAB = b"""# Halvorsen Lab

## Apologies

- Tomasz Grabowski
- Ines Carvalho (conference)

## Results

Halvorsen Lab repeated the binding assay with the new buffer, and the signal doubled.
"""


def _triples(name: str, data: bytes) -> set[tuple[str, str, str]]:
    chunks = plan_chunks(name, data)
    found = OfflineExtractor().extract_many([c.parse_text or c.text for c in chunks], [c.topic for c in chunks])
    return {(t.subject, t.predicate, t.object) for r in found for t in r.triples}


def test_the_people_of_a_list_are_people_whose_surname_alone_is_theirs():
    chunks = plan_chunks("parish.md", PARISH)
    found = OfflineExtractor().extract_many([c.parse_text or c.text for c in chunks], [c.topic for c in chunks])
    assert {"Joan Whitby", "Amir Haddad", "Ruth Penrose"} <= {p for r in found for p in r.people}, found


def test_label_lines_of_a_header_block_give_the_topic_s_fields():
    got = _triples("survey.html", SURVEY)
    assert ("Oakridge Housing Association", "surveyor", "Hannah Brierley") in got, got
    assert ("Oakridge Housing Association", "contractor", "Pellow Roofing Services") in got, got
    # a value that goes on as a clause is a sentence, not a field
    assert not {t for t in got if t[1] == "note"}, got


def test_a_list_under_a_label_heading_gives_each_item_s_name():
    got = _triples("governors.md", GOVERNORS)
    assert {("Westfield Primary School", "attendees", n) for n in ("Fiona Marsh", "Peter Okoro", "Grace Liddell")} \
        <= got, got  # fmt: skip
    got = _triples("lab.md", LAB)
    assert {("Halvorsen Lab", "apologies", n) for n in ("Tomasz Grabowski", "Ines Carvalho")} <= got, got


INCIDENT = [
    "Insp Carlos Mendes and Insp Ruth Okafor attended the depot at 21:40. Insp Mendes spoke to the driver.",
    "The parish council met on Monday. Cllr Joan Whitby proposed the footpath repairs, and Cllr Whitby later "
    "thanked Cllr Amir Haddad for the survey.",
]
GIVEN = ["Anna Kowalski chaired the meeting.", "Anna Berg took the minutes, and Anna Kowalski closed it."]


def test_a_short_word_written_before_names_is_a_title_not_part_of_them():
    found = OfflineExtractor().extract_many(INCIDENT, ["", ""])
    names = {x for r in found for t in r.triples for x in (t.subject, t.object)}
    assert not {n for n in names if n.split()[0] in ("Insp", "Cllr")}, names
    people = {p for r in found for p in r.people}
    assert {"Carlos Mendes", "Joan Whitby"} <= people, people
    assert not {p for p in people if p.split()[0] in ("Insp", "Cllr")}, people
    # a given name before different surnames is no title
    found = OfflineExtractor().extract_many(GIVEN, ["", ""])
    assert {"Anna Kowalski", "Anna Berg"} <= {p for r in found for p in r.people}, found


LEASE = (
    'This lease is made on 1 May 2025 between Harrow Estates Ltd, 40 King Street, Manchester ("the Landlord") and '
    'Orchard Lane Bakery Ltd, 7 Tanner Street, Bristol ("the Tenant"). The Tenant shall pay the Landlord the rent '
    "on the first day of each month."
)
LICENCE = (
    '1.1 "the Software" means the accounting application Tidewater Ledger supplied by Brightwell Systems, version 4. '
    "1.2 The Customer may install the Software on ten computers."
)

WORKS = (
    '1.1 "the Works" means the extension Riverside Pavilion designed by Kaur Architects. 2.1 The Contractor shall '
    "complete the Works by 30 June 2026."
)


def test_a_defined_term_is_its_party_across_an_address_and_a_means_clause():
    lease, licence = OfflineExtractor().extract_many([LEASE, LICENCE], ["", ""])
    assert {("Harrow Estates Ltd", "Landlord"), ("Orchard Lane Bakery Ltd", "Tenant")} <= set(lease.defined), \
        lease.defined  # fmt: skip
    assert ("Tidewater Ledger", "Software") in licence.defined, licence.defined
    works = OfflineExtractor().extract_many([WORKS], [""])[0]
    assert ("Riverside Pavilion", "Works") in works.defined, works.defined  # the term in quotes, not '1.1 "the Works'
    assert ("Contractor", "complete", "Riverside Pavilion") in {(t.subject, t.predicate, t.object) for t in
                                                                works.triples}, works.triples  # fmt: skip

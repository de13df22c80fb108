"""Contracts, reports and judgments define short names in parentheses — 'Northwind Components Ltd, a company
registered in England (the "Supplier")': the defined term is the party it names, one entity. And three parse
shapes of legal prose that made junk: a particle that is also the preposition ("terminates on on"), a preposition
inside a case name ("relied v"), a demonstrative in a name ("This Supply Agreement")."""

from __future__ import annotations

import pytest

from offline_extract import extract_one
from vgrag.extraction.entities import graph_aliases
from vgrag.extraction.extract import OfflineExtractor
from vgrag.ingest import ingest_documents
from vgrag.nlp import load_spacy

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="spaCy model en_core_web_sm not installed")

CONTRACT = (
    b"# Supply Agreement\n\n"
    b'This Supply Agreement (the "Agreement") is made on 3 March 2021 between Northwind Components Ltd, a company '
    b'registered in England (the "Supplier"), and Harbor Medical Devices Inc, a Delaware corporation (the '
    b'"Buyer").\n\n## Supply\n\nThe Supplier shall deliver the Products to Rotterdam. The Buyer ordered the first '
    b"batch in May 2021.\n\n## Term\n\nThe Agreement terminates on 31 March 2026 unless renewed. Laura Bennett "
    b"signed for the Supplier.\n"
)


def test_a_defined_term_is_the_party_it_names(graph, embedder):
    ingest_documents(graph, embedder, OfflineExtractor(), [("agreement.md", CONTRACT)])
    names = {e.name for e in graph.iter_entities()}
    assert not {"Supplier", "Buyer", "Agreement"} & names, names
    rels = {(r.subject, r.predicate, r.object) for r in graph.iter_relations()}
    assert ("Northwind Components Ltd", "deliver to", "Rotterdam") in rels, rels
    assert ("Harbor Medical Devices Inc", "ordered in", "May 2021") in rels, rels
    assert ("Laura Bennett", "signed for", "Northwind Components Ltd") in rels, rels
    aliases = graph_aliases(graph)
    assert "Supplier" in aliases.of("Northwind Components Ltd")
    assert "Buyer" in aliases.of("Harbor Medical Devices Inc")


def test_a_quoted_word_in_brackets_that_names_nothing_before_it_defines_nothing():
    # a nickname in a quotation, not an apposition of a name: no merge, no lost fact
    ex = extract_one('The committee met in Leeds (see "Minutes") and approved the budget.', "Finance Committee")
    assert not ex.defined, ex.defined


def test_a_particle_that_takes_the_date_is_said_once():
    ex = extract_one("The Agreement terminates on 31 March 2026 unless renewed.", "Supply Agreement")
    preds = {t.predicate for t in ex.triples}
    assert "terminates on" in preds and not any("on on" in p for p in preds), ex.triples


def test_a_preposition_inside_a_case_name_is_no_predicate():
    ex = extract_one("Counsel for Kestrel relied on Hadley v Baxendale.", "Kestrel Foods v Aldmoor Logistics")
    facts = {(t.predicate, t.object) for t in ex.triples}
    assert ("relied on", "Hadley v Baxendale") in facts, ex.triples
    assert not any(t.predicate.endswith(" v") for t in ex.triples), ex.triples


def test_a_demonstrative_is_no_part_of_a_name():
    ex = extract_one("This Supply Agreement is governed by the laws of England and Wales.", "Contract")
    names = {x for t in ex.triples for x in (t.subject, t.object)}
    assert "Supply Agreement" in names and not any(n.startswith("This ") for n in names), ex.triples


REPORT = b"""<html><head><title>Halvorsen Marine Group ASA - Annual Report 2023</title></head><body>
<div class="h1">Board of Directors' Report 2023</div>
<div class="small">Halvorsen Marine Group ASA | Annual Report 2023 | Published 21 March 2024</div>
<div class="h2">Highlights</div>
<p>Halvorsen Marine Group ASA (the "Group") delivered record revenue of NOK 8,412 million in 2023.</p>
<div class="h2">Outlook</div>
<p>The Board expects revenue growth in 2024. The Group agreed to acquire Baltic Subsea Engineering AB.</p>
</body></html>"""


def test_a_label_set_apart_by_the_page_is_never_part_of_the_next_sentences_names(graph, embedder):
    # headings styled as <div class="h2">: the reader does not know them as headings, but each block is a line of its
    # own, and a line is a sentence to the parser ("Highlights Halvorsen Marine Group ASA", "Outlook The Board")
    ingest_documents(graph, embedder, OfflineExtractor(), [("report.html", REPORT)])
    names = {e.name for e in graph.iter_entities()}
    assert not [n for n in names if n.startswith(("Highlights", "Outlook"))], names
    rels = {(r.subject, r.predicate, r.object) for r in graph.iter_relations()}
    assert ("Halvorsen Marine Group ASA", "acquire", "Baltic Subsea Engineering AB") in rels, rels

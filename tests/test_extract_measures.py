"""Documents in new domains (a cookbook page, a drug leaflet, a building survey, a sale catalogue): a measure is no
part of a name and names nothing alone; "°C" is one token; a score or post-nominal letters after a name are not its
head; list items are sentences to the parser; a heading over a repeated template's labels is its items' topic."""

from __future__ import annotations

from offline_extract import extract_one, facts, ingested, names_of

from vgrag.documents.structure import Section
from vgrag.documents.topics import section_topics
from vgrag.extraction.extract import OfflineExtractor
from vgrag.ingest.passages import paragraph_heads, parse_text, plan_chunks
from vgrag.nlp import load_spacy


def test_a_measure_before_a_name_is_not_part_of_it():
    ex = extract_one(
        "Marchand adds 300 g plain flour and 60 g Wensleydale cheese. The lab buffers the enzyme in 100 mM sodium "
        "acetate buffer. Each tablet contains 25 mg of ravoxetine.",
        "Autumn Baking",
    )
    names = names_of(ex)
    assert {"plain flour", "Wensleydale cheese", "sodium acetate buffer"} <= names, ex.triples
    assert [n for n in names if any(c.isdigit() for c in n)] == ["25 mg"], ex.triples  # a value alone is one


def test_a_number_that_starts_a_name_or_counts_is_kept():
    ex = extract_one("Mbappé won the 2018 FIFA World Cup and later lived at 10 Downing Street with two sons.")
    assert {"10 Downing Street", "FIFA World Cup"} <= names_of(ex), ex.triples


def test_a_measure_alone_is_a_value_named_whole_with_its_degree_letter():
    ex = extract_one(
        "Serves 10 · Oven 170 °C (150 °C fan, gas mark 3). The joists measure 75 x 200 mm at 400 mm centres. The "
        "enzyme was incubated at 70 °C by Ingrid Haugland. Thermostable variants are needed by the paper industry, "
        "where kraft pulp leaves the digester at 70–80 °C. The average high temperature in July is 38.3 °C. Siobhán "
        "Keating measured 28–35 % in the kitchen wall.",
        "Ashgabat",
    )
    names = names_of(ex)
    assert {"Ingrid Haugland", "70–80 °C", "38.3 °C", "28–35 %"} <= names, ex.triples
    assert not names & {"C", "°C", "Oven 170 °C", "400 mm centres", "150 °C fan", "70–80 °"}, ex.triples


def test_a_measure_as_subject_is_not_an_entity():
    ex = extract_one("On Earth, 96.5% of the planet's crust water is found in seas and oceans.", "Water")
    assert ("Water", "found on", "Earth") in {(t.subject, t.predicate, t.object) for t in ex.triples}, ex.triples


def test_a_minute_mark_is_no_part_of_a_name():
    ex = extract_one("85' Harbourside Rovers: Leo Santos off injured, replaced by Marcus Hale", "Match report")
    assert not [n for n in names_of(ex) if "85" in n], ex.triples


def test_a_score_or_letters_after_a_name_are_not_its_head():
    ex = extract_one(
        "Kingsmere Athletic came from behind to beat Harbourside Rovers 3–2 at Castle Lane. The inspection was made "
        "by Siobhán Keating MRICS of Keating & Voss. The children performed as members of The Jackson 5.",
        "Weir House",
    )
    names = names_of(ex)
    assert {"Harbourside Rovers", "Siobhán Keating", "Jackson 5"} <= names, ex.triples
    assert not {"Harbourside Rovers 3–2", "Siobhán Keating MRICS"} & names, ex.triples


def test_list_items_are_sentences_to_the_parser():
    page = (
        b"<html><body><h1>Autumn Baking</h1><h2>Spiced Apple Pie</h2><p>Marchand bakes the pie at the Old Granary "
        b"Bakery in Malton.</p><h3>Ingredients</h3><ul><li>300 g plain flour, plus extra for dusting</li><li>150 g "
        b"cold unsalted butter, cut into 1 cm cubes</li><li>60 g Wensleydale cheese, finely grated</li><li>1 large "
        b"free-range egg, beaten with 2 tbsp cold water</li></ul></body></html>"
    )
    chunks = plan_chunks("pie.html", page)
    listed = next(c for c in chunks if "plain flour" in c.text)
    assert listed.parse_text.count("\n\n") == 3 and listed.text == " ".join(listed.sentences)
    prose = ("In 2024 Fernleaf raised £4.2 million from Westbridge Ventures.", "The board has five members.")
    assert parse_text(prose, paragraph_heads("\n\n".join(prose))) == " ".join(prose)  # a full stop ends it already
    results = OfflineExtractor().extract_many([c.parse_text for c in chunks], [c.topic for c in chunks])
    crossing = {(s, o) for s, _, o in facts(results) if {s, o} & {"plain flour", "Wensleydale cheese"}}
    assert not crossing, facts(results)  # before: "plain flour | cut | Wensleydale cheese"


def test_a_heading_line_is_a_sentence_and_the_name_after_it_stays_whole():
    ex = extract_one(
        "A cyber incident in February 2023 disrupted the engineering systems in Ålesund for three days; no customer "
        "data was lost. Corporate Governance\n\nHalvorsen Marine Group ASA is listed on the Oslo Stock Exchange.",
        "Board of Directors' Report 2023",
    )
    assert ("Halvorsen Marine Group ASA", "listed on", "Oslo Stock Exchange") in {
        (t.subject, t.predicate, t.object) for t in ex.triples
    }, ex.triples


def test_a_line_ending_with_a_colon_goes_on_into_the_list_it_opens():
    ex = extract_one("Common adverse effects include:\n\nSkin reactions\n\nHepatotoxicity", "Chlorambucil")
    assert ("Common adverse effects", "include", "Skin reactions") in {(t.subject, t.predicate, t.object) for t in
                                                                      ex.triples}, ex.triples  # fmt: skip


def test_a_heading_over_repeated_labels_is_its_items_topic():
    sale = "Modern British Art — Evening Sale"
    lots = [("Lot 12 · Winifred Nicholson", "Cyclamen and Primula, Bankshead"), ("Lot 14 · Barbara Hepworth",
            "Single Form")]  # fmt: skip
    sections = []
    for lot, work in lots:
        sections += [Section((sale, lot, work), "oil on canvas, 61 x 76.2 cm."),
                     Section((sale, lot, work, "Provenance"), "Purchased from the artist by Helen Sutherland in 1936."),
                     Section((sale, lot, work, "Exhibited"), "London, Lefevre Galleries, March 1936.")]  # fmt: skip
    topics = section_topics(sections, load_spacy)
    assert topics[1] == "Cyclamen and Primula, Bankshead" and topics[5] == "Single Form", topics
    report = [Section(("Checkout outage",), "Payments failed for 40 minutes."),
              Section(("Checkout outage", "Impact"), "About 3,100 orders failed."),
              Section(("Checkout outage", "Impact", "Customers"), "Customers saw an error page.")]  # fmt: skip
    assert section_topics(report, load_spacy)[2] != "Impact"  # one heading over its own sub-heading: no template


def test_the_catalogue_hangs_its_provenance_on_the_lot():
    found = facts(ingested("auction_catalogue.html"))
    assert ("Cyclamen and Primula, Bankshead", "purchased from artist by", "Helen Sutherland") in {
        (s, p, o) for s, p, o in found
    }, found
    assert not [f for f in found if f[0] == "Modern British and Irish Art — Evening Sale"], found

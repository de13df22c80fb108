"""Report-style prose (issue #31; walk24's excavation report): a person's capitalised role written after the name
is the person's role, not a second person or body doing the same thing."""

from __future__ import annotations

import pytest

from vgrag.extraction.extract import OfflineExtractor
from vgrag.nlp import load_spacy

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="spaCy model en_core_web_sm not installed")


def facts(text: str, topic: str) -> set[tuple[str, str, str]]:
    return {(t.subject, t.predicate, t.object) for t in OfflineExtractor().extract_many([text], [topic])[0].triples}


def test_a_role_after_a_name_is_no_second_agent():
    found = facts("The survey plan was approved by Rosalind Tate, County Archaeologist, Westmarch County Council. "
                  "The prize was presented by Anna Reid, Chief Executive of the trust.", "Mill Ings survey")
    agents = {o for _, p, o in found if p.endswith(" by")}
    assert {"Rosalind Tate", "Anna Reid"} <= agents, found
    assert not agents & {"County Archaeologist", "Chief Executive"}, found


def test_places_in_apposition_are_still_each_a_place():
    found = facts("The orchestra toured Rome, Italy and Paris, France in 2019.", "Harwick Sinfonia")
    assert {o for _, p, o in found if p == "toured"} >= {"Rome", "Italy", "Paris", "France"}, found


FINDS = b"""<html><body><h1>Harrow Leys evaluation</h1>
<h2>Finds</h2>
<table>
<tr><th>Material</th><th>Count</th><th>Assessed by</th></tr>
<tr><td>Animal bone</td><td>212</td><td>R. Okonkwo</td></tr>
<tr><td>Plant remains</td><td>14 samples</td><td>Dr T. Breen</td></tr>
</table>
<h2>Environment</h2>
<p>Breen identified charred spelt in the kiln. Okonkwo found cattle and sheep bones in the ditch.</p>
</body></html>"""


def test_people_a_table_names_by_initials_are_the_surnames_written_later(graph, embedder):
    from vgrag.extraction.extract import OfflineExtractor as Offline
    from vgrag.ingest import ingest_documents

    ingest_documents(graph, embedder, Offline(), [("finds.html", FINDS)])
    names = {e.name for e in graph.iter_entities()}
    assert {"T. Breen", "R. Okonkwo"} <= names, names
    assert not names & {"Breen", "Okonkwo", "Dr T. Breen"}, names


TRENCHES = b"""<html><body><h1>Harrow Leys evaluation</h1>
<table>
<tr><th>Trench</th><th>Size (m)</th><th>Supervisor</th></tr>
<tr><td>1</td><td>30 x 20</td><td>Nadia Sorensen</td></tr>
<tr><td>2</td><td>25 x 25</td><td>Callum Dreyer</td></tr>
</table></body></html>"""
REGISTER = b"""<html><body><h1>Harrow Leys: finds register</h1>
<table>
<tr><th>SF</th><th>Trench</th><th>Count</th><th>Object</th></tr>
<tr><td>SF 4</td><td>2</td><td>3</td><td>Bone comb</td></tr>
<tr><td>SF 9</td><td>1</td><td>12</td><td>Iron nails</td></tr>
</table></body></html>"""


def test_a_registers_trench_number_is_the_reports_trench(graph, embedder):
    from vgrag.extraction.extract import OfflineExtractor as Offline
    from vgrag.ingest import ingest_documents

    ingest_documents(graph, embedder, Offline(), [("trenches.html", TRENCHES)])
    ingest_documents(graph, embedder, Offline(), [("register.html", REGISTER)])
    found = {(r.subject, r.predicate, r.object) for r in graph.iter_relations()}
    assert ("Trench 2", "supervisor", "Callum Dreyer") in found
    assert ("SF 4", "trench", "Trench 2") in found and ("SF 9", "trench", "Trench 1") in found
    assert ("SF 4", "count", "3") in found  # no "Count 3" anywhere: a number stays a number


def test_a_list_of_names_stays_a_list():
    found = facts("The revue was written by William McNutt, Walter McGeehan and Ray Harris.", "Harbour Lights")
    assert {o for _, p, o in found if p == "written by"} == {"William McNutt", "Walter McGeehan", "Ray Harris"}, found


def test_a_part_of_the_topic_is_still_the_topic_and_its_name_is_no_place():
    found = facts("The remainder of Larchfield Rail was renamed Larchfield Holdings plc in 2010.", "Larchfield Rail")
    assert any(s == "Larchfield Rail" and o == "Larchfield Holdings plc" for s, _, o in found), found
    found = facts("Poland Comes First was founded in Warsaw in 2010.", "Poland Comes First")
    assert any(s == "Poland Comes First" and o == "Warsaw" for s, _, o in found), found

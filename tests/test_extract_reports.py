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

"""Tables of label | value pairs with no header row (issue #31; walk24): a programme's creative team and cast, a
report's header block ("Report No.: | …"). Read as a header over data, every row's facts hung on the first row's
cells ("Director | maren Holtby | Tomasz Wielgus"); they are the section topic's fields. A real header above a column
of names ("Award | Film") stays one. Post-nominal letters and a title do not make a second person."""

from __future__ import annotations

import pytest

from vgrag.documents.tables import table_lines
from vgrag.extraction.extract import OfflineExtractor
from vgrag.extraction.measures import letters
from vgrag.ingest import ingest_documents, plan_chunks
from vgrag.nlp import load_spacy

needs_spacy = pytest.mark.skipif(load_spacy() is None, reason="spaCy model en_core_web_sm not installed")

FESTIVAL = b"""<html><body><h1>Saltmarsh Film Festival 2027</h1>
<p>The festival opens on 4 June 2027 at the Harbour Cinema, Dunmere.</p>
<h2>The Long Tide</h2>
<p>A drama about two lighthouse keepers on the Skerry Light in 1952.</p>
<h3>Crew</h3>
<table>
<tr><td>Director</td><td>Oskar Lindahl</td></tr>
<tr><td>Screenplay</td><td>Maud Ferrier</td></tr>
<tr><td>Cinematography</td><td>Tariq Hussain</td></tr>
</table>
<h3>Cast</h3>
<table>
<tr><td>Elspeth Gunn</td><td>Niamh Carbery</td></tr>
<tr><td>Robert Gunn</td><td>Callum Strachan</td></tr>
<tr><td>The Inspector</td><td>Dev Anand Rao</td></tr>
</table>
<h2>Harbour Lights</h2>
<p>A documentary on the last herring drifters of the Moray Firth.</p>
<h3>Crew</h3>
<table>
<tr><td>Director</td><td>Ailsa Munro</td></tr>
<tr><td>Editor</td><td>Piotr Zielinski</td></tr>
</table>
<h3>Cast</h3>
<table>
<tr><td>Narrator</td><td>Fergus Baird</td></tr>
<tr><td>Skipper</td><td>John Mair</td></tr>
</table>
<h2>Awards</h2>
<table>
<tr><td>Award</td><td>Film</td></tr>
<tr><td>Golden Gull</td><td>The Long Tide</td></tr>
<tr><td>Audience Prize</td><td>Harbour Lights</td></tr>
</table>
</body></html>"""

SURVEY = b"""<html><body><h1>Land at Mill Ings, Garston</h1>
<table>
<tr><td>Report No.:</td><td>GA 2026/07</td></tr>
<tr><td>Client:</td><td>Pelham Estates Ltd</td></tr>
<tr><td>Author:</td><td>Dr Mira Kowalczyk MCIfA, with contributions by R. Hale</td></tr>
</table>
<h2>Project team</h2>
<table>
<tr><th>Name</th><th>Role</th></tr>
<tr><td>Dr Mira Kowalczyk MCIfA</td><td>Site Director</td></tr>
<tr><td>Owen Pryce</td><td>Surveyor</td></tr>
</table>
<h2>Results</h2>
<p>The evaluation followed a Written Scheme of Investigation approved by Pelham Estates Ltd. Mira Kowalczyk
identified a medieval kiln in the eastern trench.</p>
</body></html>"""


def facts(name: str, data: bytes) -> set[tuple[str, str, str]]:
    chunks = plan_chunks(name, data)
    found = OfflineExtractor().extract_many([c.parse_text or c.text for c in chunks], [c.topic for c in chunks])
    return {(t.subject, t.predicate, t.object) for r in found for t in r.triples}


def said(text: str, topic: str) -> set[tuple[str, str, str]]:
    """The triples the offline extractor reads in one text under a topic."""
    return {(t.subject, t.predicate, t.object) for t in OfflineExtractor().extract_many([text], [topic])[0].triples}


def test_a_first_row_shaped_like_the_rows_below_is_data_and_a_real_header_stays_one():
    assert table_lines([["Conductor", "Maren Holtby"], ["Director", "Tomasz Wielgus"], ["Designer", "Ffion Beddoe"]]) \
        == ["Conductor: Maren Holtby", "Director: Tomasz Wielgus", "Designer: Ffion Beddoe"]  # fmt: skip
    assert table_lines([["Role", "Singer"], ["Tatyana", "Lena Marwick"], ["Olga", "Kezia Park"]]) == [
        "Role: Tatyana; Singer: Lena Marwick.", "Role: Olga; Singer: Kezia Park."]
    assert table_lines([["Report No.:", "GA 2026/07"], ["Client:", "Pelham Estates Ltd"]]) == [
        "Report No.: GA 2026/07", "Client: Pelham Estates Ltd"]


@needs_spacy
def test_a_programmes_crew_and_cast_are_the_films_fields():
    found = facts("festival.html", FESTIVAL)
    assert ("The Long Tide", "director", "Oskar Lindahl") in found
    assert ("The Long Tide", "cinematography", "Tariq Hussain") in found
    assert ("The Long Tide", "Elspeth Gunn", "Niamh Carbery") in found  # a role's name keeps its capitals
    assert ("Harbour Lights", "editor", "Piotr Zielinski") in found
    assert not any(p in ("oskar Lindahl", "elspeth Gunn", "niamh Carbery") for _, p, _ in found)
    assert ("Golden Gull", "film", "The Long Tide") in found  # the awards table's header row is a header


@needs_spacy
def test_a_header_block_of_labels_gives_the_reports_fields(graph, embedder):
    found = facts("survey.html", SURVEY)
    assert ("Mill Ings", "client", "Pelham Estates Ltd") in found or \
        ("Land at Mill Ings, Garston", "client", "Pelham Estates Ltd") in found  # fmt: skip
    assert any(p == "author" and o == "Mira Kowalczyk" for _, p, o in found)  # not cut off by "MCIfA"
    assert not any("GA 2026/07" == p for _, p, _ in found)
    ingest_documents(graph, embedder, OfflineExtractor(), [("survey.html", SURVEY)])
    names = {e.name for e in graph.iter_entities()}
    assert "Mira Kowalczyk" in names and not any("MCIfA" in n for n in names)  # the staff table's row is hers


def test_post_nominal_letters_are_not_a_name():
    assert all(letters(x) for x in ("KC", "MRICS", "MCIfA", "PhD", "FRCPath"))
    assert not any(letters(x) for x in ("McCain", "VIII", "Ltd", "MacKay"))


@needs_spacy
def test_an_indefinite_article_is_no_word_of_a_name():
    text = ("Harwick Archaeology carried out the dig at Mill Ings. The meadow lies within a Site of Special Scientific "
            "Interest designated in 1986.")
    names = {x for s, _, o in said(text, "Harwick Archaeology") for x in (s, o)}
    assert "Site of Special Scientific Interest" in names and not any(n.startswith("a ") for n in names)


def test_a_numbered_first_column_names_its_rows_by_the_header():
    rows = [["Trench", "Size (m)", "Supervisor"], ["1", "30 × 20", "Sunita Rao"], ["2", "25 × 25", "Callum Dreyer"]]
    assert table_lines(rows) == ["Trench: Trench 1; Size (m): 30 × 20; Supervisor: Sunita Rao.",
                                 "Trench: Trench 2; Size (m): 25 × 25; Supervisor: Callum Dreyer."]  # fmt: skip
    assert table_lines([["Year", "Winner"], ["2019", "Ann Lee"], ["2019", "Bo Diaz"]])[0].startswith("Winner: Ann Lee")


@needs_spacy
def test_a_place_a_topic_is_named_after_is_the_place():
    text = ("Dunmere Rowing Club was founded in 1884. Its boathouse stands on the quay in Dunmere, below the old "
            "bridge. The club races at Henley every summer.")
    found = said(text, "Dunmere Rowing Club")
    assert any(o == "Dunmere" for _, _, o in found), found
    assert not any(s == o for s, _, o in found)


@needs_spacy
def test_the_role_of_a_named_thing_is_no_topic():
    text = ("The Harwick Players announced a cast change on 2 May. The role of Macbeth will now be played by Idris "
            "Mensah, who joins rehearsals on Monday.")
    found = said(text, "Harwick Players")
    assert ("role of Macbeth", "played by", "Idris Mensah") in found, found
    assert not any(s == "Harwick Players" and o == "Idris Mensah" for s, _, o in found)


@needs_spacy
def test_a_names_number_is_part_of_it():
    text = ("Each object was given a small find (SF) number. The bone comb SF 41 came from the boundary ditch at "
            "Harrow Leys. The antler pin SF 7 came from the hearth of the kiln.")
    found = said(text, "")
    names = {x for s, _, o in found for x in (s, o)}
    assert "SF 41" in names and "small find" not in names, found  # not the abbreviation's long form, number lost

"""Tables with a header row (Markdown, HTML, DOCX) give each row's facts — (key cell, column header, cell), a date
cell dating the others — and are never read as sentences; the passage keeps them as "Header: cell; …" rows (issue
#31: walk21 found 0 triples from tables, and false ones such as "Injection | is | Blood tests" from adjacent cells).
The fixtures were written, with the facts below, before the extractor was run on them."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from vgrag.documents.sources import document_sections
from vgrag.documents.tables import key_column, parse_row, table_lines
from vgrag.extraction.extract import OfflineExtractor
from vgrag.ingest.passages import plan_chunks
from vgrag.nlp import load_spacy

FIX = Path(__file__).parent / "fixtures"
needs_spacy = pytest.mark.skipif(load_spacy() is None, reason="spaCy model en_core_web_sm not installed")


def _extract(name: str, data: bytes) -> tuple[list, set[tuple[str, str, str, str]]]:
    chunks = plan_chunks(name, data)
    found = OfflineExtractor().extract_many([c.parse_text or c.text for c in chunks], [c.topic for c in chunks])
    return chunks, {(t.subject, t.predicate, t.object, t.when) for ex in found for t in ex.triples}


def _pairs(facts: set) -> set[frozenset]:
    return {frozenset((s, o)) for s, _, o, _ in facts}


@needs_spacy
def test_html_booking_table_gives_each_rows_facts_dated_by_its_date_cell():
    chunks, facts = _extract("lab_equipment_booking.html", (FIX / "lab_equipment_booking.html").read_bytes())
    assert {
        ("Zeiss LSM 980", "booked by", "Hannah Oyelaran", "2026-08-04"),
        ("Zeiss LSM 980", "group", "Neurodevelopment", "2026-08-04"),
        ("Zeiss LSM 980", "date", "2026-08-04", ""),
        ("Zeiss LSM 980", "room", "B2.14", "2026-08-04"),
        ("Leica Stellaris 8", "booked by", "Marco Bellandi", "2026-08-05"),
        ("Nikon Ti2 widefield", "booked by", "Suda Phongsri", "2026-08-06"),
        ("Nikon Ti2 widefield", "group", "Host Pathogen Biology", "2026-08-06"),
    } <= facts
    # adjacent cells are no fact of their own: a booker is never linked to the group or room beside her name
    assert not _pairs(facts) & {frozenset(("Hannah Oyelaran", "Neurodevelopment")), frozenset(("Marco Bellandi",
                                "Cell Mechanics")), frozenset(("Suda Phongsri", "B1.03"))}  # fmt: skip
    text = " ".join(c.text for c in chunks)  # the rows stay in the passages, readable, for evidence and search
    assert "Instrument: Leica Stellaris 8; Booked by: Marco Bellandi; Group: Cell Mechanics; Date: 2026-08-05" in text
    assert "serviced by the manufacturer on 10 August" in text  # the prose after the table is its own


@needs_spacy
def test_markdown_results_table_keys_rows_by_the_home_team_and_reads_no_row_as_prose():
    chunks, facts = _extract("county_cup_results.md", (FIX / "county_cup_results.md").read_bytes())
    assert {
        ("Ashby Rovers", "away", "Kelford Town", ""),
        ("Ashby Rovers", "score", "1-2", ""),
        ("Ashby Rovers", "referee", "Joanne Pritchett", ""),
        ("Brampton Athletic", "away", "Ormsby United", ""),
        ("Brampton Athletic", "venue", "The Paddocks", ""),
        ("Castlegate FC", "away", "Wexcombe Wanderers", ""),
        ("Castlegate FC", "referee", "Ruth Adeyemi", ""),
    } <= facts
    assert ("Kelford Town", "meet", "Brampton Athletic", "") in facts  # the prose after the table is still read
    assert not _pairs(facts) & {frozenset(("Kelford Town", "1-2")), frozenset(("Mill Lane", "Joanne Pritchett")),
                                frozenset(("Ormsby United", "3-0"))}  # fmt: skip


def _docx(rows: list[list[str]], header_marked: bool) -> bytes:
    def para(text: str) -> str:
        return f"<w:p><w:r><w:t>{text}</w:t></w:r></w:p>"

    head = "<w:trPr><w:tblHeader/></w:trPr>" if header_marked else ""
    table = "<w:tbl>" + "".join("<w:tr>" + (head if i == 0 else "") + "".join(f"<w:tc>{para(c)}</w:tc>" for c in r)
                                + "</w:tr>" for i, r in enumerate(rows)) + "</w:tbl>"  # fmt: skip
    body = (para("Ferry timetable").replace("<w:p>", '<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr>')
            + para("The winter timetable of the Skerry Line runs from November.") + table
            + para("Sailings may be cancelled in gales."))  # fmt: skip
    xml = ('<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
           f"<w:body>{body}</w:body></w:document>")  # fmt: skip
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("word/document.xml", xml)
    return out.getvalue()


FERRY = [["Sailing", "Departs", "Vessel", "Calls at"],
         ["SK1", "Port Ellan", "MV Solan", "Craighouse, Tarbert"],
         ["SK2", "Tarbert", "MV Fulmar", "Craighouse"]]  # fmt: skip


@needs_spacy
@pytest.mark.parametrize("marked", [True, False])  # a marked header row, or one table_lines recognises
def test_docx_table_cells_are_row_facts_not_sentences(marked):
    chunks, facts = _extract("ferry.docx", _docx(FERRY, marked))
    assert {("SK1", "departs", "Port Ellan", ""), ("SK1", "vessel", "MV Solan", ""),
            ("SK2", "vessel", "MV Fulmar", ""), ("SK2", "calls at", "Craighouse", "")} <= facts  # fmt: skip
    assert not _pairs(facts) & {frozenset(("Port Ellan", "MV Solan")), frozenset(("Tarbert", "MV Fulmar"))}
    text = " ".join(c.text for c in chunks)
    assert "Sailing: SK2; Departs: Tarbert; Vessel: MV Fulmar; Calls at: Craighouse." in text


def test_key_is_the_first_column_of_distinct_names_or_ids():
    standings = [["1", "Kelford Town", "9"], ["2", "Brampton Athletic", "7"], ["3", "Castlegate FC", "7"]]
    assert key_column(standings) == 1  # ranks are numbers, points repeat
    owners = [["Rotate keys", "Aisha Khan", "2026-07-15"], ["Rotate keys", "Liam O'Connor", "2026-08-01"]]
    assert key_column(owners) == 1  # the same action twice is no key
    assert key_column([["12", "4"], ["12", "5"]]) == 0  # no name column: the first
    lines = table_lines([["Rank", "Team", "Points"], *standings], header=True)
    assert lines[0] == "Team: Kelford Town; Rank: 1; Points: 9."


def test_rows_are_told_from_prose_with_colons_and_semicolons():
    assert parse_row("Team: Kelford Town; Rank: 1; Points: 9.") == [("Team", "Kelford Town"), ("Rank", "1"),
                                                                     ("Points", "9")]  # fmt: skip
    for prose in ("Kingsmere Athletic (4-3-3): Zieliński; Foyle, Adeyemi, Van der Berg, Costa.",
                  "Note: the pump failed at 10:30; it was replaced the next morning.",
                  "The ferry sails daily; the crossing takes two hours.",
                  "The Skerry dollar (sign: S$; code: SKD) is the currency of the islands. It is divided into cents.",
                  "Harvest Day (Gaelic: Là Buain; Norse: Uppskera) is kept on the first Monday of September."):
        assert parse_row(prose) is None, prose


def test_a_table_without_a_header_row_keeps_its_cells_as_a_line():
    page = b"<h1>Scores</h1><table><tr><td>12</td><td>4</td></tr><tr><td>15</td><td>9</td></tr></table>"
    assert document_sections("s.html", page)[0].text == "12; 4\n\n15; 9"


def test_hostile_tables_are_read_in_linear_time():
    """A cell of 100k tags (its pieces were once re-joined at every tag), 50k unclosed DOCX tables (a lazy
    `<w:tbl>.*?</w:tbl>` search rescans to the end from each), a 10k-row Markdown table and 20k row paragraphs."""
    import time

    from vgrag.extraction.tables import table_facts

    t0 = time.perf_counter()
    cell = b"<table><tr><th>A</th><th>B</th></tr><tr><td>" + b"<b>x</b>" * 100_000 + b"</td><td>y</td></tr></table>"
    assert "A: " in document_sections("h.html", cell)[0].text
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("word/document.xml", "<w:tbl>" * 50_000 + "<w:p><w:r><w:t>Hello there.</w:t></w:r></w:p>")
    assert document_sections("d.docx", out.getvalue())[0].text == "Hello there."
    rows = "| A | B |\n|---|---|\n" + "".join(f"| r{i} | v{i} |\n" for i in range(10_000))
    assert document_sections("t.md", rows.encode())[0].text.count("\n\n") == 9_999
    text = "\n\n".join(f"Item: r{i}; Value: v{i}." for i in range(20_000))
    blanked, triples = table_facts(text)
    assert len(triples) == 20_000 and not blanked.strip() and len(blanked) == len(text)
    assert time.perf_counter() - t0 < 20  # ~2 s unloaded


def test_a_table_the_page_never_closes_keeps_its_rows():
    page = b"<h1>T</h1><p>Intro.</p><table><tr><th>Item</th><th>Price</th></tr><tr><td>Tea</td><td>2.10</td></tr>"
    assert document_sections("p.html", page)[0].text == "Intro.\n\nItem: Tea; Price: 2.10."


@needs_spacy
def test_a_cell_that_is_a_clause_is_read_as_a_sentence_not_made_a_name():
    """A log's or a plan's cells are often whole clauses; made (key, header, cell) facts they were entities of 6-13
    words ("Stall warning and stick shaker for four seconds, Okonjo disconnects the autopilot": 0 → 11 such names on
    four new-domain documents once PDF tables were read). A site visit log, written for this test."""
    md = (
        "# Site visit log\n\n"
        "| Time | Event | Recorded by |\n|---|---|---|\n"
        "| 09:10 | Rangers from Corrie Estates open the north gate for the survey team | Isla Rennie |\n"
        "| 10:45 | Moss Lab takes soil cores from the peat bank near Loch Tarff | Isla Rennie |\n"
        "| 12:30 | Lunch | Tomas Varga |\n"
    ).encode()
    chunks, facts = _extract("visit_log.md", md)
    names = {x for s, _, o, _ in facts for x in (s, o)}
    assert not [n for n in names if len(n.split()) >= 6], names
    assert ("Moss Lab", "takes", "soil cores", "") in facts or any(
        s == "Moss Lab" and o in ("soil cores", "peat bank") for s, _, o, _ in facts
    ), facts
    assert {("12:30", "event", "Lunch", ""), ("10:45", "recorded by", "Isla Rennie", "")} <= facts  # short cells stay

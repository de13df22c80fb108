"""Tables in a PDF read from the layout (vgrag/documents/pdf_tables.py) and written as every other format's rows
(documents.tables): before, a table ran on as prose — the entity "Aisha Khan 2026-07- 15 Add" (an owner, a due date
broken inside its cell, the next row's verb) and "… Number of sites 28 29 The sample size was raised to 270 because"
(the table run into the paragraph after it). Fixtures printed by Chromium from the HTML beside them (apiary_inspection,
ferry_timetable, annual_report, release_notes, court_judgment, drug_leaflet) or from walk21's HTML (larkspur_mq,
orchid2_trial); small pages built by tests/pdfmake.py."""

from __future__ import annotations

import io
import unicodedata
from pathlib import Path

import pytest

from pdfmake import placed_pdf
from vgrag.documents.pdf_paragraphs import glue
from vgrag.documents.sources import document_sections
from vgrag.documents.tables import parse_row
from vgrag.extraction.tables import table_facts
from vgrag.text import paragraphs

FIX = Path(__file__).parent / "fixtures"


def _paragraphs(path: Path) -> list[str]:
    return [p for s in document_sections(path.name, path.read_bytes()) for p in paragraphs(s.text)]


def _rows(path: Path) -> list[str]:
    """The document's table rows ("Header: value; …." paragraphs), ligatures as letters (pypdf gives "ﬃ")."""
    return [unicodedata.normalize("NFKC", p) for p in _paragraphs(path) if parse_row(p)]


def test_an_action_items_table_reads_as_rows_with_each_date_whole():
    secs = document_sections("postmortem.pdf", (FIX / "larkspur_mq" / "postmortem.pdf").read_bytes())
    actions = next(s for s in secs if s.heading[-1] == "Action items")  # before: "… Action items, Action Owner Due"
    assert paragraphs(actions.text) == [
        "Owner: Aisha Khan; Action: Upgrade lyra to the patch release that fixes issue #4412; Due: 2026-07-15.",
        "Owner: Priya Natarajan; Action: Add a deadlock detector to the controller health check; Due: 2026-08-31.",
        'Owner: Route planner team; Action: Show a "data is stale" banner in the route planner; Due: 2026-08-15.',
        # the last row's "10" sits on its own line at the page's end: a cell, not a page number
        "Owner: Rafael Mendes; Action: Wait two weeks after a minor release before upgrading any cluster; "
        "Due: 2026-07-10.",
    ]
    _, triples = table_facts(actions.text)
    assert ("Aisha Khan", "due", "2026-07-15") in {(t.subject, t.predicate, t.object) for t in triples}


def test_a_table_does_not_run_into_the_paragraph_after_it():
    paras = _paragraphs(FIX / "orchid2_trial" / "dsmb_amendment2.pdf")
    assert "Section: Number of sites; Before: 28; After Amendment 2: 29." in paras
    assert any(p.startswith("The sample size was raised to 270 because") for p in paras)
    # a site's name wrapped in its cell stays in it
    assert "Site: Medical University of Warsaw; City: Warsaw; Principal investigator: Dr. Anna Kowalczyk; " \
        "Randomised: 9." in paras  # fmt: skip


@pytest.mark.parametrize("name", ["apiary_inspection", "ferry_timetable", "annual_report", "release_notes",
                                  "court_judgment", "drug_leaflet"])  # fmt: skip
def test_a_pdfs_table_rows_are_its_htmls(name):
    """Padded and unpadded cells (Chromium's default: cells 1.6 pt apart, closer than words), right-aligned numbers,
    wrapped cells and a date broken at its hyphen in a narrow column ("2026-" "11-20")."""
    pdf, html = _rows(FIX / f"{name}.pdf"), _rows(FIX / f"{name}.html")
    assert pdf == html and len(pdf) >= 3


def test_prose_pdfs_have_no_table():
    """A guard, not the feature: prose (two justified columns, indents, bold and italic runs in a line, a dateline)
    is read as before; their paragraphs are asserted in tests/test_pdf_paragraphs.py."""
    for name in ["news_article.pdf", "society_bulletin.pdf", "articles.pdf", "lake_survey.pdf", "plain.pdf"]:
        assert not _rows(FIX / name), name


_BIRDS = [(72, 700, "Species"), (200, 700, "Count"), (300, 700, "Observer"),
          (72, 680, "Little egret"), (200, 680, "14"), (300, 686, "Ruth"), (300, 674, "Okonjo"),
          (72, 660, "Avocet"), (200, 660, "112"), (300, 660, "Sam Ferris"),
          (72, 640, "Spoonbill"), (200, 640, "3"), (300, 640, "Ruth Okonjo"),
          (72, 610, "The spoonbills were seen on the east scrape, where the warden had cut the reeds.")]  # fmt: skip


def test_cells_set_at_the_middle_of_their_row_and_wrapped_are_one_row():
    text = "\n\n".join(s.text for s in document_sections("t.pdf", placed_pdf(_BIRDS)))
    assert text.split("\n\n") == [
        "Species: Little egret; Count: 14; Observer: Ruth Okonjo.",
        "Species: Avocet; Count: 112; Observer: Sam Ferris.",
        "Species: Spoonbill; Count: 3; Observer: Ruth Okonjo.",
        "The spoonbills were seen on the east scrape, where the warden had cut the reeds.",
    ]


def test_an_outlined_pdf_reads_its_tables_too():
    from pypdf import PdfReader, PdfWriter

    w = PdfWriter()
    w.add_page(PdfReader(io.BytesIO(placed_pdf([(72, 740, "Wader count"), *_BIRDS]))).pages[0])
    w.add_outline_item(title="Wader count", page_number=0)
    out = io.BytesIO()
    w.write(out)
    (sec,) = document_sections("o.pdf", out.getvalue())
    assert sec.heading == ("Wader count",) and "Species: Avocet; Count: 112; Observer: Sam Ferris." in sec.text


def test_a_numbered_list_is_not_a_table():
    """A guard: list numbers and items align in two columns, but no row labels them (tables.looks_like_header)."""
    items = ["Close the sluice before the tide turns.", "Read the gauge at the outfall.", "Log the level."]
    data = placed_pdf([xy for i, t in enumerate(items) for xy in ((72, 700 - 20 * i, f"{i + 1}."),
                                                                  (90, 700 - 20 * i, t))])  # fmt: skip
    text = "\n\n".join(s.text for s in document_sections("t.pdf", data))
    assert "; " not in text and "Close the sluice" in text


def test_a_hyphen_at_a_line_end_inside_a_date_or_an_id_joins_without_a_space():
    assert glue("2026-07-", "15", None) == "2026-07-15"  # before: None (joined as "2026-07- 15")
    assert glue("COVID-", "19", None) == "COVID-19"
    assert glue("snow-", "poor", {"snow", "poor"}) == "snow-poor" and glue("costs -", "15", None) is None


def test_a_fonts_ligatures_read_as_the_letters_they_join():
    """Chromium's PDF writes "ffi" as one glyph (U+FB03): "MV Puﬃn" in the PDF was another entity than the HTML's
    "MV Puffin"."""
    path = FIX / "ferry_timetable.pdf"
    text = "\n".join(s.text for s in document_sections(path.name, path.read_bytes()))
    assert "Puffin" in text and not any("\ufb00" <= c <= "\ufb06" for c in text), text[:400]

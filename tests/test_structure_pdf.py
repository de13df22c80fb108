"""Documents keep their structure: an outline-less PDF split by its visible headings, page furniture dropped,
citation markers stripped (fixtures built by tests/fixtures/make_fixtures.py from benchmark passages)."""

from __future__ import annotations

from pathlib import Path

from vgrag.documents.sources import document_sections
from vgrag.documents.structure import Section, clean_section, strip_markers
from vgrag.ingest import plan_chunks

FIX = Path(__file__).parent / "fixtures"


def _read(name: str) -> bytes:
    return (FIX / name).read_bytes()


def test_pdf_without_outline_is_split_by_its_bold_large_headings():
    from pypdf import PdfReader

    data = _read("articles.pdf")
    assert not PdfReader(FIX / "articles.pdf").outline  # no outline: only the look of the headings tells
    secs = document_sections("articles.pdf", data)
    heads = [s.heading[-1] for s in secs]
    assert heads[:3] == ["The Prestige (film)", "Christopher Nolan", "Maximum Overdrive"]
    for other in ("articles.md", "articles.html", "articles.docx"):
        assert heads == [s.heading[-1] for s in document_sections(other, _read(other))], other
    prestige = secs[0]
    assert prestige.text.startswith("The Prestige is a 2006") and "Christopher Edward Nolan" not in prestige.text
    assert prestige.topic == "The Prestige"  # the "(film)" qualifier is not part of the name
    chunks = plan_chunks("articles.pdf", data)
    assert all(c.text.count(" is a ") < 2 or c.topic for c in chunks)
    assert {c.topic for c in chunks} >= {"Christopher Nolan", "Shabana Azmi", "Mark King"}


def test_pdf_running_footer_url_and_page_numbers_are_dropped():
    text = " ".join(s.text for s in document_sections("articles.pdf", _read("articles.pdf")))
    assert "file:" not in text and "ﬁle:" not in text and "1/2" not in text and "articles.html" not in text
    assert text.rstrip().endswith("Progressive Music Awards.")


def test_citation_markers_are_stripped_from_text_and_headings():
    assert strip_markers("Nolan (born 30 July 1970).[4] He[citation needed] wrote II[5 and [12, 13] more.") == (
        "Nolan (born 30 July 1970). He wrote II and more."
    )
    sec = clean_section(Section(("Acme Institute[2]",), "Acme Institute[2] was founded in 1901.[3]"))
    assert sec.heading == ("Acme Institute",) and sec.text == "Acme Institute was founded in 1901."
    for name in ("articles.pdf", "articles.md", "articles.html", "articles.docx"):
        text = " ".join(s.text for s in document_sections(name, _read(name)))
        assert "[1]" not in text and "[citation needed]" not in text and "born 30 July 1970" in text, name


def test_pdf_without_any_heading_loses_its_running_header_and_footer_but_no_text():
    from pypdf import PdfReader

    data = _read("plain.pdf")  # Chromium print of the articles' paragraphs: one font, no heading, 2 pages
    raw = [p.extract_text() for p in PdfReader(FIX / "plain.pdf").pages]
    assert len(raw) == 2 and all("Films and people" in t and "/2" in t for t in raw)  # the furniture is there
    secs = document_sections("plain.pdf", data)
    assert [(s.heading, s.page) for s in secs] == [((), 1), ((), 2)]  # no wrapped first line taken as a title
    text = " ".join(s.text for s in secs)
    for furniture in ("Films and people", "file:", "ﬁle:", "1/2", "2/2", " AM"):
        assert furniture not in text
    assert secs[0].text.startswith("The Prestige is a 2006") and secs[0].text.endswith("Mantan Moreland also star.")
    assert secs[1].text.startswith("Creature is a 2011") and secs[1].text.endswith("Progressive Music Awards.")
    assert [c.title for c in plan_chunks("plain.pdf", data)][:1] == ["plain.pdf · p. 1"]

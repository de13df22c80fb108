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

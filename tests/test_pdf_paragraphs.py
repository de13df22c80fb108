"""A PDF's paragraphs from its page layout (vgrag/documents/pdf_paragraphs.py): pypdf gives lines, and a by-line, a
"Published" line and a dateline read as one run made the junk triple "Science Correspondent | Published By | Tom
Reyes". Fixtures: news_article.pdf and society_bulletin.pdf (two columns, justified, first-line indents, no space
between paragraphs), both printed by Chromium from the HTML beside them; small pages built by tests/pdfmake.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdfmake import placed_pdf, text_pdf
from vgrag.documents.sources import document_sections
from vgrag.text import paragraphs

FIX = Path(__file__).parent / "fixtures"


def _paragraphs(name: str) -> list[str]:
    return [p for s in document_sections(name, (FIX / name).read_bytes()) for p in paragraphs(s.text)]


def _text(data: bytes) -> str:
    return "\n\n".join(s.text for s in document_sections("t.pdf", data))


def test_the_news_pdf_has_the_paragraphs_of_its_html():
    pdf, html = _paragraphs("news_article.pdf"), _paragraphs("news_article.html")
    assert len(pdf) == len(html) == 13  # before: 4 (one per section)
    assert pdf[1:] == html[1:]  # the kicker is "SCIENCE" in the PDF (CSS upper case), "Science" in the HTML
    assert pdf[1:4] == ["By Tom Reyes, Science Correspondent", "Published 3 March 2025", pdf[3]]
    assert pdf[3].startswith("GENEVA, 3 March 2025 — Glaciers")  # the dateline opens a paragraph (nlp.dateline_starts)
    assert "snow-poor winter" in pdf[4]  # a hyphen the text writes stays at a line end


def test_two_justified_columns_with_indents_and_no_paragraph_space_have_the_paragraphs_of_the_html():
    pdf, html = _paragraphs("society_bulletin.pdf"), _paragraphs("society_bulletin.html")
    assert pdf == html and len(pdf) == 8  # before: 1
    # a paragraph running from the foot of the first column to the head of the second is one paragraph
    assert "Foxes took eggs from 11 of them" in next(p for p in pdf if p.startswith("Predation remains"))


def test_the_by_line_triple_is_gone_and_the_pdf_reads_as_the_html():
    from offline_extract import facts, ingested
    from vgrag.nlp import load_spacy

    if load_spacy() is None:
        pytest.skip("spaCy model en_core_web_sm not installed")
    pdf, html = facts(ingested("news_article.pdf")), facts(ingested("news_article.html"))
    assert ("Science Correspondent", "Published By", "Tom Reyes") not in pdf
    assert not [f for f in pdf if "Correspondent" in f[0] + f[2]], pdf
    assert pdf == html, pdf ^ html


def test_a_line_ended_short_ends_its_paragraph():
    text = _text(text_pdf([
        "The council approved the budget for 2025 after a long debate about",
        "the library service and the swimming pool.",  # "Councillor" would have fitted here: the line was ended
        "Councillor Hale asked for the vote to be recorded in the minutes",
        "of the meeting.",
    ]))  # fmt: skip
    assert text.split("\n\n") == [
        "The council approved the budget for 2025 after a long debate about\nthe library service and the swimming "
        "pool.",
        "Councillor Hale asked for the vote to be recorded in the minutes\nof the meeting.",
    ]


_HARBOUR = [
    "The harbour board met on Monday to discuss the dredging of the",
    "eastern channel, which has silted up since the storms of January.",
    "Work will start in April and is expected to take six weeks to",
    "complete, at a cost of about 1.2 million pounds to the port.",
]


def test_a_gap_counts_against_the_documents_own_line_spacing():
    def placed(ys: list[float]) -> str:
        return _text(placed_pdf([(50, y, t) for y, t in zip(ys, _HARBOUR, strict=True)]))

    assert placed([700, 686, 664, 650]).count("\n\n") == 1  # 22 pt where lines are 14 pt apart: a paragraph
    assert placed([700, 678, 656, 634]).count("\n\n") == 0  # 22 pt everywhere: double spacing, one paragraph
    assert placed([700, 686, 672, 658]).count("\n\n") == 0


def test_a_first_line_indent_starts_a_paragraph_and_a_gap_inside_a_sentence_does_not():
    indented = _text(placed_pdf([(50, 700, _HARBOUR[0]), (32, 686, _HARBOUR[1]), (50, 672, _HARBOUR[2]),
                                 (32, 658, _HARBOUR[3])]))  # fmt: skip
    assert indented.split("\n\n") == ["\n".join(_HARBOUR[:2]), "\n".join(_HARBOUR[2:])]
    lines = [*_HARBOUR[:2], "Work will start in April and is expected to take six weeks to", _HARBOUR[3]]
    runs_on = _text(placed_pdf([(50, y, t) for y, t in zip([700, 686, 672, 650], lines, strict=True)]))
    assert runs_on.count("\n\n") == 0  # the gap before "complete, …" (a taller line?) is no paragraph: it reads on


def test_a_line_end_hyphen_goes_only_when_the_document_writes_the_word_without_it():
    text = _text(text_pdf(["The trust will ask the council to recom-", "mend a survey of the snow-",
                           "poor meadows. We recommend it to all."]))  # fmt: skip
    assert "to recommend a survey of the snow-poor meadows" in text
    assert "recom-" not in text and "snow- poor" not in text and "snowpoor" not in text


def test_an_outlined_pdf_keeps_its_paragraphs():
    import io

    from pypdf import PdfReader, PdfWriter

    w = PdfWriter()
    w.add_page(PdfReader(io.BytesIO(placed_pdf([(50, 740, "Dredging"), *((50, y, t) for y, t in zip(
        [700, 686, 664, 650], _HARBOUR, strict=True))]))).pages[0])  # fmt: skip
    w.add_outline_item(title="Dredging", page_number=0)
    out = io.BytesIO()
    w.write(out)
    secs = document_sections("o.pdf", out.getvalue())
    assert [s.heading for s in secs] == [("Dredging",)] and secs[0].text.count("\n\n") == 1


def test_superscripts_and_subscripts_stay_in_their_line_and_paragraph():
    pdf, html = _paragraphs("lake_survey.pdf"), _paragraphs("lake_survey.html")
    assert pdf == html and len(pdf) == 4  # before: 2 (a mark on its own line, "km" / "2" / "of")
    assert "Lough Arrow is a limestone lake of 12.5 km2 on the border" in pdf[0]
    assert "Dissolved CO2 fell at every station" in pdf[1] and "(NO3−) stayed below" in pdf[1]

from __future__ import annotations

import json

import pytest
from pdfmake import text_pdf

from vgrag.extract import parse_triples_output
from vgrag.models import Triple
from vgrag.sources import InputError, document_text, read_csv, read_jsonl, read_openie, read_triples_file
from vgrag.text import chunk_text, split_sentences


def test_pdf_txt_md_html_text():
    assert "Marie Curie won" in document_text("a.pdf", text_pdf(["Marie Curie won the Nobel Prize."]))
    assert document_text("a.txt", "Hello Zoë".encode("utf-8")) == "Hello Zoë"
    assert "Title" in document_text("a.md", b"# Title\n\nBody")
    html = document_text("a.html", b"<p>One <b>two</b></p><script>alert(1)</script>")
    assert "two" in html and "alert" not in html


@pytest.mark.parametrize(
    "name,data,msg",
    [
        ("x.pdf", b"this is not a pdf at all", "not a readable PDF"),
        ("x.txt", b"", "empty"),
        ("x.exe", b"MZ...", "unsupported type"),
        ("x.txt", b"   \n  ", "no text"),
    ],
)
def test_bad_documents_say_why(name, data, msg):
    with pytest.raises(InputError, match=msg):
        document_text(name, data)


def test_openie_format_skips_malformed_triples():
    data = json.dumps(
        {
            "docs": [
                {
                    "title": "T",
                    "text": "Body.",
                    "extracted_entities": ["A"],
                    "extracted_triples": [["A", "likes", "B"], ["only two", "x"], ["A", "", "C"]],
                }
            ]
        }
    )
    [p] = read_openie(data.encode())
    assert p.triples == (Triple("A", "likes", "B"),) and p.skipped == 2 and p.entities == ("A",)
    [p] = read_openie(json.dumps({"docs": [{"title": "T", "passage": "T\nOnly passage."}]}).encode())
    assert p.text == "Only passage."
    with pytest.raises(InputError, match="'docs' list"):
        read_openie(b'{"nope": 1}')
    with pytest.raises(InputError, match="not valid JSON"):
        read_openie(b"{oops")


def test_jsonl_and_csv_group_rows_by_passage():
    rows = [
        {"title": "T", "passage": "P1", "subject": "A", "predicate": "r", "object": "B"},
        {"title": "T", "passage": "P1", "subject": "B", "predicate": "r", "object": "C"},
        {"passage": "P2", "triples": [["X", "y", "Z"]]},
    ]
    ps = read_jsonl("\n".join(json.dumps(r) for r in rows).encode())
    assert [len(p.triples) for p in ps] == [2, 1]
    csv_ps = read_csv(b"title,passage,subject,predicate,object\nT,P1,A,r,B\nT,P1,B,r,C\n")
    assert csv_ps[0].triples == ps[0].triples
    with pytest.raises(InputError, match="lacks column"):
        read_csv(b"passage,subject\nx,y\n")
    with pytest.raises(InputError, match="line 2"):
        read_jsonl(b'{"passage": "a"}\nnot json\n')
    with pytest.raises(InputError, match="unsupported triple file"):
        read_triples_file("x.xml", b"<x/>")


def test_sentences_and_chunks_overlap():
    text = "Dr. Smith went to Washington. He met the U.S. president. They talked for hours! Then he left."
    assert split_sentences(text) == [
        "Dr. Smith went to Washington.",
        "He met the U.S. president.",
        "They talked for hours!",
        "Then he left.",
    ]
    chunks = chunk_text(" ".join(f"Sentence number {i} is here." for i in range(40)), max_chars=120)
    assert all(len(c) <= 120 for c in chunks) and len(chunks) > 5
    for a, b in zip(chunks, chunks[1:], strict=False):
        assert a.split(". ")[-1].rstrip(".") in b  # one sentence of overlap
    long = chunk_text("word " * 500, max_chars=200)
    assert all(len(c) <= 200 for c in long)


@pytest.mark.parametrize(
    "raw,n,err",
    [
        ('{"triples": [["A", "r", "B"], ["C", "s", "D"]], "entities": ["A"]}', 2, None),
        ('Here you go:\n```json\n{"triples": [["A", "r", "B"]]}\n```\nHope it helps', 1, None),
        ('[["A", "r", "B"], ["A", "r", "B"], ["bad"]]', 1, "1 malformed"),
        ("A | r | B\n(C | s | D)", 2, None),
        ('{"triples": [["A", "r", "B"],]}', 1, None),
        ("", 0, "empty response"),
        ("I cannot help with that.", 0, "no JSON"),
        ('{"triples": []}', 0, "listed no triples"),
    ],
)
def test_model_output_parsing(raw, n, err):
    triples, _, error = parse_triples_output(raw)
    assert len(triples) == n
    assert (error is None) if err is None else (err in error)

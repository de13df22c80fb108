from __future__ import annotations

import io
import json
import zipfile

import pytest
from bad_fixtures import docx_bytes
from pdfmake import text_pdf
from pypdf import PdfReader, PdfWriter

from vgrag.documents.sources import InputError, document_sections, document_text
from vgrag.documents.structure import drop_code, entity_like
from vgrag.documents.triple_files import read_csv, read_jsonl, read_openie, read_triples_file
from vgrag.extraction.parse import parse_triples_output
from vgrag.ingest import plan_chunks
from vgrag.models import Triple
from vgrag.text import chunk_text, split_sentences


def test_pdf_txt_md_html_text():
    assert "Marie Curie won" in document_text("a.pdf", text_pdf(["Marie Curie won the Nobel Prize."]))
    assert document_text("a.txt", "Hello Zoë".encode("utf-8")) == "Hello Zoë"
    assert document_text("a.md", b"# Title\n\nBody") == "Body"  # the heading is the title, not text
    html = document_text("a.html", b"<p>One <b>two</b></p><script>alert(1)</script>")
    assert "two" in html and "alert" not in html


WIKI_MD = b"""# A wiki sample

## Marie Curie

**Marie Curie** was a [physicist](http://example.org/p) ![x](http://exfil.example/?q=1) in _Paris_.

### Early life

She was born in `Warsaw`.

```
diff --git a/x b/x
create mode 100644 x
```

Pierre Curie
------------
- He was her husband.
- He taught at the Sorbonne.

| Prize | Year |
|---|---|
| Nobel | 1903 |
"""


def test_markdown_sections_titles_topics_and_plain_text():
    secs = document_sections("wiki_films.md", WIKI_MD)
    assert [(s.title("wiki_films.md"), s.topic) for s in secs] == [
        ("Marie Curie", "Marie Curie"),
        ("Marie Curie › Early life", "Marie Curie"),  # a generic heading: pronouns fall back to its parent
        ("Pierre Curie", "Pierre Curie"),
    ]
    assert secs[0].text == "Marie Curie was a physicist in Paris."  # markup gone, image dropped, nothing fetched
    assert secs[1].text == "She was born in Warsaw."  # the diff listing is skipped
    assert "He was her husband.\n\nHe taught at the Sorbonne." in secs[2].text
    assert "Prize: Nobel; Year: 1903." in secs[2].text and "---" not in secs[2].text


def test_html_docx_and_plain_text_sections():
    html = (b"<html><head><title>Lovelace page</title></head><body><p>Intro.</p><h1>Ada Lovelace</h1>"
            b"<p>She wrote notes.</p><pre>int x = 1;</pre><h2>Career</h2><p>Worked.</p></body></html>")  # fmt: skip
    secs = document_sections("p.html", html)
    assert [(s.title("p.html"), s.text) for s in secs] == [
        ("Lovelace page", "Intro."),
        ("Ada Lovelace", "She wrote notes."),
        ("Ada Lovelace › Career", "Worked."),
    ]
    docx = io.BytesIO()
    with zipfile.ZipFile(docx, "w") as z:
        paras = [("Heading1", "Grace Hopper"), ("", "She wrote a compiler."), ("Heading2", "Legacy"), ("", "Cobol.")]
        body = "".join(
            f'<w:p><w:pPr><w:pStyle w:val="{st}"/></w:pPr><w:r><w:t>{t}</w:t></w:r></w:p>' if st
            else f"<w:p><w:r><w:t>{t}</w:t></w:r></w:p>"
            for st, t in paras
        )  # fmt: skip
        z.writestr("word/document.xml", f"<w:document><w:body>{body}</w:body></w:document>")
    secs = document_sections("h.docx", docx.getvalue())
    assert [(s.title("h.docx"), s.topic, s.text) for s in secs] == [
        ("Grace Hopper", "Grace Hopper", "She wrote a compiler."),
        ("Grace Hopper › Legacy", "Grace Hopper", "Cobol."),
    ]
    [txt] = document_sections("notes.txt", b"The Analytical Engine\n\nIt was designed by Babbage.")
    assert (txt.title("notes.txt"), txt.text) == ("The Analytical Engine", "It was designed by Babbage.")
    [plain] = document_sections("notes.txt", b"It was designed by Babbage. It ran on steam.")
    assert (plain.title("notes.txt"), plain.topic) == ("notes.txt", "")  # a file name is a title, never a topic


def _pdf(pages: list[list[str]], outline: list[tuple[str, int]]) -> bytes:
    w = PdfWriter()
    for lines in pages:
        w.add_page(PdfReader(io.BytesIO(text_pdf(lines))).pages[0])
    for title, page in outline:
        w.add_outline_item(title=title, page_number=page)
    out = io.BytesIO()
    w.write(out)
    return out.getvalue()


def test_pdf_sections_from_the_outline_else_the_first_line_with_page_numbers():
    pages = [["Annual Report 2023", "Intro text."], ["Acme Corp", "Acme Corp sold widgets."], ["More about Acme."]]
    secs = document_sections("r.pdf", _pdf(pages, [("Annual Report 2023", 0), ("Acme Corp", 1)]))
    assert [(s.title("r.pdf"), s.text) for s in secs] == [
        ("Annual Report 2023 · p. 1", "Intro text."),
        ("Acme Corp · p. 2", "Acme Corp sold widgets."),
        ("Acme Corp · p. 3", "More about Acme."),  # a section across pages: one chunk list per page
    ]
    secs = document_sections("r.pdf", _pdf(pages, []))
    assert [s.title("r.pdf") for s in secs] == [f"Annual Report 2023 · p. {n}" for n in (1, 2, 3)]


def test_chunks_never_cross_a_section_and_code_is_skipped():
    text = "# Alpha Corp\n\n" + "Alpha Corp makes tools. " * 30 + "\n\n# Beta Ltd\n\nBeta Ltd sells them.\n"
    chunks = plan_chunks("two.md", text.encode(), chunk_chars=300)
    assert {c.title for c in chunks} == {"Alpha Corp", "Beta Ltd"}
    assert all(("Beta" in c.text) == (c.title == "Beta Ltd") for c in chunks)
    lines = ["The tool is used as follows.", "$ pip install tool", "def main():", "    return 1;", "It works."]
    assert drop_code(lines) == ["The tool is used as follows.", "It works."]
    assert drop_code(["See f(x) = y; for details.", "Then go on."]) == ["See f(x) = y; for details.", "Then go on."]


def test_entity_like_headings():
    assert entity_like("Marie Curie") and entity_like("Treaty of Paris") and entity_like("Apollo 11")
    assert not entity_like("Early life") and not entity_like("References") and not entity_like("the model we used")


@pytest.mark.parametrize(
    "name,data,msg",
    [
        ("x.pdf", b"this is not a pdf at all", r"not a PDF file \(it does not start as a PDF does\); was another"),
        ("setup.pdf", b"MZ\x90\x00" + bytes(range(256)) * 4, r"^setup\.pdf: not a PDF file [^(]*\([^)]*\)[^(]*$"),
        ("x.txt", b"", "empty"),
        ("x.exe", b"MZ...", "unsupported type"),
        ("x.txt", b"   \n  ", "no readable text"),
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
    # spaCy's sentence segmenter: the abbreviations its tokenizer knows never end a sentence ("Rev.", "Gen.", "Mt.")
    text = "Rev. Lee met Gen. Ott in Mt. Ida. They talked."
    assert split_sentences(text) == ["Rev. Lee met Gen. Ott in Mt. Ida.", "They talked."]
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


ZH = "北京是中华人民共和国的首都，也是全国的政治、文化、国际交往和科技创新中心。北京有三千多年建城史和八百多年建都史。"
JA = (
    "東京は日本の首都であり、世界最大級の都市圏を形成している。江戸幕府が置かれた江戸が明治維新の後に東京と改称された。"
)


def test_unspaced_chinese_and_japanese_prose_is_kept_and_base64_is_not():
    assert document_text("zh.txt", (ZH * 3).encode()) == ZH * 3  # 168 characters without a space
    secs = document_sections("ja.md", f"# 東京\n\n{JA * 3}".encode())
    assert [(s.heading, s.text) for s in secs] == [(("東京",), JA * 3)]
    blob = "QUJD" * 100
    assert document_text("mixed.txt", f"Ada Lovelace wrote notes. {blob} {ZH * 2}".encode()).split() == [
        "Ada", "Lovelace", "wrote", "notes.", ZH * 2]  # fmt: skip


def test_a_last_chunk_whose_words_occur_earlier_is_not_dropped():
    text = "It rained. Alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu. It rained."
    assert chunk_text(text, 80, 0) == [
        "It rained. Alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu.", "It rained."]  # fmt: skip


def test_docx_paragraphs_are_plain_text_not_markdown():
    """Word text that looks like Markdown or HTML is kept as written: a lone ``` does not swallow what follows,
    `<Ctrl>` is not a tag, an image or link-definition line is not markup."""
    paras = ["Ada wrote notes.", "```", "Press <Ctrl> and C.", "If x<y and y>z then x<z.",
             "![chart](fig.png) shows growth.", "# Not a heading", "*Babbage* built the engine."]  # fmt: skip
    [sec] = document_sections("notes.docx", docx_bytes(paras))
    assert sec.heading == ()
    assert sec.text.split("\n\n") == paras
    [ref] = document_sections("refs.docx", docx_bytes(["[note]: Smith wrote a book on engines."]))
    assert ref.text == "[note]: Smith wrote a book on engines."


@pytest.mark.parametrize(
    "html,expected",
    [
        (b"<html><head><title>Doc</title><body><h1>Alice</h1><p>Alice met Bob.</p>", [("Alice", "Alice met Bob.")]),
        (b"<head><title>Doc</title><meta charset=utf-8><p>Alice met Bob.</p>", [("Doc", "Alice met Bob.")]),
        (b"<head><title>Doc</title>Alice met Bob.", [("Doc", "Alice met Bob.")]),
        (b"<p>Alice met Bob.</p><head><title>T</title></head><p>Bob left.</p>", [("T", "Alice met Bob.\n\nBob left.")]),
        (b"<head><title>Doc</title><style>p{}</style></head><body><p>Alice met Bob.</p>", [("Doc", "Alice met Bob.")]),
    ],
    ids=["no </head>, <body>", "no </head>, a <p>", "no </head>, bare text", "text before <head>", "closed head"],
)
def test_html_head_ends_where_html5_ends_it(html, expected):
    """</head> may be left out: the head ends at <body>, a body element or text; a late <head> hides nothing."""
    assert [(s.title("a.html"), s.text) for s in document_sections("a.html", html)] == expected


@pytest.mark.parametrize(
    "outline,expected",
    [
        ([("Alpha", 0), ("Beta", 0)], [(), ("Alpha",), ("Beta",), ("Beta",)]),
        ([("Beta", 0), ("Alpha", 0)], [(), ("Alpha",), ("Beta",), ("Beta",)]),  # outline order is not page order
        ([("Alpha", 0), ("Gamma", 0)], [(), ("Gamma",), ("Gamma",)]),  # Gamma is not on its page: starts after Alpha
        ([("Alpha", 0), ("Beta", 0), ("Alpha", 0)], [(), ("Alpha",), ("Beta",), ("Beta",)]),  # a title twice
    ],
    ids=["in order", "reversed", "title not found", "title twice"],
)
def test_pdf_outline_that_does_not_match_the_page_stores_every_sentence_once(outline, expected):
    pages = [["Intro words here.", "Alpha", "Alice met Bob.", "Beta", "Bob met Carol."], ["Carol left."]]
    secs = document_sections("o.pdf", _pdf(pages, outline))
    assert [s.heading for s in secs] == expected
    text = "\n".join(s.text for s in secs)
    for sentence in ("Intro words here.", "Alice met Bob.", "Bob met Carol.", "Carol left."):
        assert text.count(sentence) == 1, (sentence, text)
    assert [s.page for s in secs][-1] == 2


@pytest.mark.parametrize(
    "data,text",
    [
        ("Zoë Dupré lives in Köln. ".encode() + b"\xff" + " Café.".encode(), "Zoë Dupré lives in Köln. \ufffd Café."),
        ("Zoë lives in Köln.".encode() + b"\x81", "Zoë lives in Köln.\ufffd"),  # 0x81 is undefined in cp1252
        ("Zoë Dupré founded the Café.".encode("cp1252"), "Zoë Dupré founded the Café."),
        ("Zoë Dupré founded the Café.".encode("cp1252") + b"\x9d", "Zoë Dupré founded the Café.\ufffd"),
        ("Ada Lovelace met Zoë in Köln.".encode("utf-16-le"), "Ada Lovelace met Zoë in Köln."),
        ("Ada Lovelace met Zoë in Köln.".encode("utf-16-be"), "Ada Lovelace met Zoë in Köln."),
    ],
    ids=["UTF-8, one bad byte", "UTF-8, a 0x81", "cp1252", "cp1252, a 0x9D", "UTF-16 LE no BOM", "UTF-16 BE no BOM"],
)
def test_text_encodings_lose_only_the_bytes_that_are_wrong(data, text):
    """A few bad bytes in UTF-8 do not turn the file into cp1252 mojibake ("ZoÃ«") or a refusal; each becomes
    U+FFFD. UTF-16 without a byte-order mark is read, not called binary."""
    assert document_text("t.txt", data) == text


def test_a_script_or_style_inside_markdown_is_dropped_like_the_html_readers():
    """A Markdown note with `<script>alert(1)</script>` in a sentence kept "alert(1)" as prose (the tags went, the code
    stayed) and the answer step quoted it as evidence; the HTML reader drops scripts and styles whole."""
    from vgrag.documents.sources import document_sections

    md = b"# Kiosk notes\n\nTarnwell Systems installed the kiosk in 2023. <script>alert(1)</script> It <b>works</b>.\n"
    (sec,) = document_sections("notes.md", md)
    assert sec.text == "Tarnwell Systems installed the kiosk in 2023. It works.", sec.text
    page = b"<h1>Kiosk notes</h1><p>In 2023. <script>alert(1)</script> It works.</p>"
    (html,) = document_sections("notes.html", page)
    assert "alert" not in html.text


def test_a_docx_line_break_and_tab_keep_words_apart():
    import io
    import zipfile

    body = ('<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr><w:r><w:t>Dr Miriam Okafor, '
            'finds specialist</w:t><w:br/><w:t>Report prepared for Tarn Valley Archaeology</w:t></w:r></w:p>'
            '<w:p><w:r><w:t>Site code:</w:t><w:tab/><w:t>BFC24</w:t></w:r></w:p>')
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("word/document.xml", f'<w:document xmlns:w="x"><w:body>{body}</w:body></w:document>')
    text = "\n".join(s.text for s in document_sections("appendix.docx", out.getvalue()))
    assert "specialist\nReport prepared" in text and "specialistReport" not in text
    assert "Site code: BFC24" in text

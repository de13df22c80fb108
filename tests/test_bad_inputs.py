"""Bad input, one table: every case goes through the Build page's own path (Workspace.add_documents with the
offline extractor, or Workspace.import_triples) next to a good file, against a real Milvus Lite file.

Each case must give a message that names the file and says what to do, leave the graph consistent (`check`),
and never stop the good file in the same upload from being stored.
"""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from bad_fixtures import docx_bytes, shared_stream_pdf
from pdfmake import text_pdf
from pypdf import PdfReader, PdfWriter

from vgrag import Settings, Workspace
from vgrag.documents.inputs import MAX_PDF_PAGES
from vgrag.documents.sources import MAX_FILE_MB, InputError
from vgrag.storage.check import check_graph

GOOD = ("good.txt", b"Ada Lovelace worked with Charles Babbage in London. Babbage designed the Analytical Engine.")
ACTION = ("upload", "save", "split", "check", "run ocr", "try", "re-export", "open it", "import")


def _pdf(build) -> bytes:
    w = PdfWriter()
    build(w)
    out = io.BytesIO()
    w.write(out)
    return out.getvalue()


def _page(w: PdfWriter, lines: list[str]) -> None:
    w.add_page(PdfReader(io.BytesIO(text_pdf(lines))).pages[0])


def _encrypted(w: PdfWriter) -> None:
    _page(w, ["Secret plans of Acme Corp."])
    w.encrypt(user_password="letmein", owner_password="owner")


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return out.getvalue()


def _bad_crc_docx() -> bytes:
    data = bytearray(docx_bytes(["Ada Lovelace worked with Charles Babbage."]))
    at = data.find(b"Ada")  # stored uncompressed: one changed byte fails the CRC check
    data[at] = ord("E")
    return bytes(data)


def _lzma_docx() -> bytes:
    """A DOCX whose word/document.xml is LZMA-packed and damaged (zipfile raises LZMAError, not BadZipFile)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_LZMA) as z:
        z.writestr(
            "word/document.xml", "<w:document><w:body><w:p><w:r><w:t>Ada</w:t></w:r></w:p></w:body></w:document>"
        )
    data = bytearray(out.getvalue())
    at = data.find(b"word/document.xml") + len("word/document.xml") + 20
    data[at : at + 30] = bytes(b ^ 0x5A for b in data[at : at + 30])
    return bytes(data)


def _encrypted_docx() -> bytes:
    """A DOCX whose member is flagged as encrypted (zipfile raises RuntimeError: password required)."""
    data = bytearray(docx_bytes(["Ada Lovelace worked with Charles Babbage."]))
    for signature, flags_at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):  # local and central headers
        data[data.find(signature) + flags_at] |= 1
    return bytes(data)


# (case id, file name, bytes, words the message must contain) — documents through add_documents
DOCUMENTS = [
    ("empty file", "empty.txt", b"", "empty"),
    ("binary renamed .txt", "photo.txt", bytes(range(256)) * 64, "binary"),
    ("corrupt PDF", "broken.pdf", b"%PDF-1.4\n1 0 obj <<\n garbage", "not a readable pdf"),
    ("encrypted PDF", "locked.pdf", _pdf(_encrypted), "password"),
    ("scanned PDF, no text layer", "scan.pdf", _pdf(lambda w: w.add_blank_page(612, 792)), "no text layer"),
    ("0-page PDF", "nopages.pdf", _pdf(lambda w: None), "no pages"),
    ("huge single line of no prose", "blob.txt", b"QUJD" * 600_000, "no readable text"),
    ("over the size limit", "big.txt", b"Words and more words. " * (MAX_FILE_MB * 50_000), "limit"),
    ("DOCX that is not a zip", "report.docx", b"this is plain text, not a Word file", "not a readable .docx"),
    ("HTML with only scripts", "app.html", b"<html><script>alert(1)</script><style>p{}</style></html>", "no readable"),
    ("unsupported type", "tool.exe", b"MZ\x90\x00\x03", "unsupported type"),
    ("Markdown of only code", "code.md", b"```\nrm -rf /\n```\n", "no readable"),
    ("no triples in any chunk", "numbers.txt", b"12 34 56 78.\n\n90 12 34.", "no facts"),
    ("DOCX without word/document.xml", "nobody.docx", _zip({"[Content_Types].xml": b"<Types/>"}), ".docx"),
    ("DOCX with a damaged member", "crc.docx", _bad_crc_docx(), "not a readable .docx"),
    ("DOCX with a damaged LZMA member", "lzma.docx", _lzma_docx(), "not a readable .docx"),
    ("DOCX with an encrypted member", "locked.docx", _encrypted_docx(), "password-protected"),
    ("DOCX of unclosed paragraphs", "open.docx", _zip({"word/document.xml": b"<w:body>" + b"<w:p><w:t>" * 20000}),
     "no readable"),
    ("DOCX zip bomb (bigger than the unpacked cap)", "bomb.docx", b"", "zip bomb"),  # built in the test (large)
    ("HTML of only a template", "tpl.htm", b"<template><p>hidden</p></template>", "no readable"),
    ("a PDF with an unknown type", "scan.tiff", b"II*\x00", "unsupported type"),
    ("UTF-16 text cut in half", "half.txt", b"\xff\xfeA\x00d\x00a", "utf-16"),
    ("mostly control characters", "ctl.txt", b"\x01\x02\x03\x04\x05" * 400, "binary"),
    ("PDF over the page limit (300 KB)", "many.pdf", shared_stream_pdf(MAX_PDF_PAGES + 1, lines=1), "page limit"),
]  # fmt: skip
# pre-extracted triple files through import_triples (one file per import on the Build page)
TRIPLE_FILES = [
    (
        "JSONL without passage text",
        "rows.jsonl",
        b'{"subject": "A", "predicate": "r", "object": "B"}\n',
        "no 'passage'",
    ),
    ("JSONL that is not JSON", "rows2.jsonl", b'{"passage": "x"}\nnot json\n', "line 2"),
    ("CSV missing columns", "rows.csv", b"passage,subject\nsome text,A\n", "lacks column"),
    ("OpenIE JSON of the wrong shape", "openie.json", json.dumps({"documents": []}).encode(), "'docs' list"),
    ("OpenIE docs that are not objects", "openie2.json", json.dumps({"docs": ["a", 1]}).encode(), "docs[0]"),
    ("empty triple file", "none.csv", b"", "empty"),
    ("CSV field over the csv module's 128 KB", "long.csv",
     b"passage,subject,predicate,object\n\"" + b"x " * 70_000 + b"\",A,r,B\n", "not a readable CSV"),
    ("OpenIE extracted_triples that is a number", "five.json",
     json.dumps({"docs": [{"title": "T", "text": "Ada met Charles.", "extracted_triples": 5}]}).encode(), "not a list"),
    ("OpenIE extracted_entities that is a string", "ents.json",
     json.dumps({"docs": [{"text": "Ada met Charles.", "extracted_entities": "Ada"}]}).encode(), "not a list"),
    ("OpenIE JSON nested 100,000 deep", "deep.json", b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    ("JSONL line nested 100,000 deep", "deep.jsonl", b'{"passage": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n",
     "nested too deeply"),
    ("OpenIE title that is an object", "title.json",
     json.dumps({"docs": [{"title": {"a": 1}, "text": "Ada met Charles."}]}).encode(), "not text"),
    ("JSONL passage that is an object", "obj.jsonl", b'{"passage": {"text": "x"}, "subject": "A"}\n', "not text"),
    ("JSONL triples that is a number", "num.jsonl", b'{"passage": "Ada met Charles.", "triples": 5}\n', "not a list"),
    ("OpenIE JSON that is a list", "list.json", b"[1, 2, 3]", "'docs' list"),
    ("OpenIE JSON cut short", "cut.json", b'{"docs": [{"title": "T", "text": "Ada', "not valid JSON"),
    ("OpenIE doc with null text and no passage", "null.json",
     json.dumps({"docs": [{"title": "T", "text": None, "passage": None}]}).encode(), "no text"),
    ("CSV with a header only", "header.csv", b"passage,subject,predicate,object\n", "no rows"),
    ("JSONL of blank lines", "blank.jsonl", b"\n\n  \n", "no rows"),
    ("triples in a .txt file", "triples.txt", b"Ada,worked with,Charles", "unsupported triple file"),
    ("binary data named .csv", "data.csv", bytes(range(256)) * 64, "binary"),
]  # fmt: skip


@pytest.fixture(scope="module")
def ws(db, embedder):
    w = Workspace(Settings(milvus_uri="unused"), db, embedder)
    yield w


def _fresh(ws, request) -> str:
    spec = getattr(request.node, "callspec", None)
    name = "bad_" + "".join(c if c.isalnum() else "_" for c in (spec.id if spec else request.node.name))[:30]
    ws.drop(name)
    return name


def _bomb() -> bytes:
    """A DOCX whose word/document.xml unpacks past MAX_UNPACKED_MB (about 100 KB packed), written in pieces."""
    from vgrag.documents.sources import MAX_UNPACKED_MB

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z, z.open("word/document.xml", "w", force_zip64=True) as f:
        para = b"<w:p><w:r><w:t>" + b"a" * 4000 + b"</w:t></w:r></w:p>"
        for _ in range(MAX_UNPACKED_MB * 2**20 // len(para) + 2):
            f.write(para)
    return out.getvalue()


@pytest.mark.parametrize("case,name,data,words", DOCUMENTS, ids=[d[0] for d in DOCUMENTS])
def test_bad_document_next_to_a_good_one(ws, request, case, name, data, words):
    graph = _fresh(ws, request)
    data = _bomb() if name == "bomb.docx" else data
    report = ws.add_documents([(name, data), GOOD], graph)
    mine = [f for f in report.failures if f.source == name]
    assert mine, f"{case}: no message for {name}"
    msg = mine[-1].reason
    assert msg.startswith(f"{name}:"), msg  # names the file
    assert words in msg.lower(), msg
    assert any(a in msg.lower() for a in ACTION), f"{case}: message says nothing to do: {msg}"
    assert "good.txt" in report.documents  # the other file of the upload is stored
    g = ws.graph(graph)
    assert any(e.name == "Ada Lovelace" for e in g.iter_entities())
    assert check_graph(g).ok
    ws.drop(graph)


@pytest.mark.parametrize("case,name,data,words", TRIPLE_FILES, ids=[t[0] for t in TRIPLE_FILES])
def test_bad_triple_file_leaves_the_graph_as_it_was(ws, request, case, name, data, words):
    graph = _fresh(ws, request)
    ws.add_documents([GOOD], graph)
    before = ws.graph(graph).counts()
    with pytest.raises(InputError) as err:
        ws.import_triples((name, data), graph)
    msg = str(err.value)
    assert msg.startswith(f"{name}:") and words in msg, msg
    assert ws.graph(graph).counts() == before and check_graph(ws.graph(graph)).ok
    ws.drop(graph)


@pytest.mark.parametrize(
    "raw,shown",
    [
        ("../../etc/passwd.txt", "etc/passwd.txt"),
        ("C:\\Users\\me\\notes.txt", "C:/Users/me/notes.txt"),
        ("a\x00b\nc.txt", "a b c.txt"),
    ],
)
def test_file_names_with_paths_or_control_characters_are_cleaned(ws, request, raw, shown):
    graph = _fresh(ws, request)
    report = ws.add_documents([(raw, b"Grace Hopper wrote the first compiler.")], graph)
    assert report.documents == (shown,)
    assert [d.name for d in ws.graph(graph).documents.all()] == [shown]
    ws.drop(graph)


def test_non_utf8_text_is_read_not_refused(ws, request):
    """Windows-1252 text (the usual non-UTF-8 file) is decoded, accents intact, instead of being refused."""
    graph = _fresh(ws, request)
    report = ws.add_documents([("cafe.txt", "Zoë Dupré founded the Café Lumière in Paris.".encode("cp1252"))], graph)
    assert not [f for f in report.failures if f.chunk_index is None]
    [p] = ws.graph(graph).iter_passages()
    assert "Zoë Dupré" in p.text and "Café Lumière" in p.text
    ws.drop(graph)


def test_a_docx_with_no_paragraph_text_says_so():
    from vgrag.documents.sources import document_sections

    with pytest.raises(InputError, match="no readable text"):
        document_sections("blank.docx", docx_bytes(["", " "]))


def test_pdf_pages_sharing_one_stream_stop_at_the_text_cap(monkeypatch):
    """20 pages that show one compressed stream: 3.7 KB on disk, 1.23 M characters of text. The reading stops once
    the text passes the cap (here lowered to 500,000 characters) and says to split the file."""
    from vgrag.documents import pdf_text
    from vgrag.documents.sources import document_sections

    data = shared_stream_pdf(20)
    assert len(data) < 5000
    monkeypatch.setattr(pdf_text, "MAX_TEXT_CHARS", 500_000)
    with pytest.raises(InputError, match=r"^big\.pdf: its text passes 500,000 characters by page 8 .*split the PDF"):
        document_sections("big.pdf", data)


def test_the_build_page_estimate_never_raises_on_a_bad_file():
    """The token estimate shown for the LLM extractor reads every upload on each rerun: an unreadable file gives
    no chunks (the build itself reports why) instead of a traceback on the page."""
    from ui.build_tabs import chunk_texts

    for name, data in [("lzma.docx", _lzma_docx()), ("locked.docx", _encrypted_docx()), ("x.pdf", b"%PDF-1.4 junk")]:
        assert chunk_texts(name, data, 1200, 1) == ()
    assert chunk_texts(*GOOD, 1200, 1) == (GOOD[1].decode(),)


def test_an_aes_pdf_that_needs_no_password_is_read():
    """Owner-password-only AES-256 protection (fixtures/aes_owner_only.pdf, made by pypdf's writer.encrypt(
    user_password="", owner_password="x", algorithm="AES-256")) opens with the empty user password; pypdf needs
    `cryptography` (pinned in requirements.txt) for AES. Without it the file was called "password-protected" or
    "not a readable PDF (DependencyError)"; now the message says what is missing."""
    import importlib.util
    from pathlib import Path

    from vgrag.documents.sources import document_text

    data = (Path(__file__).parent / "fixtures" / "aes_owner_only.pdf").read_bytes()
    assert b"/Encrypt" in data and b"/AESV3" in data
    if importlib.util.find_spec("cryptography") is None:
        with pytest.raises(InputError, match=r"^aes\.pdf: the PDF is AES-encrypted and this installation cannot"):
            document_text("aes.pdf", data)
    else:
        assert document_text("aes.pdf", data) == "Ada Lovelace worked with Charles Babbage."

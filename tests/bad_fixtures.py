"""Fixtures shared by the hostile-input tests: a workspace on the session's Milvus Lite file, and a graph of
the test's own name, empty at the start and dropped at the end."""

from __future__ import annotations

import pytest


@pytest.fixture
def graph(ws, request):
    name = "bad_" + "".join(c if c.isalnum() else "_" for c in request.node.name)[-30:]
    ws.drop(name)
    yield name
    ws.drop(name)


def shared_stream_pdf(pages: int, lines: int = 1500, line: str = "Alice met Bob in the garden of the house.") -> bytes:
    """A small PDF whose `pages` pages all show one compressed content stream of `lines` text lines: a few KB on
    disk, `pages` × `lines` × len(line) characters of extracted text."""
    import zlib

    body = b"BT /F1 10 Tf 40 780 Td 11 TL " + b" ".join(b"(" + line.encode() + b") '" for _ in range(lines)) + b" ET"
    packed = zlib.compress(body, 9)
    kids = " ".join(f"{5 + i} 0 R" for i in range(pages))
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>".encode(),
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(packed) + packed + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ] + [
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R "
        b"/Resources << /Font << /F1 4 0 R >> >> >>"
    ] * pages
    out = b"%PDF-1.4\n"
    offsets = []
    for i, o in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + o + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    out += b"".join(b"%010d 00000 n \n" % off for off in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    return out


def docx_bytes(paragraphs: list[str]) -> bytes:
    """A minimal .docx of unstyled paragraphs (text XML-escaped as Word writes it)."""
    import io
    import zipfile
    from xml.sax.saxutils import escape

    body = "".join(f"<w:p><w:r><w:t>{escape(p)}</w:t></w:r></w:p>" for p in paragraphs)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("word/document.xml", f'<w:document xmlns:w="x"><w:body>{body}</w:body></w:document>')
    return out.getvalue()

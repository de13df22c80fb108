"""DOCX text: word/document.xml read under an unpacked-size cap; paragraphs are plain text (never Markdown), its
headings are the paragraphs in Word's Title and Heading styles."""

from __future__ import annotations

import html
import io
import re
import zipfile

from .inputs import MAX_UNPACKED_MB, InputError, clean_text
from .structure import Section, drop_code
from .tables import table_lines

_BREAK = re.compile(r"<w:(?:br|cr)(?:\s[^>]*)?/>")  # a line or page break inside a paragraph
_TAB = re.compile(r"<w:tab/>")  # a run's tab (not the tab stops of <w:tabs>, which carry attributes)
_DOCX_HEADING = re.compile(r'<w:pStyle w:val="(?:Heading|heading ?)(\d)"')


def _read_capped(z: zipfile.ZipFile, member: str, name: str) -> bytes:
    """One zip member, refused (InputError) once it unpacks past MAX_UNPACKED_MB, whatever its header claims:
    read in 1 MB pieces so a zip bomb costs at most the cap in memory."""
    cap = MAX_UNPACKED_MB * 1024 * 1024
    too_big = InputError(f"{name}: its {member} unpacks to more than {MAX_UNPACKED_MB} MB (a zip bomb, or far more "
                         "text than one file should hold); split the document and upload the parts.")  # fmt: skip
    if z.getinfo(member).file_size > cap:
        raise too_big
    out = bytearray()
    with z.open(member) as f:
        while piece := f.read(1 << 20):
            out += piece
            if len(out) > cap:
                raise too_big
    return bytes(out)


def _elements(xml: str, opening: str, closing: str, empty: str | None = None) -> list[str]:
    """The text from each `opening` match to the next `closing` (an `empty` tag counts as an empty element), in
    one linear scan: a file of unclosed tags cannot make the search quadratic."""
    pattern = "|".join(re.escape(t) for t in (closing, empty) if t) + "|" + opening
    out: list[str] = []
    start: int | None = None
    for m in re.finditer(pattern, xml):
        tag = m.group()
        if tag == closing:
            if start is not None:
                out.append(xml[start : m.end()])
                start = None
        elif tag == empty:
            if start is None:
                out.append("")
        elif start is None:
            start = m.start()
    return out


def docx_sections(data: bytes, name: str) -> list[Section]:
    """The sections of a .docx: a Title or HeadingN paragraph opens one, every other paragraph is its text as
    written (`<Ctrl>`, ``` or `[1]:` are words here, not markup); code listings are skipped as in plain text."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            xml = clean_text(_read_capped(z, "word/document.xml", name).decode("utf-8", "replace"))
    except InputError:
        raise
    except Exception as e:  # noqa: BLE001 - BadZipFile, zlib/LZMA/bz2 errors, a missing member, a damaged header …
        if isinstance(e, RuntimeError) and "encrypted" in str(e):  # zipfile's "password required for extraction"
            raise InputError(
                f"{name}: the .docx is password-protected; save an unprotected copy and upload that."
            ) from e
        raise InputError(f"{name}: not a readable .docx file (Word 2007 or later; {type(e).__name__}); open it in "
                         "Word and save as .docx.") from e  # fmt: skip
    sections: list[Section] = []
    path: list[tuple[int, str]] = []
    body: list[str] = []

    def close() -> None:
        text = re.sub(r"\n{3,}", "\n\n", "\n".join(drop_code(body)).strip())
        if text:
            sections.append(Section(tuple(h for _, h in path), text))
        body.clear()

    for para in _elements(_tables_as_rows(xml), r"<w:p[ >]", "</w:p>", "<w:p/>"):
        text = _text(para)
        m = _DOCX_HEADING.search(para)
        level = 1 if re.search(r'<w:pStyle w:val="Title"', para) else int(m.group(1)) + 1 if m else 0
        if level and text:
            close()
            while path and path[-1][0] >= level:
                path.pop()
            path.append((level, " ".join(text.split())))
        else:
            body += [text, ""]
    close()
    return sections


def _text(para: str) -> str:
    """A paragraph's text: its runs' <w:t> joined, a line break (<w:br/>, <w:cr/>) as a new line and a tab as a
    space ("… finds specialist⏎Report prepared for …" is not "specialistReport")."""
    para = _BREAK.sub("<w:t>\n</w:t>", _TAB.sub("<w:t> </w:t>", para))
    runs = (re.sub(r"^<w:t[^>]*>|</w:t>$", "", t) for t in _elements(para, r"<w:t[ >]", "</w:t>"))
    return html.unescape("".join(runs)).strip()


def _tables_as_rows(xml: str) -> str:
    """The document with each table (<w:tbl>) replaced by one plain paragraph per row (documents.tables; a first
    row marked to repeat as a header, <w:tblHeader/>, is the header, else table_lines decides)."""
    parts, end = [], 0
    for start, stop in _outer(xml, re.compile(r"<w:tbl[ >]|</w:tbl>")):
        rows = _elements(xml[start:stop], r"<w:tr[ >]", "</w:tr>")
        cells = [[" ".join(_text(p) for p in _elements(c, r"<w:p[ >]", "</w:p>", "<w:p/>")) for c in
                  _elements(r, r"<w:tc[ >]", "</w:tc>")] for r in rows]  # fmt: skip
        marked = bool(rows) and "<w:tblHeader" in rows[0]
        paras = "".join(f"<w:p><w:r><w:t>{html.escape(x, quote=False)}</w:t></w:r></w:p>"
                        for x in table_lines(cells, header=True if marked else None))  # fmt: skip
        parts += [xml[end:start], paras]
        end = stop
    return "".join(parts) + xml[end:]


def _outer(xml: str, tags: re.Pattern) -> list[tuple[int, int]]:
    """The spans of the outermost elements whose opening and closing tags `tags` matches (nested ones inside them; an
    unclosed one is no element), in one linear scan."""
    out, depth, start = [], 0, 0
    for m in tags.finditer(xml):
        if not m.group().startswith("</"):
            start = m.start() if depth == 0 else start
            depth += 1
        elif depth:
            depth -= 1
            if depth == 0:
                out.append((start, m.end()))
    return out

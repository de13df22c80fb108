"""DOCX text: word/document.xml read under an unpacked-size cap and turned into Markdown-like sections."""

from __future__ import annotations

import html
import io
import re
import zipfile
import zlib

from .inputs import MAX_UNPACKED_MB, InputError, clean_text
from .structure import Section, markdown_sections

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
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            xml = clean_text(_read_capped(z, "word/document.xml", name).decode("utf-8", "replace"))
    except (zipfile.BadZipFile, KeyError, OSError, EOFError, NotImplementedError, zlib.error) as e:
        raise InputError(
            f"{name}: not a readable .docx file (Word 2007 or later); open it in Word and save as .docx."
        ) from e
    lines: list[str] = []
    for para in _elements(xml, r"<w:p[ >]", "</w:p>", "<w:p/>"):
        runs = (re.sub(r"^<w:t[^>]*>|</w:t>$", "", t) for t in _elements(para, r"<w:t[ >]", "</w:t>"))
        text = html.unescape("".join(runs)).strip()
        m = _DOCX_HEADING.search(para)
        if re.search(r'<w:pStyle w:val="Title"', para) and text:
            lines += [f"# {text}", ""]
        elif m and text:
            lines += [f"{'#' * min(int(m.group(1)) + 1, 6)} {text}", ""]
        else:
            lines += [text.replace("#", "\\#") if text.startswith("#") else text, ""]
    return markdown_sections("\n".join(lines))

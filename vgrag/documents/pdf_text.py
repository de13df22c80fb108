"""PDF text: the pages read with pypdf (one pass of its text visitor gives the text and the lines with their
positions), in paragraphs read from the layout (pdf_paragraphs.py), split into sections by the outline (bookmarks)
when there is one, else by the headings the layout shows (pdf_layout.py), else page by page."""

from __future__ import annotations

import bisect
import io
import re

from .inputs import MAX_PDF_PAGES, MAX_TEXT_CHARS, InputError, clean_text
from .pdf_layout import Line, paged_text, read_layout, read_page
from .pdf_tables import page_tables
from .structure import Section, plain_sections


def _pdf_outline(reader: object) -> list[tuple[int, str, int]]:
    """(level, title, 0-based page) of every outline entry that points at a page, in order."""
    out: list[tuple[int, str, int]] = []

    def walk(items: list, level: int) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item, level + 1)
                continue
            try:
                page = reader.get_destination_page_number(item)  # type: ignore[attr-defined]
            except Exception:  # noqa: BLE001 - a broken outline entry is skipped, the text is still read
                continue
            title = " ".join(clean_text(str(getattr(item, "title", "") or "")).split())
            if title and page is not None and page >= 0:
                out.append((level, title, page))

    try:
        walk(list(reader.outline), 1)  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001
        return []
    return sorted(out, key=lambda x: x[2])  # entries in page order (stable within a page)


class _PageWords:
    """A page's text with its whitespace runs read as one space and its letters in lower case, and where each
    character of that came from: a title is found with one str.find, not a regex compiled per title (2,000 long
    outline titles compiled 4,000 patterns: > 180 s)."""

    def __init__(self, text: str) -> None:
        chars: list[str] = []
        self.at: list[int] = []  # the page offset of each character of `flat`
        for m in re.finditer(r"\S+", text):
            if chars:
                chars.append(" ")
                self.at.append(m.start())
            chars.append(_lower(m.group(0)))
            self.at.extend(range(m.start(), m.end()))
        self.flat = "".join(chars)
        self.at.append(len(text))

    def find(self, title: str, start: int) -> tuple[int, int] | None:
        """Where a heading starts and ends in the page's text at or after `start` (None when it is not there)."""
        needle = _lower(" ".join(title.split()))
        if not needle:
            return None
        k = self.flat.find(needle, bisect.bisect_left(self.at, start))
        return None if k < 0 else (self.at[k], self.at[k + len(needle) - 1] + 1)


def _lower(s: str) -> str:
    """`s` in lower case character by character, a character kept when its lower case is not one character (as
    re.I compares): the result has the length of `s`."""
    low = s.lower()
    return low if len(low) == len(s) else "".join(c if len(c.lower()) != 1 else c.lower() for c in s)


def outline_sections(pages: list[str], outline: list[tuple[int, str, int]]) -> list[Section]:
    """Sections under the outline's entries: each opens where its title is found on its page (the title itself is
    the heading, not text). Every character of every page is stored once: a page's entries are taken in the order
    their titles appear there, the reading never moves backwards, and a title not found on its page starts at the
    current position (after the entry before it in the outline)."""
    sections: list[Section] = []
    path: list[tuple[int, str]] = []
    cursor = (0, 0)  # (page, offset): where the text not yet stored begins

    def emit(page: int, upto: int) -> None:
        nonlocal cursor
        (p0, c0) = cursor
        for p in range(p0, page + 1):
            lo = c0 if p == p0 else 0
            hi = upto if p == page else len(pages[p])
            for part in plain_sections(pages[p][lo:hi]):
                sections.append(Section(tuple(h for _, h in path), part.text, p + 1))
        cursor = (page, upto)

    words = [_PageWords(p) for p in pages]
    by_page: dict[int, list[tuple[int, str]]] = {}
    for level, title, page in outline:
        if page < len(pages):
            by_page.setdefault(page, []).append((level, title))
    for page in sorted(by_page):
        start = cursor[1] if cursor[0] == page else 0
        keyed: list[tuple[tuple[int, int, int], int, str]] = []
        prev = start
        for i, (level, title) in enumerate(by_page[page]):
            found = words[page].find(title, start)
            key = (found[0], 0, i) if found else (prev, 1, i)  # not found: right after the entry before it
            prev = key[0]
            keyed.append((key, level, title))
        for _, level, title in sorted(keyed):
            here = cursor[1] if cursor[0] == page else 0
            at, after = words[page].find(title, here) or (here, here)
            emit(page, at)
            cursor = (page, after)
            while path and path[-1][0] >= level:
                path.pop()
            path.append((level, title))
    emit(len(pages) - 1, len(pages[-1]))
    return sections


def _declared_pages(reader: object) -> int:
    """The page count the PDF's page tree declares (0 when it declares none): known without listing the pages."""
    try:
        return max(0, int(reader.trailer["/Root"]["/Pages"]["/Count"]))  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - a missing or damaged count: the pages are counted instead
        return 0


def _read_pages(reader: object, name: str) -> tuple[list[str], list[list[Line]] | None]:
    """Each page's text and lines, from one pass of pypdf's text visitor per page (the lines None when a page's text
    runs cannot be read), refused (InputError) once the text passes MAX_TEXT_CHARS: pages may share one content
    stream, so a file of a few KB can hold millions of characters."""
    pages: list[str] = []
    lines: list[list[Line]] | None = []
    fonts: dict = {}  # each font's widths, read once per document
    total = 0
    for n, page in enumerate(reader.pages, 1):  # type: ignore[attr-defined]
        text, page_lines = read_page(page, n - 1, fonts)
        pages.append(clean_text(text))
        if page_lines is None:  # one unreadable page: the document is read page by page, as pypdf's plain text
            lines = None
        elif lines is not None:
            lines.append(page_lines)
        total += len(pages[-1])
        if total > MAX_TEXT_CHARS:
            raise InputError(f"{name}: its text passes {MAX_TEXT_CHARS:,} characters by page {n:,} (far more than one "
                             "file should hold); split the PDF into smaller files and upload those.")  # fmt: skip
    return pages, lines


def pdf_sections(data: bytes, name: str) -> list[Section]:
    """A PDF's sections (see the module docstring), or InputError saying why it cannot be read and what to do."""
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, PdfReadError, PdfStreamError

    if b"%PDF-" not in data[:1024]:  # every PDF starts so (readers allow a little junk before it)
        raise InputError(f"{name}: not a PDF file (it does not start as a PDF does); was another kind of file renamed "
                         "to .pdf? Upload the document itself, or save it as PDF.")  # fmt: skip
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            try:
                ok = reader.decrypt("")  # "owner-only" protection opens with an empty user password
            except Exception:  # noqa: BLE001 - unsupported cipher
                ok = 0
            if not ok:
                raise InputError(f"{name}: the PDF is password-protected; save an unlocked copy and upload that.")
        declared = _declared_pages(reader)  # checked first: listing 100,000 pages alone takes pypdf 9 s
        n_pages = declared if declared > MAX_PDF_PAGES else len(reader.pages)
        if n_pages == 0:
            raise InputError(f"{name}: the PDF has no pages; re-export it from the program that made it.")
        if n_pages > MAX_PDF_PAGES:
            raise InputError(f"{name}: {n_pages:,} pages is over the {MAX_PDF_PAGES:,}-page limit per PDF; "
                             "split it into smaller PDFs and upload those.")  # fmt: skip
        pages, lines = _read_pages(reader, name)
        if lines is not None:  # each page's tables as rows, before its furniture is dropped (a cell is not a page no.)
            lines = [page_tables(pl) for pl in lines]
        outline = _pdf_outline(reader)
        if outline and lines is not None:  # the outline's sections read the pages with their paragraphs
            pages = [clean_text(p) for p in paged_text(lines)]
        layout = None if outline or lines is None else read_layout(lines)
    except InputError:
        raise
    except DependencyError as e:  # AES needs the `cryptography` package (requirements.txt)
        raise InputError(f"{name}: the PDF is AES-encrypted and this installation cannot decrypt it ({e}); save an "
                         "unencrypted copy and upload that.") from e  # fmt: skip
    except Exception as e:  # noqa: BLE001 - pypdf raises many types on damaged files
        if isinstance(e, (PdfReadError, PdfStreamError, ValueError, KeyError, TypeError, AttributeError, OSError)):
            raise InputError(
                f"{name}: not a readable PDF ({type(e).__name__}: {e}); re-export it or check the file."
            ) from e
        raise InputError(f"{name}: not a readable PDF ({type(e).__name__}); re-export it or check the file.") from e
    if not any(p.strip() for p in pages):
        raise InputError(f"{name}: the PDF has no text layer (scanned pages?); run OCR on it first, then upload again.")
    if outline:
        return outline_sections(pages, outline)
    if layout is not None and layout.sections:  # no outline, but visible headings
        return list(layout.sections)
    if layout is not None and any(p.strip() for p in layout.pages):  # no heading visible: the pages
        pages = [clean_text(p) for p in layout.pages]  # without their running headers/footers
    sections: list[Section] = []
    heading: tuple[str, ...] = ()
    for n, text in enumerate(pages, 1):
        for part in plain_sections(text, first_line_title=not heading and not sections):
            heading = heading or part.heading
            sections.append(Section(heading, part.text, n))
    return sections

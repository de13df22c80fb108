"""Structure of a PDF without an outline, from how its text looks: headings are lines set larger or bold than the
body text, running headers/footers (page numbers "1/16", printed URLs and dates, a line repeated on most pages) are
page furniture and dropped. pypdf's text visitor gives each text run's font and size; nothing else is needed.
"""

from __future__ import annotations

import logging
import math
import re
from collections import Counter
from dataclasses import dataclass

from .structure import Section

log = logging.getLogger(__name__)

HEADING_RATIO = 1.15  # a line this much larger than the body text is a heading
MAX_HEADING_CHARS = 150
EDGE_LINES = 3  # running headers/footers sit among the first/last lines of a page

_PAGE_NO = re.compile(r"^(?:page\s*)?\d{1,4}(?:\s*(?:/|of)\s*\d{1,4})?$", re.I)
_URL = re.compile(r"^(?:\S*\s+)?(?:https?|file|ﬁle)://\S+(?:\s+\d{1,4}\s*/\s*\d{1,4})?$", re.I)
_DATE = re.compile(r"^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}(?:,?\s+\d{1,2}:\d{2}(?:\s*[AP]M)?)?\b", re.I)


@dataclass(frozen=True)
class Line:
    text: str
    size: float  # the font size most of the line's characters are set in
    bold: bool  # every run with letters is in a bold face
    page: int  # 0-based


def _bold(font: object) -> bool:
    if not font:
        return False
    name = str(font.get("/BaseFont", ""))  # type: ignore[attr-defined]
    if re.search(r"bold|black|heavy|semibold", name, re.I):
        return True
    try:
        desc = font.get("/FontDescriptor")  # type: ignore[attr-defined]
        desc = desc.get_object() if desc is not None else None
        return bool(desc) and float(desc.get("/FontWeight", 400)) >= 600
    except Exception:  # noqa: BLE001 - a damaged descriptor only means "not known to be bold"
        return False


def page_lines(page: object, number: int) -> list[Line]:
    """The lines of one page in reading order, each with its dominant size and whether it is bold."""
    lines: list[Line] = []
    runs: list[tuple[str, float, bool]] = []
    last_y: float | None = None

    def flush() -> None:
        text = " ".join("".join(r[0] for r in runs).split())
        if text:
            sizes: Counter[float] = Counter()
            for t, s, _ in runs:
                sizes[s] += len(t.strip())
            lettered = [b for t, _, b in runs if any(c.isalpha() for c in t)]
            lines.append(Line(text, sizes.most_common(1)[0][0], bool(lettered) and all(lettered), number))
        runs.clear()

    def visit(text: str, cm: list, tm: list, font: object, size: float) -> None:
        nonlocal last_y
        scale = math.hypot(tm[0], tm[1]) * math.hypot(cm[0], cm[1]) or 1.0
        y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        pieces = text.split("\n")
        for i, piece in enumerate(pieces):
            if i > 0:
                flush()
            if not piece:
                continue
            if last_y is not None and abs(y - last_y) > 2 and runs:
                flush()
            last_y = y
            runs.append((piece, round(float(size or 0) * scale, 1), _bold(font)))

    page.extract_text(visitor_text=visit)  # type: ignore[attr-defined]
    flush()
    return lines


def _shape(text: str) -> str:
    return re.sub(r"\d+", "#", text.casefold())


def drop_furniture(pages: list[list[Line]]) -> list[list[Line]]:
    """Pages without running headers/footers: among a page's first/last lines, page numbers, printed URLs and
    dates, and any line (digits ignored) that recurs at the edge of at least half the pages (two or more)."""
    edge = [pl[:EDGE_LINES] + pl[-EDGE_LINES:] for pl in pages]
    seen = Counter(s for lines in edge for s in {_shape(x.text) for x in lines})
    need = max(2, math.ceil(len(pages) / 2))
    out = []
    for lines in pages:
        n = len(lines)
        keep = []
        for i, line in enumerate(lines):
            at_edge = i < EDGE_LINES or i >= n - EDGE_LINES
            t = line.text.strip()
            furniture = at_edge and (
                bool(_PAGE_NO.match(t) or _URL.match(t) or _DATE.match(t))
                or (len(pages) >= 2 and seen[_shape(t)] >= need)
            )
            if not furniture:
                keep.append(line)
        out.append(keep)
    return out


def _body_size(lines: list[Line]) -> float:
    sizes: Counter[float] = Counter()
    for x in lines:
        sizes[x.size] += len(x.text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


def _is_heading(line: Line, body: float) -> bool:
    t = line.text
    if len(t) > MAX_HEADING_CHARS or not any(c.isalpha() for c in t) or _PAGE_NO.match(t):
        return False
    if line.size >= body * HEADING_RATIO:
        return True
    return line.bold and line.size >= body * 0.95 and not t.endswith((".", ",", ";"))


def layout_sections(pages: list[list[Line]]) -> list[Section]:
    """Sections under the visual headings of a PDF (levels from larger to smaller heading styles); [] when the
    document shows no heading, so the caller keeps its page-by-page reading."""
    lines = [x for pl in pages for x in pl]
    body = _body_size(lines)
    flags = [_is_heading(x, body) for x in lines]
    if not any(flags) or all(flags):
        return []
    styles = sorted({(x.size, x.bold) for x, f in zip(lines, flags, strict=True) if f}, reverse=True)
    level = {s: i + 1 for i, s in enumerate(styles)}
    sections: list[Section] = []
    path: list[tuple[int, str]] = []
    body_lines: list[str] = []
    start_page = lines[0].page
    prev_heading: Line | None = None

    def close() -> None:
        text = _join(body_lines)
        if text:
            sections.append(Section(tuple(h for _, h in path), text, start_page + 1))
        body_lines.clear()

    for line, is_head in zip(lines, flags, strict=True):
        if is_head:
            lv = level[(line.size, line.bold)]
            if prev_heading is not None and (prev_heading.size, prev_heading.bold) == (line.size, line.bold):
                path[-1] = (lv, f"{path[-1][1]} {line.text}")  # a heading wrapped over two lines
                continue
            close()
            while path and path[-1][0] >= lv:
                path.pop()
            path.append((lv, line.text))
            start_page = line.page
            prev_heading = line
            continue
        if not body_lines:
            start_page = line.page
        body_lines.append(line.text)
        prev_heading = None
    close()
    return sections


@dataclass(frozen=True)
class PdfLayout:
    sections: tuple[Section, ...]  # under the visible headings; () when the document shows none
    pages: tuple[str, ...]  # each page's lines without furniture (the reading when no heading is visible)


def read_layout(reader: object, max_chars: int) -> PdfLayout | None:
    """A PDF's visible structure with its furniture dropped; None when its text runs cannot be read or pass
    `max_chars` (the caller then reads it page by page with pypdf's plain extraction)."""
    pages: list[list[Line]] = []
    chars = 0
    try:
        for i, p in enumerate(reader.pages):  # type: ignore[attr-defined]
            pages.append(page_lines(p, i))
            chars += sum(len(x.text) for x in pages[-1])
            if chars > max_chars:
                log.warning("PDF text runs pass %s characters; reading it page by page", max_chars)
                return None
    except Exception:  # noqa: BLE001 - pypdf raises many types on odd files; the plain reading still works
        log.warning("PDF text runs unreadable; reading it page by page", exc_info=True)
        return None
    kept = drop_furniture(pages)
    return PdfLayout(tuple(layout_sections(kept)), tuple("\n".join(x.text for x in pl) for pl in kept))


def _join(lines: list[str]) -> str:
    """Wrapped lines back into running text (a line ending in a hyphen joins the next word without a space)."""
    out = ""
    for x in lines:
        if out.endswith("-") and x[:1].islower():
            out += x
        else:
            out = f"{out} {x}" if out else x
    return out.strip()

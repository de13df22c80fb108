"""Structure of a PDF without an outline, from how its text looks: headings are lines set larger or bold than the
body text, running headers/footers (page numbers "1/16", printed URLs and dates, a line repeated on most pages) are
page furniture and dropped. pypdf's text visitor gives each text run's font, size and position (one pass gives both
pypdf's plain text and the lines); the fonts' widths give where a line ends, and pdf_paragraphs.py the paragraphs.
"""

from __future__ import annotations

import logging
import math
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

from .pdf_paragraphs import Line, paragraph_starts, paragraphs_text, words
from .structure import Section

log = logging.getLogger(__name__)
# a font's ligature glyphs as the letters they join ("MV Puﬃn" is "MV Puffin", as the same text in HTML): U+FB00–FB06
LIGATURES = {c: unicodedata.normalize("NFKC", chr(c)) for c in range(0xFB00, 0xFB07)}

HEADING_RATIO = 1.15  # a line this much larger than the body text is a heading
MAX_HEADING_CHARS = 150
EDGE_LINES = 3  # running headers/footers sit among the first/last lines of a page

_PAGE_NO = re.compile(r"^(?:page\s*)?\d{1,4}(?:\s*(?:/|of)\s*\d{1,4})?$", re.I)
_URL = re.compile(r"^(?:\S*\s+)?(?:https?|file|ﬁle)://\S+(?:\s+\d{1,4}\s*/\s*\d{1,4})?$", re.I)
_DATE = re.compile(r"^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}(?:,?\s+\d{1,2}:\d{2}(?:\s*[AP]M)?)?\b", re.I)


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


Run = tuple[str, float, bool, float | None, float | None, float | None, float | None, float | None]  # text, size,
# bold, x, y, width, lead (its first word's width and a space's), ink (the width of its text without the spaces around)
CELL_GAP = 0.1  # a run starting right of where the text before it ends (more than kerning) starts another piece of
# the line. Cells of a table can stand closer than words (1.6 pt at 9 pt in Chromium's default table style): whether
# pieces are cells is not told by their gap but by their alignment with the lines around (pdf_tables.py)


def _advances(font: object) -> dict[str, float] | None:
    """A font's advance width per character (1/1000 em), from pypdf's own reading of the font's /Widths or /W and
    its /ToUnicode map; None when pypdf cannot read them (the line's end is then unknown)."""
    try:
        from pypdf.generic._font import Font  # pypdf's font metrics (pypdf is pinned: requirements.txt)

        f = Font.from_font_resource(font)  # type: ignore[arg-type]
        widths = f.character_widths
        out = {} if f.sub_type == "Type0" else {k: float(v) for k, v in widths.items() if len(k) == 1}
        default = widths.get("default")  # a code the font lists no width for has the default one (/DW)
        for code, char in f.character_map.items():  # a code's width is its character's
            if isinstance(char, str) and len(char) == 1 and (code in widths or default is not None):
                out[char] = float(widths.get(code, default))  # type: ignore[arg-type]
        out.setdefault(" ", float(f.space_width))  # a space the font does not draw still advances
        return out
    except Exception:  # noqa: BLE001 - a damaged font only means "width unknown"
        return None


def _new_line(runs: list[Run], x: float | None, y: float | None, em: float) -> bool:
    """Whether a run at (x, y) starts a new line after `runs`: its baseline is more than 2 pt off the line's, unless
    it is a superscript or subscript ("km²", "H₂O", a footnote mark) — less than half an em off and going on to the
    right of the run before it."""
    base = next((r[4] for r in runs if r[4] is not None), None)
    if y is None or base is None or abs(y - base) <= 2:
        return False
    if abs(y - base) >= 0.5 * max(em, *(r[1] for r in runs)):
        return True
    last = runs[-1]
    end = None if last[3] is None else last[3] + (last[5] or 0.0)
    return x is None or end is None or x < end - 0.5 * em


def _pieces(runs: list[Run]) -> tuple[tuple[float, float | None, str], ...]:
    """A line's pieces (x, where its ink ends or None, text) when runs on it stand apart (CELL_GAP), else ()."""
    out: list[list] = []
    for text, size, _, x, _, _, _, ink in runs:
        if not text.strip():
            continue
        end = None if x is None or ink is None else x + ink
        if out and x is not None and out[-1][1] is not None and x - out[-1][1] > CELL_GAP * size:
            out.append([x, end, text])
        elif out:
            out[-1][1] = end
            out[-1][2] += text
        else:
            out.append([x, end, text])
    return tuple((x, end, " ".join(t.split())) for x, end, t in out) if len(out) >= 2 else ()


def read_page(page: object, number: int, fonts: dict) -> tuple[str, list[Line] | None]:
    """pypdf's text of one page and, from the same pass, its lines in reading order, each with its dominant size,
    whether it is bold, and where it starts and ends (None when the text runs cannot be read). `fonts` keeps each
    font's widths for the whole document."""
    lines: list[Line] = []
    runs: list[Run] = []
    broken = False

    def flush() -> None:
        text = " ".join("".join(r[0] for r in runs).split())
        if text:
            sizes: Counter[float] = Counter()
            for r in runs:
                sizes[r[1]] += len(r[0].strip())
            lettered = [r[2] for r in runs if any(c.isalpha() for c in r[0])]
            ends = [r[3] + r[5] for r in runs if r[3] is not None and r[5] is not None]
            first = next(r for r in runs if r[0].strip())
            size = sizes.most_common(1)[0][0]
            base = max((r for r in runs if r[1] == size), key=lambda r: len(r[0].strip()))[4]  # not a superscript's
            shifts = [r[4] - base for r in runs if r[4] is not None and base is not None]
            lines.append(Line(text, size, bool(lettered) and all(lettered), number, first[3], base,
                              max(ends) if len(ends) == len(runs) else None, first[6], max([0.0, *shifts]),
                              -min([0.0, *shifts]), _pieces(runs)))  # fmt: skip
        runs.clear()

    def face(font: object) -> tuple[dict[str, float] | None, bool]:
        """A font's widths and whether it is bold, read once per document."""
        if not font:
            return None, False
        ref = getattr(font, "indirect_reference", None)
        key = (ref.idnum, ref.generation) if ref is not None else id(font)
        if key not in fonts:
            fonts[key] = (font, _advances(font), _bold(font))  # the font kept: its id is not reused meanwhile
        return fonts[key][1], fonts[key][2]

    def visit(text: str, cm: list, tm: list, font: object, size: float) -> None:
        nonlocal broken
        if broken or not text:
            return
        try:
            if text == "\n":  # most calls: pypdf ends a line
                flush()
                return
            scale = math.hypot(tm[0], tm[1]) * math.hypot(cm[0], cm[1]) or 1.0
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            em = float(size or 0) * scale
            adv, bold = face(font)
            for i, piece in enumerate(text.split("\n")):
                if i > 0:
                    flush()
                    x = y = None  # a piece after a line break inside one run: its position is not known
                if not piece:
                    continue
                if _new_line(runs, x, y, em):
                    flush()
                width = lead = ink = None
                if adv is not None and adv.keys() >= set(piece):  # a glyph without a width: the width is unknown
                    width = sum(map(adv.__getitem__, piece)) * em / 1000
                    ink = sum(map(adv.__getitem__, piece.strip())) * em / 1000
                    if not runs:
                        word = piece.split()[0] if piece.split() else ""
                        lead = sum(map(adv.__getitem__, word + " ")) * em / 1000
                runs.append((piece.translate(LIGATURES), round(em, 1), bold, x, y, width, lead, ink))
        except Exception:  # noqa: BLE001 - pypdf's plain text is still read; the layout is not
            log.warning("PDF text runs unreadable on page %s; reading it page by page", number + 1, exc_info=True)
            broken = True

    text = page.extract_text(visitor_text=visit)  # type: ignore[attr-defined]
    visit("\n", [], [], None, 0)  # the last line
    return (text or "").translate(LIGATURES), None if broken else lines


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
            furniture = (
                at_edge
                and not line.row
                and (
                    bool(_PAGE_NO.match(t) or _URL.match(t) or _DATE.match(t))
                    or (len(pages) >= 2 and seen[_shape(t)] >= need)
                )
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
    if line.row or len(t) > MAX_HEADING_CHARS or not any(c.isalpha() for c in t) or _PAGE_NO.match(t):
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
    starts = paragraph_starts(lines)
    known = _known(lines)
    styles = sorted({(x.size, x.bold) for x, f in zip(lines, flags, strict=True) if f}, reverse=True)
    level = {s: i + 1 for i, s in enumerate(styles)}
    sections: list[Section] = []
    path: list[tuple[int, str]] = []
    body_lines: list[tuple[Line, bool]] = []
    start_page = lines[0].page
    prev_heading: Line | None = None

    def close() -> None:
        text = paragraphs_text([x for x, _ in body_lines], [s for _, s in body_lines], known).strip()
        if text:
            sections.append(Section(tuple(h for _, h in path), text, start_page + 1))
        body_lines.clear()

    for line, is_head, start in zip(lines, flags, starts, strict=True):
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
        body_lines.append((line, start))
        prev_heading = None
    close()
    return sections


def _known(lines: list[Line]) -> set[str] | None:
    """The document's words, read only when a line ends with a hyphen (see pdf_paragraphs.glue)."""
    return words([x.text for x in lines]) if any(x.text.endswith(("-", "‐")) for x in lines) else None


def paged_text(pages: list[list[Line]]) -> tuple[str, ...]:
    """Each page's text: its paragraphs with a blank line between them, a paragraph's lines one per line (as pypdf's
    plain text has them, for the line-by-line reading of plain_sections), hyphenated words glued."""
    lines = [x for pl in pages for x in pl]
    starts = iter(paragraph_starts(lines))
    known = _known(lines)
    out = []
    for pl in pages:
        flags = [next(starts) for _ in pl]
        out.append(paragraphs_text(pl, [True, *flags[1:]][: len(pl)], known, "\n"))
    return tuple(out)


@dataclass(frozen=True)
class PdfLayout:
    sections: tuple[Section, ...]  # under the visible headings; () when the document shows none
    pages: tuple[str, ...]  # each page's paragraphs without furniture (the reading when no heading is visible)


def read_layout(pages: list[list[Line]]) -> PdfLayout:
    """A PDF's visible structure, from its pages' lines, with its furniture dropped."""
    kept = drop_furniture(pages)
    sections = layout_sections(kept)
    return PdfLayout(tuple(sections), () if sections else paged_text(kept))

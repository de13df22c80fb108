"""Paragraphs of a PDF's text from its page layout: pypdf gives lines, not paragraphs, and the extractor then reads a
by-line, a "Published" line and a dateline as one sentence ("Science Correspondent | Published By | Tom Reyes").

A line starts a paragraph when the page shows it (each measured per document, none a number of points):
- a vertical gap clearly larger than the document's own line spacing at that font size (its most common baseline
  distance; what a sub- or superscript adds to a gap does not count), or a change of font size between body lines
  (a caption, a by-line, a footnote);
- a first-line indent: the line starts right of the left edge of its block (the lines of one column run);
- a short line before it: the next line's first word would have fitted in the room left on the line, so the line
  was ended on purpose (a line breaker moves a word down only when it does not fit; widths are the fonts' natural
  ones, so justified text, which only stretches lines after breaking, reads the same);
and where the text visibly runs on (the line ends no sentence or clause and the next one starts in lower case) only
when the line is far short (a list item without punctuation). Across a page or column the gap says nothing: only the
indent and the short line count there.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

GAP_RATIO = 1.25  # a baseline distance this much above the document's usual one at that size parts paragraphs
BLOCK_GAP = 3.0  # ... and this much above it (a figure, a table between) starts a new block of lines
SAME_SIZE = 0.05  # font sizes within 5 % are one size
MIN_INDENT = 0.5  # a first-line indent of at least half an em (CSS 1.5em, TeX 1.5em, Word 0.5 in at 10-12 pt)
MAX_INDENT = 5.0  # a line more than 5 em right of the one before it is in another column, not indented
SURE_ROOM = 3.0  # room of 3 em beyond the next word ends a line even where the text reads on (a list item without
# punctuation): more than a justifying line breaker (TeX's) ever leaves to stretch a line (about 1/6 em a space)


@dataclass(frozen=True)
class Line:
    text: str
    size: float  # the font size most of the line's characters are set in
    bold: bool  # every run with letters is in a bold face
    page: int  # 0-based
    x: float | None = None  # where the line starts (page space; None when pypdf gave no position)
    y: float | None = None  # its baseline (upwards)
    right: float | None = None  # where it ends, from its fonts' natural widths (None when a width is unknown)
    lead: float | None = None  # the width of its first word and a space (would it have fitted on the line before?)
    rise: float = 0.0  # how far a superscript on it stands above its baseline (it widens the gap above the line)
    drop: float = 0.0  # how far a subscript on it stands below (it widens the gap below)
    pieces: tuple[tuple[float, float | None, str], ...] = ()  # (x, end, text) of runs standing apart (cells), when 2+
    row: bool = False  # a table's row written as one paragraph (pdf_tables.py); no position, a paragraph of its own


_ENDS = re.compile(r"[.!?:;][\"'”’)\]]*$")  # a sentence or clause ends the line
_WORD = re.compile(r"[^\W\d_]+(?:[-‐][^\W\d_]+)*")


def _same_size(a: float, b: float) -> bool:
    return abs(a - b) <= SAME_SIZE * max(a, b, 1e-6)


def runs_on(a: str, b: str) -> bool:
    """The text visibly goes on from line `a` into line `b`: `a` ends no sentence or clause, `b` starts lower case."""
    return not _ENDS.search(a) and b[:1].islower()


def _leading(lines: Sequence[Line]) -> dict[float, float]:
    """The usual baseline distance of consecutive lines per font size (the most common one, in half points, then
    the median of the distances near it): measured on the document itself."""
    seen: dict[float, list[float]] = defaultdict(list)
    for a, b in itertools.pairwise(lines):
        if a.y is None or b.y is None or a.x is None or b.x is None or a.page != b.page or b.y >= a.y:
            continue
        if _same_size(a.size, b.size) and abs(a.x - b.x) <= MAX_INDENT * b.size:
            seen[b.size].append(a.y - b.y)
    out = {}
    for size, dys in seen.items():
        mode = Counter(round(d * 2) / 2 for d in dys).most_common(1)[0][0]
        near = sorted(d for d in dys if abs(d - mode) <= 0.1 * mode)
        out[size] = near[len(near) // 2]
    return out


def _expected(size: float, leading: dict[float, float]) -> float | None:
    """The usual baseline distance at `size`: measured at that size, else scaled from the sizes that were."""
    if size in leading:
        return leading[size]
    ratios = sorted(v / k for k, v in leading.items() if k > 0)
    return ratios[len(ratios) // 2] * size if ratios else None


def _blocks(lines: Sequence[Line], leading: dict[float, float]) -> list[int]:
    """Each line's block: consecutive lines of one page going down one column in one size, no wider apart than a
    few lines (a new column, page, size or a figure between starts a new block)."""
    out: list[int] = []
    for i, b in enumerate(lines):
        a = lines[i - 1] if i else None
        same = (
            a is not None and a.page == b.page and None not in (a.x, a.y, b.x, b.y) and b.y < a.y  # type: ignore[operator]
            and _same_size(a.size, b.size) and abs(a.x - b.x) <= MAX_INDENT * b.size  # type: ignore[operator]
        )  # fmt: skip
        if same:
            exp = _expected(b.size, leading)
            same = exp is None or a.y - b.y <= BLOCK_GAP * exp  # type: ignore[operator,union-attr]
        out.append(out[-1] if same and out else (out[-1] + 1 if out else 0))
    return out


def paragraph_starts(lines: Sequence[Line]) -> list[bool]:
    """Whether each of a document's lines (in reading order, furniture dropped) starts a paragraph."""
    if not lines:
        return []
    leading = _leading(lines)
    block = _blocks(lines, leading)
    left: dict[int, float] = {}
    right: dict[int, float] = {}
    xs: dict[int, Counter[float]] = defaultdict(Counter)
    for line, k in zip(lines, block, strict=True):
        if line.x is not None:
            xs[k][round(line.x)] += 1
        if line.right is not None:
            right[k] = max(right.get(k, line.right), line.right)
    for k, c in xs.items():  # the block's left edge: the leftmost x two lines share (one line: its own)
        shared = [x for x, n in c.items() if n >= 2]
        left[k] = min(shared or c)

    def indented(i: int) -> bool:
        b = lines[i]
        if b.x is None or block[i] not in left:
            return False
        a = lines[i - 1]
        if block[i - 1] == block[i] and a.x is not None and abs(a.x - b.x) < MIN_INDENT * b.size:
            return False  # indented as the line before (a quotation, a list's continuation): no first line
        return MIN_INDENT * b.size <= b.x - left[block[i]] <= MAX_INDENT * b.size

    def short(i: int, on: bool) -> bool:
        a, b = lines[i - 1], lines[i]
        room = right.get(block[i - 1])
        if a.right is None or b.lead is None or room is None or a.text.endswith(("-", "‐", "\u00ad")):
            return False
        return room - a.right - b.lead > (SURE_ROOM * a.size if on else 0)

    starts = [True]
    for i in range(1, len(lines)):
        a, b = lines[i - 1], lines[i]
        if a.row or b.row:
            starts.append(True)
            continue
        if runs_on(a.text, b.text):
            starts.append(short(i, True))
            continue
        if block[i] != block[i - 1]:
            down = a.page == b.page and a.y is not None and b.y is not None and b.y < a.y
            starts.append(bool(down and (not _same_size(a.size, b.size) or _far(a, b, leading)))
                          or indented(i) or short(i, False))  # fmt: skip
            continue
        exp = _expected(b.size, leading)  # a subscript on the line above or a superscript below widen the gap
        gap = exp is not None and a.y - b.y - a.drop - b.rise > GAP_RATIO * exp  # type: ignore[operator]
        starts.append(gap or indented(i) or short(i, False))
    return starts


def _far(a: Line, b: Line, leading: dict[float, float]) -> bool:
    """`b` is below `a` on its page but a block away: further down than BLOCK_GAP lines, or in another column."""
    exp = _expected(b.size, leading)
    if a.x is not None and b.x is not None and abs(a.x - b.x) > MAX_INDENT * b.size:
        return True
    return exp is not None and a.y - b.y > BLOCK_GAP * exp  # type: ignore[operator]


def words(texts: Sequence[str]) -> set[str]:
    """The words a document writes (lower case, hyphenated compounds whole): evidence for reading a line-end
    hyphen."""
    return {w.casefold() for t in texts for w in _WORD.findall(t)}


def glue(a: str, b: str, known: set[str] | None) -> str | None:
    """Two lines of one paragraph as one, when `a` ends with a hyphen: a soft hyphen always goes; a hyphen next to a
    digit stays and joins (a date or an id: "2026-07-15"); between letters a hyphen goes
    only when the document writes the joined word elsewhere and never the hyphenated one ("recom-" "mend" →
    "recommend"), else it stays ("snow-" "poor" → "snow-poor"). None when `a` ends with no hyphen after a letter
    (the lines are joined by a space)."""
    if a.endswith("\u00ad"):
        return a[:-1] + b
    if len(a) >= 2 and a[-1] in "-‐" and a[-2].isalnum() and b[:1].isalnum() and (a[-2].isdigit() or b[0].isdigit()):
        return a + b  # a date or an id broken after its hyphen ("2026-07-" "15", "COVID-" "19"): one token
    if len(a) < 2 or a[-1] not in "-‐" or not a[-2].isalpha() or not b[:1].isalpha():
        return None
    head = re.search(r"[^\W\d_]+$", a[:-1])
    tail = re.match(r"[^\W\d_]+", b)
    if known is not None and head and tail and b[:1].islower():
        whole, split = (head.group(0) + tail.group(0)).casefold(), f"{head.group(0)}-{tail.group(0)}".casefold()
        if whole in known and split not in known:
            return a[:-1] + b
    return a + b


def join_lines(texts: Sequence[str], known: set[str] | None, sep: str = " ") -> str:
    """A paragraph's lines as one text: glued at a line-end hyphen (see `glue`), else joined by `sep`."""
    out: list[str] = []
    for t in texts:
        glued = glue(out[-1], t, known) if out else None
        if glued is not None:
            out[-1] = glued
        else:
            out.append(t)
    return sep.join(out)


def paragraphs_text(lines: Sequence[Line], starts: Sequence[bool], known: set[str] | None, sep: str = " ") -> str:
    """Lines as paragraphs: a blank line between paragraphs, the lines of one joined by `sep`."""
    paras: list[list[str]] = []
    for line, start in zip(lines, starts, strict=True):
        if start or not paras:
            paras.append([])
        paras[-1].append(line.text)
    return "\n\n".join(join_lines(p, known, sep) for p in paras)

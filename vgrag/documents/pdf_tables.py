"""Tables on a PDF page, from the layout: a PDF has no table, only text placed on the page, and read as lines a
table runs on as prose ("Upgrade lyra … #4412 Aisha Khan 2026-07- 15 Add a deadlock detector …").

The page's text pieces (a line's runs standing apart, pdf_layout.CELL_GAP) are read in the order the page draws them
into rows of cells: a piece just below the one before it and overlapping it across goes on that cell (a cell's text
wrapped onto a second line, a centred header in two lines); a piece in the same size right of the cell before it and
level with the row (cells are set at the top, middle or bottom of their row) starts the next cell; anything else
starts a row. A
table is a run of at least three rows (a header and two rows) of two cells or more whose cells fall into the same
columns — the columns are the gaps across the page that no cell of a data row crosses, with two columns at least —
and whose first row labels the columns (tables.looks_like_header). Its rows are then written as every other
format's are (tables.table_lines: "Owner: Aisha Khan; Due: 2026-07-15."), one paragraph a row, so extraction reads
them as rows (extraction.tables); every other line stays as it was. A table without a header row, and a table's
rows carried on to the next page without the header repeated, are not recognised.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .pdf_paragraphs import GAP_RATIO, Line, _expected, _leading, _same_size, join_lines, words
from .tables import looks_like_header, table_lines

ROW_REACH = 1.5  # a cell starts level with its row: its first line at most this many line spacings above or below
# (cells set at the middle of their row: a cell of four lines beside one of one)
MIN_ROWS = 3  # a header and two rows
TRIES_PER_ROW = 4


@dataclass(frozen=True)
class _Piece:
    line: int  # the index of its line on the page
    x: float
    end: float | None
    y: float
    size: float
    text: str

    def right(self) -> float:
        return self.end if self.end is not None else self.x


Cell = list[_Piece]
Row = list[Cell]
Found = tuple[int, int, list[list[str]]]  # a table's first row, the row after its last, its cells' texts


def _pieces(lines: Sequence[Line]) -> list[_Piece] | None:
    out = []
    for i, line in enumerate(lines):
        if line.x is None or line.y is None:
            return None  # a position unknown: no table is read on this page
        for x, end, text in line.pieces or ((line.x, line.right, line.text),):
            out.append(_Piece(i, x, end, line.y, line.size, text))
    return out


def _rows(pieces: Sequence[_Piece], leading: dict[float, float]) -> list[Row]:
    rows: list[Row] = []
    for p in pieces:
        step = _expected(p.size, leading) or 1.2 * p.size
        if rows:
            cell = rows[-1][-1]
            last = cell[-1]
            left, right = min(q.x for q in cell), max(q.right() for q in cell)
            below = _same_size(p.size, last.size) and 0 < last.y - p.y <= GAP_RATIO * step
            if below and p.x <= right and p.right() >= left:  # the same cell, wrapped
                cell.append(p)
                continue
            ys = [q.y for c in rows[-1] for q in c]
            level = min(ys) - ROW_REACH * step <= p.y <= max(ys) + ROW_REACH * step
            if p.x > right and _same_size(p.size, last.size) and level:
                rows[-1].append([p])  # the next cell of the row
                continue
        rows.append([[p]])
    return rows


def _columns(data: Sequence[Row]) -> list[tuple[float, float]]:
    """The columns: the spans of the data cells across the page, merged where they overlap."""
    spans = sorted((min(p.x for p in c), max(p.right() for p in c)) for r in data for c in r)
    out: list[tuple[float, float]] = []
    for a, b in spans:
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _place(row: Row, columns: Sequence[tuple[float, float]], header: bool) -> list[Cell] | None:
    """The row's pieces by column (pieces of one column joined: a word set in bold is a run of its own), or None when
    a data cell crosses a column's edge. A header cell goes to the column it overlaps most (a centred label may be
    wider than its column)."""
    out: list[Cell] = [[] for _ in columns]
    for cell in row:
        a, b = min(p.x for p in cell), max(p.right() for p in cell)
        if header:
            k = max(range(len(columns)), key=lambda k: (min(b, columns[k][1]) - max(a, columns[k][0]),
                                                        -abs((a + b) / 2 - sum(columns[k]) / 2)))  # fmt: skip
        else:
            k = next((k for k, (lo, hi) in enumerate(columns) if lo <= a and b <= hi), -1)
        if k < 0:
            return None
        out[k] += cell
    return out


def _reading(cell: Cell) -> Cell:
    """A cell's pieces in reading order: by line from the top, left to right on a line."""
    return sorted(cell, key=lambda p: (-round(p.y), p.x))


def _table(rows: Sequence[Row], known: set[str] | None) -> list[list[str]] | None:
    """The rows' cell texts (the header first) when the rows are a table, else None."""
    columns = _columns(rows[1:])
    if len(columns) < 2:
        return None
    placed = [_place(r, columns, i == 0) for i, r in enumerate(rows)]
    if any(r is None or sum(map(bool, r)) < 2 for r in placed):
        return None  # a cell across columns, or a row (the header too) in one column: not this table
    texts = [[join_lines([p.text for p in _reading(c)], known) for c in r] for r in placed if r is not None]
    return texts if _labels(texts[0]) and looks_like_header(texts[0], texts[1:]) else None


def _labels(cells: Sequence[str]) -> bool:
    """Nothing marks a PDF's header row: its cells must read as labels — each with a letter or a digit, none ending a
    sentence (a numbered list's "1." and its item, a bullet, are no header)."""
    filled = [c for c in cells if c]
    return all(any(ch.isalnum() for ch in c) and not c.endswith((".", "!", "?")) for c in filled)


def page_tables(lines: Sequence[Line]) -> list[Line]:
    """A page's lines with each table found on it written as its rows (Line.row), one line a row."""
    pieces = _pieces(lines)
    if not pieces or not any(x.pieces for x in lines):
        return list(lines)
    rows = _rows(pieces, _leading(lines))
    known = words([x.text for x in lines]) if any(p.text.endswith(("-", "‐")) for p in pieces) else None
    out: list[Line] = []
    done = 0  # lines before this one are in `out`
    i = 0
    while i < len(rows):
        j = i
        while j < len(rows) and len(rows[j]) >= 2:
            j += 1
        found = _first_table(rows, i, j, known) if j - i >= MIN_ROWS else None
        if found is None:
            i = j + 1 if j > i else i + 1
            continue
        s, e, texts = found
        first, last = rows[s][0][0].line, rows[e - 1][-1][-1].line
        out += lines[done:first]
        size = lines[first].size
        out += [Line(t, size, False, lines[first].page, row=True) for t in table_lines(texts)]  # (its header: as found)
        done = last + 1
        i = e
    return out + list(lines[done:])


def _first_table(rows: Sequence[Row], i: int, j: int, known: set[str] | None) -> Found | None:
    """The first and longest table among rows[i:j] of two cells or more: (start, end, cell texts). At most
    TRIES_PER_ROW tables tried per row: a page of rows that never align costs time quadratic in its rows, not cubic
    (a table is found in the first few tries: its header opens the run, or follows a line or two of text)."""
    budget = TRIES_PER_ROW * (j - i)
    for s in range(i, j - MIN_ROWS + 1):
        head = [join_lines([p.text for p in c], known) for c in rows[s]]
        if not _labels(head) or not looks_like_header(head, [[]]):
            continue  # no header row starts here
        for e in range(j, s + MIN_ROWS - 1, -1):
            if not _whole_lines(rows, s, e):
                continue
            if budget <= 0:
                return None
            budget -= 1
            texts = _table(rows[s:e], known)
            if texts is not None:
                return s, e, texts
    return None


def _whole_lines(rows: Sequence[Row], s: int, e: int) -> bool:
    """The rows begin a line and end one: no line is part table, part text."""
    before = rows[s - 1][-1][-1].line if s > 0 else -1
    after = rows[e][0][0].line if e < len(rows) else None
    return before != rows[s][0][0].line and after != rows[e - 1][-1][-1].line

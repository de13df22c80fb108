"""Tables as rows of "Header: value" fields: how a document's table (Markdown, HTML, DOCX) becomes text.

A table with a header row becomes one paragraph per row, "Cluster: lyra; Region: ap-southeast-1; Brokers: 3.",
its key cell first: the first column whose cells are names or ids (short, distinct, neither plain numbers nor
dates), else the first column. The text stays readable and searchable as evidence, and extraction.tables reads
each such paragraph as the row's facts (key, header, cell) instead of parsing it as a sentence — adjacent cells are
never one another's subject or object. A table without a header row of label | value pairs becomes "Label: value"
lines (as a header block is written); any other keeps its cells as "a; b; c" lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

_NUMBER = re.compile(r"[-+−]?[£$€¥]?\d[\d,]*(?:\.\d+)?\s*%?")  # a count, amount or share: a cell's value, no name
_SERIAL = re.compile(r"\d{1,4}[A-Za-z]?")  # a row's number in a numbered column ("4", "12b")
_FIELD = re.compile(r"([^\s:;][^:;]{0,59}?): (.+)", re.S)
_DATE_FORMATS = ("%Y-%m-%d", "%d %B %Y", "%d %b %Y", "%B %d, %Y", "%b %d, %Y", "%d/%m/%Y", "%d.%m.%Y", "%Y/%m/%d")
_DATE_SHAPE = re.compile(r"\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}|\d{1,2} [^\W\d_]{3,9} \d{4}|[^\W\d_]{3,9} \d{1,2}, \d{4}")
KEY_WORDS = 6  # a key cell is a name or an id: at most this many words
HEADER_WORDS = 8  # a header is a label: at most this many words


def _cell(text: str) -> str:
    """A cell's text on one line, with nothing in it that could end its field ("; ") or start one (": ")."""
    return " ".join(text.split()).replace("; ", ", ").replace(";", ",")


def _header(text: str) -> str:
    return _cell(text).replace(":", "").strip()


def is_date(value: str) -> bool:
    """A cell that is one calendar date ("2026-07-15", "15 July 2026", "July 15, 2026", "15/07/2026")."""
    v = value.strip().rstrip(".")
    if not _DATE_SHAPE.fullmatch(v):  # strptime is slow: only a date's shape is tried
        return False
    for fmt in _DATE_FORMATS:
        try:
            datetime.strptime(v, fmt)
        except ValueError:
            continue
        return True
    return False


def _name_like(value: str) -> bool:
    v = value.strip()
    return bool(v) and len(v.split()) <= KEY_WORDS and not _NUMBER.fullmatch(v) and not is_date(v) and \
        any(c.isalnum() for c in v)  # fmt: skip


def key_column(rows: Sequence[Sequence[str]]) -> int:
    """The column whose cells name the rows: the first whose cells are all names or ids and all different, else 0."""
    width = max((len(r) for r in rows), default=0)
    for c in range(width):
        cells = [r[c].strip() if c < len(r) else "" for r in rows]
        if all(_name_like(x) for x in cells) and len({x.casefold() for x in cells}) == len(cells):
            return c
    return 0


def looks_like_header(first: Sequence[str], rest: Sequence[Sequence[str]]) -> bool:
    """Whether a table's first row (not marked as a header) labels its columns: every cell a short label, all
    different, no number or date, and at least one data row beneath."""
    cells = [_header(x) for x in first]
    return bool(rest) and len(cells) >= 2 and all(
        x and len(x.split()) <= HEADER_WORDS and not _NUMBER.fullmatch(x) and not is_date(x) for x in cells
    ) and len({x.casefold() for x in cells}) == len(cells)


def _shape(cell: str) -> tuple[int, bool, bool]:
    """A cell's look: one word or more, every word capitalised, any digit."""
    words = cell.split()
    return min(len(words), 2), all(w[:1].isupper() for w in words if w[:1].isalpha()), any(c.isdigit() for c in cell)


def shaped_like_body(first: Sequence[str], rest: Sequence[Sequence[str]]) -> bool:
    """Whether a table's first row looks like the rows beneath it, column by column (each cell as some cell below it
    in its column: one word or more, capitalised, with digits or not): a first row of data ("Conductor | Maren
    Holtby" above "Director | Tomasz Wielgus"), not a header ("Role | Singer" above "Tatyana | Lena Marwick"). Only
    a table with a column of names (two capitalised words or more, no digit, in every row) is judged so: a header of
    labels looks like its rows in a column of single words or numbers ("Package | 4.1.3" above "Shapely | 2.0")."""
    if not rest or not any(all(_shape(r[c]) == (2, True, False) for r in [first, *rest] if c < len(r))
                                for c in range(len(first))):  # fmt: skip
        return False
    for c, cell in enumerate(first):
        below = {_shape(r[c]) for r in rest if c < len(r) and r[c].strip()}
        if not below or _shape(cell) not in below:
            return False
    return True


def _labelled(rows: Sequence[Sequence[str]]) -> bool:
    """Whether a table is label | value pairs: two cells a row, the first a short label (no number or date), each
    label once."""
    labels = [_header(r[0]) for r in rows if len(r) == 2]
    return len(labels) == len(rows) >= 2 and len({x.casefold() for x in labels}) == len(labels) and all(
        x and len(x.split()) <= HEADER_WORDS and not _NUMBER.fullmatch(x) and not is_date(x) for x in labels)


def row_text(header: Sequence[str], row: Sequence[str], key: int) -> str:
    """One row as "Key header: key; Header: cell; …." (empty cells left out; "" when the row has no cell)."""
    fields = [(header[c], _cell(row[c])) for c in [key, *(i for i in range(len(row)) if i != key)]
              if c < len(row) and c < len(header) and _cell(row[c])]  # fmt: skip
    text = "; ".join(f"{h or f'Column {n + 1}'}: {v}" for n, (h, v) in enumerate(fields))
    return text if not text or text.endswith(".") else text + "."


def table_lines(rows: Sequence[Sequence[str]], header: bool | None = None) -> list[str]:
    """A table's paragraphs: one per data row as row_text when it has a header row (`header` True: its first row
    is marked as one; None: looks_like_header decides), else each row's cells joined by "; "."""
    rows = [list(r) for r in rows if any(x.strip() for x in r)]
    if not rows:
        return []
    if header is None:
        header = looks_like_header(rows[0], rows[1:]) and not shaped_like_body(rows[0], rows[1:]) and not all(
            r[0].strip().endswith(":") for r in rows)  # "Report No.: | TVA 2025/114": every row a label's
    if not header and _labelled(rows):  # "Conductor | Maren Holtby", "Site code | BFC24": "Label: value" lines, as
        return [f"{_header(a)}: {_cell(b)}" for a, b in rows if _cell(b)]  # a report's header block writes them
    if not header or len(rows) < 2 or len(rows[0]) < 2:
        return ["; ".join(_cell(x) for x in r if _cell(x)) for r in rows]
    head, body = [_header(x) for x in rows[0]], rows[1:]
    key = key_column(body)
    named = all(key < len(r) and _shape(r[key])[1:] == (True, False) for r in body)  # a column of capitalised names
    if not named and head[0].isalpha() and all(_SERIAL.fullmatch(r[0].strip()) for r in body) and \
            len({r[0].strip() for r in body}) == len(body):  # fmt: skip
        body, key = [[f"{head[0]} {r[0].strip()}", *r[1:]] for r in body], 0  # "Trench | 4 | …": Trench 4 (but a
        # league table's rows are its teams, not "Rank 1")
    return [t for t in (row_text(head, r, key) for r in body) if t]


def _balanced(text: str) -> bool:
    return all(text.count(a) == text.count(b) for a, b in ("()", "[]", "{}"))


def parse_row(paragraph: str) -> list[tuple[str, str]] | None:
    """The (header, value) fields of a paragraph written by row_text, or None when it is not one: two fields or more,
    each a short label, ": " and a value, separated by "; ", the last ending with a full stop, and no field opening
    a bracket it does not close (prose glosses a name so: "The rand (sign: R; code: ZAR) is the currency …")."""
    text = " ".join(paragraph.split())
    if not text.endswith(".") or "; " not in text:
        return None
    out = []
    for part in text[:-1].split("; "):
        m = _FIELD.fullmatch(part)
        if not m or len(m.group(1).split()) > HEADER_WORDS or not m.group(2).strip() or not _balanced(m.group(1)) \
                or not _balanced(m.group(2)):  # "The rand (sign: R; code: ZAR) is …" is prose  # fmt: skip
            return None
        out.append((m.group(1).strip(), m.group(2).strip()))
    return out if len(out) >= 2 else None


# ---------- Markdown pipe tables

_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def _pipe_cells(line: str) -> list[str]:
    s = line.strip()
    s = s[1:] if s.startswith("|") else s
    s = s[:-1] if s.endswith("|") and not s.endswith("\\|") else s
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", s)]


def markdown_tables(lines: Sequence[str]) -> list[str]:
    """Markdown lines with each pipe table (a header line, its |---| line, and the rows up to a line without "|")
    written as table_lines, one paragraph per row; fenced code is left as it is."""
    out: list[str] = []
    fence: str | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _FENCE.match(line)
        if fence is not None or m:
            fence = (m.group(1)[:3] if m else fence) if fence is None else (None if line.strip().startswith(fence)
                                                                             else fence)  # fmt: skip
            out.append(line)
            i += 1
            continue
        if "|" in line and i + 1 < len(lines) and _SEP.match(lines[i + 1]) and \
                len(_pipe_cells(lines[i + 1])) == len(_pipe_cells(line)):  # fmt: skip
            j = i + 2
            while j < len(lines) and "|" in lines[j] and lines[j].strip():
                j += 1
            rows = [_pipe_cells(x) for x in [line, *lines[i + 2 : j]]]
            for text in table_lines(rows, header=True):
                out += ["", text, ""]
            i = j
            continue
        out.append(line)
        i += 1
    return out


# ---------- HTML <table>


class HTMLTable:
    """One HTML table as its parser meets it (sources._HTMLSections feeds it tags and text): rows of cells; a nested
    table's text goes into the outer cell; its first row is the header when all its cells are <th>; a table whose
    rows each open with a <th> label (an infobox) is read as "Label: value" lines."""

    TAGS = {"table", "tr", "td", "th", "caption"}

    def __init__(self) -> None:
        self.rows: list[list[list[str]]] = []  # rows of cells, each cell the pieces of its text
        self.first_th = False
        self.caption: list[str] = []
        self._depth = 0
        self._row_th: list[bool] = []  # per row: whether its first cell is a <th> (a label, as in an infobox)

    def start(self, tag: str) -> None:
        if tag == "table":
            self._depth += 1
        elif self._depth == 1 and tag == "tr":
            self.rows.append([])
        elif self._depth == 1 and tag in ("td", "th"):
            if not self.rows:
                self.rows.append([])
            self.rows[-1].append([])
            if len(self.rows) == 1:
                self.first_th = (len(self.rows[0]) == 1 or self.first_th) and tag == "th"
            if len(self.rows[-1]) == 1:
                self._row_th.append(tag == "th")

    def end(self, tag: str) -> bool:
        """True when the table is closed."""
        if tag == "table":
            self._depth -= 1
        return self._depth <= 0

    def data(self, text: str) -> None:
        if self.rows and self.rows[-1]:
            self.rows[-1][-1].append(text)  # pieces joined once: a cell of 100k tags stays linear
        else:
            self.caption.append(text)

    def text(self) -> str:
        """The table as paragraphs: its caption, then table_lines."""
        caption = " ".join("".join(self.caption).split())
        rows = [["".join(c) for c in r] for r in self.rows]
        # each row opens with a <th> label (an infobox): "Label: value" lines; no facts (whose are they?)
        if not self.first_th and self._row_th and all(self._row_th) and all(len(r) >= 2 for r in rows):
            lines = [f"{_header(r[0])}: {', '.join(_cell(x) for x in r[1:] if _cell(x))}" for r in rows]
        else:
            lines = table_lines(rows, header=True if self.first_th else None)
        return "\n\n" + "\n\n".join(([caption] if caption else []) + lines) + "\n\n"

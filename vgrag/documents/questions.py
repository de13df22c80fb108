"""A user's own questions to evaluate a graph with: a CSV, JSON or JSONL file, one question per row, each with an
expected answer and/or its expected sources (document names, passage titles or passage ids). A row that cannot be
used is reported by its number and the file's name and the rest are kept; a file that cannot be read at all is an
InputError saying what it should hold."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass

from .sources import InputError, decode_text

MAX_ROWS = 1000  # questions read from one file (each is a query per method): the rest are left, and it is said
MAX_BYTES = 20 * 1024 * 1024
QUESTION = ("question", "query", "q")
ANSWER = ("answer", "answers", "expected_answer", "answer_aliases")
ANSWERABLE = ("answerable", "in_documents")  # "no" / "false" / "0": the documents do not answer it (the verdict's test)
SOURCES = ("sources", "source", "documents", "document", "passages", "passage", "titles", "title", "expected_sources")
SHAPE = (
    "one question per row with a 'question' column and an 'answer' and/or a 'sources' column (several answers or "
    "sources separated by |; 'answerable' = no for a question the documents do not answer); JSON: a list of such "
    "objects; JSONL: one object per line"
)


@dataclass(frozen=True)
class QuestionRow:
    row: int  # 1-based: the CSV's data row (after the header), the JSON list's item, the JSONL's line
    question: str
    answers: tuple[str, ...]
    sources: tuple[str, ...]
    answerable: bool = True  # False: the documents do not answer it; scored by whether the verdict says so


@dataclass(frozen=True)
class QuestionFile:
    name: str
    rows: tuple[QuestionRow, ...]
    problems: tuple[str, ...]  # one message per row left out, naming the file and the row
    skipped: int = 0  # rows past MAX_ROWS, not read


def _values(v: object) -> list[str]:
    """A cell as its values: a list's strings, or a string split at |."""
    if v is None:
        return []
    items = v if isinstance(v, list) else str(v).split("|") if isinstance(v, str) else [v]
    return [str(x).strip() for x in items if isinstance(x, (str, int, float)) and str(x).strip()]


def _hipporag_sources(d: dict) -> list[str]:
    """A HippoRAG-format row's supporting titles (MuSiQue paragraphs, HotpotQA supporting_facts)."""
    if isinstance(d.get("paragraphs"), list):
        return [p["title"] for p in d["paragraphs"] if isinstance(p, dict) and p.get("is_supporting")
                and isinstance(p.get("title"), str)]  # fmt: skip
    facts = d.get("supporting_facts")
    if isinstance(facts, list):
        return list(dict.fromkeys(f[0] for f in facts if isinstance(f, list) and f and isinstance(f[0], str)))
    return []


def _pick(d: dict, names: tuple[str, ...]) -> object:
    low = {str(k).strip().casefold(): v for k, v in d.items()}
    return next((low[n] for n in names if n in low and low[n] not in (None, "")), None)


def _row(d: object, n: int, name: str, where: str) -> QuestionRow | str:
    if not isinstance(d, dict):
        return f"{name}, {where} {n}: not an object with a question; left out."
    q = _pick(d, QUESTION)
    if not isinstance(q, str) or not q.strip():
        return f"{name}, {where} {n}: no question (a 'question' field); left out."
    answers = _values(_pick(d, ANSWER))
    sources = _values(_pick(d, SOURCES)) or _hipporag_sources(d)
    flag = _pick(d, ANSWERABLE)
    if flag is not None and str(flag).strip().casefold() in ("no", "n", "false", "0", "unanswerable"):
        return QuestionRow(n, " ".join(q.split()), (), (), answerable=False)
    if not answers and not sources:
        return f"{name}, {where} {n}: no expected answer and no expected source, nothing to score it by; left out."
    return QuestionRow(n, " ".join(q.split()), tuple(dict.fromkeys(answers)), tuple(dict.fromkeys(sources)))


def _records(text: str, name: str) -> tuple[list[tuple[int, object]], str]:
    """(row number, record) pairs and what a row is called in messages; InputError for a file that is not one."""
    low = name.casefold()
    if low.endswith(".jsonl"):
        out = []
        for n, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    out.append((n, json.loads(line)))
                except json.JSONDecodeError as e:
                    out.append((n, f"not JSON ({e.msg})"))
        return out, "line"
    if low.endswith(".json"):
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as e:
            raise InputError(f"{name}: not readable JSON ({e}); it should hold {SHAPE}.") from e
        if isinstance(data, dict) and isinstance(data.get("questions"), list):
            data = data["questions"]
        if not isinstance(data, list):
            raise InputError(f"{name}: holds one object, not a list of questions; it should hold {SHAPE}.")
        return list(enumerate(data, 1)), "item"
    if low.endswith((".csv", ".tsv", ".txt")):
        try:
            dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
        except csv.Error:
            dialect = csv.excel_tab if low.endswith(".tsv") else csv.excel
        reader = csv.DictReader(io.StringIO(text), dialect=dialect)
        cols = {str(c).strip().casefold() for c in reader.fieldnames or ()}
        if not cols & set(QUESTION):
            shown = ", ".join(repr(c) for c in reader.fieldnames or ()) or "none"
            raise InputError(f"{name}: no 'question' column (its columns: {shown}); it should hold {SHAPE}.")
        if not cols & (set(ANSWER) | set(SOURCES) | set(ANSWERABLE)):
            raise InputError(f"{name}: no 'answer' or 'sources' column, nothing to score by; it should hold {SHAPE}.")
        return [(n, dict(r)) for n, r in enumerate(reader, 1)], "row"
    raise InputError(f"{name}: not a .csv, .json or .jsonl file; upload {SHAPE}.")


def parse_question_file(name: str, data: bytes, max_rows: int = MAX_ROWS, max_bytes: int = MAX_BYTES) -> QuestionFile:
    """The usable questions of a file, one message per row left out; InputError when the file is empty, too big,
    not text, not in one of the three formats or without a question column."""
    if len(data) > max_bytes:
        raise InputError(
            f"{name}: {len(data) / 1e6:.1f} MB, more than the {max_bytes / 1e6:.0f} MB a question file may hold; "
            "split it."
        )
    text = decode_text(data, name)
    if not text.strip():
        raise InputError(f"{name}: the file is empty; it should hold {SHAPE}.")
    records, where = _records(text, name)
    rows, problems = [], []
    for n, rec in records[:max_rows]:
        got = _row(rec, n, name, where) if not isinstance(rec, str) else f"{name}, {where} {n}: {rec}; left out."
        (rows if isinstance(got, QuestionRow) else problems).append(got)
    if not rows and not problems:
        raise InputError(f"{name}: no question in it; it should hold {SHAPE}.")
    return QuestionFile(name, tuple(rows), tuple(problems), max(0, len(records) - max_rows))

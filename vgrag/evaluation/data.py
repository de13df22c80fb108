"""Benchmark data in the HippoRAG format: a folder's corpus, questions with their gold passages and answers, and
its OpenIE file when it has one (see ../shared/bench/README.md for the formats and the gold rules). A file that is
not in that shape is an InputError naming the file and what it should hold."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

from ..config import DATA_DIR
from ..documents.sources import InputError, decode_text
from ..text import content_hash

CORPUS = ("corpus.json", "*_corpus.json", "*corpus*.json")
QUESTIONS = ("questions.json", "test_sample.json", "*questions*.json")
OPENIE = ("openie*.json",)
ROLES = {"corpus": CORPUS, "questions": QUESTIONS, "openie": OPENIE}  # a file's role, told by its name
CORPUS_SHAPE = 'a JSON list of passages, each {"title": "…", "text": "…"}'
QUESTIONS_SHAPE = (
    'a JSON list of questions, each {"question": "…", "answer": "…"} with MuSiQue "paragraphs" '
    '([{"title", "paragraph_text", "is_supporting"}]) or HotpotQA "supporting_facts" ([[title, sentence], …])'
)


@dataclass(frozen=True)
class BenchQuestion:
    id: str
    question: str
    gold: frozenset[str]  # passage keys (MuSiQue) or titles (HotpotQA/2Wiki)
    by_title: bool
    answers: tuple[str, ...] = ()  # the gold answer and its aliases


@dataclass(frozen=True)
class BenchData:
    name: str
    corpus: tuple[tuple[str, str], ...]  # (title, text)
    questions: tuple[BenchQuestion, ...]
    openie: Path | None


def pick(names: Sequence[str], patterns: Sequence[str]) -> str | None:
    """The name a folder's file of one role goes by: the first pattern any name matches, the first such name."""
    for pat in patterns:
        hits = sorted(n for n in names if fnmatchcase(n, pat))
        if hits:
            return hits[0]
    return None


def _kind(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "true/false", type(None): "null"}
    return names.get(type(value), "a number")


def _rows(raw: bytes, name: str, shape: str) -> list[dict]:
    """The file's JSON list of objects, or InputError naming the file and the shape it should have."""
    try:
        rows = json.loads(decode_text(raw, name))
    except (json.JSONDecodeError, RecursionError) as e:
        raise InputError(f"{name}: not readable JSON ({e}); it should hold {shape}.") from e
    if not isinstance(rows, list):
        raise InputError(f"{name}: holds {_kind(rows)}; it should hold {shape}.")
    for n, r in enumerate(rows):
        if not isinstance(r, dict):
            raise InputError(f"{name}: item {n + 1} is {_kind(r)}, not an object; it should hold {shape}.")
    return rows


def _str(value: object, name: str, where: str, shape: str) -> str:
    if not isinstance(value, str):
        raise InputError(f"{name}: {where} is missing or not text; the file should hold {shape}.")
    return value


def parse_corpus(raw: bytes, name: str = "corpus.json") -> tuple[tuple[str, str], ...]:
    """(title, text) of every passage of a corpus file."""
    rows = _rows(raw, name, CORPUS_SHAPE)
    return tuple(
        (_str(d.get("title") or "", name, f"passage {n + 1}'s title", CORPUS_SHAPE),
         _str(d.get("text"), name, f"passage {n + 1}'s text", CORPUS_SHAPE))
        for n, d in enumerate(rows)
    )  # fmt: skip


def _answers(q: dict) -> tuple[str, ...]:
    aliases = q.get("answer_aliases") or []
    golds = [q.get("answer")] + (list(aliases) if isinstance(aliases, list) else [aliases])
    return tuple(dict.fromkeys(str(a) for a in golds if a not in (None, "")))


def _gold(q: dict, name: str, where: str) -> tuple[frozenset[str], bool]:
    """A question's gold passages: MuSiQue `paragraphs[is_supporting]` keys, or `supporting_facts` titles."""
    if isinstance(q.get("paragraphs"), list):
        ps = [p for p in q["paragraphs"] if isinstance(p, dict) and p.get("is_supporting")]
        return frozenset(
            f"{_str(p.get('title') or '', name, where + ' paragraph title', QUESTIONS_SHAPE)}\n"
            f"{_str(p.get('paragraph_text'), name, where + ' paragraph_text', QUESTIONS_SHAPE)}"
            for p in ps
        ), False
    facts = q.get("supporting_facts")
    if isinstance(facts, list) and all(isinstance(f, list) and f and isinstance(f[0], str) for f in facts):
        return frozenset(f[0] for f in facts), True
    raise InputError(f"{name}: {where} has neither a 'paragraphs' list nor 'supporting_facts' [[title, …], …].")


def parse_questions(rows: list[dict], name: str = "questions.json") -> tuple[BenchQuestion, ...]:
    """Questions with their gold passages: MuSiQue `paragraphs[is_supporting]` or `supporting_facts` titles."""
    out = []
    for n, q in enumerate(rows):
        qid = str(q.get("id", q.get("_id", n)))
        where = f"question {n + 1} ({qid})"
        gold, by_title = _gold(q, name, where)
        out.append(BenchQuestion(qid, _str(q.get("question"), name, where, QUESTIONS_SHAPE), gold, by_title,
                                 _answers(q)))  # fmt: skip
    return tuple(out)


def load_bench(folder: str | Path, questions_file: str | Path | None = None) -> BenchData:
    """Find corpus, questions and OpenIE files in a HippoRAG-format folder."""
    folder = Path(folder)
    names = _names(folder)
    corpus_f, openie_f = pick(names, CORPUS), pick(names, OPENIE)
    q_f = Path(questions_file) if questions_file else (folder / n if (n := pick(names, QUESTIONS)) else None)
    if corpus_f is None or q_f is None:
        raise FileNotFoundError(f"{folder}: needs a corpus JSON and a questions JSON (HippoRAG format)")
    corpus = parse_corpus((folder / corpus_f).read_bytes(), corpus_f)
    qs = parse_questions(_rows(q_f.read_bytes(), q_f.name, QUESTIONS_SHAPE), q_f.name)
    return BenchData(folder.name, corpus, qs, folder / openie_f if openie_f else None)


def load_uploads(files: Sequence[tuple[str, bytes]], folder: Path) -> BenchData:
    """A benchmark from uploaded (name, content) files, found by name like a folder's; the names are only ever
    shown, never used as paths (the OpenIE file is written into `folder` as openie.json). Named `upload_` + a hash
    of what the graph is built from (corpus, OpenIE): the same files get the same benchmark graph again."""
    names = [n for n, _ in files]
    chosen = {role: pick(names, pats) for role, pats in ROLES.items()}
    missing = [role for role in ("corpus", "questions") if chosen[role] is None]
    if missing:
        raise InputError(
            f"Uploaded {', '.join(names) or 'nothing'}: no {' and no '.join(missing)} file among them "
            f"(names like {CORPUS[0]} and {QUESTIONS[0]}, as in a HippoRAG folder)."
        )
    content: dict[str, bytes] = {}
    for role, n in chosen.items():
        same = {data for name, data in files if name == n}
        if len(same) > 1:
            raise InputError(f"{len(same)} different uploaded files are named {n}: upload one {role} file.")
        if n is not None:
            content[role] = same.pop()
    corpus = parse_corpus(content["corpus"], chosen["corpus"])
    qs = parse_questions(_rows(content["questions"], chosen["questions"], QUESTIONS_SHAPE), chosen["questions"])
    openie = None
    if "openie" in content:
        openie = folder / "openie.json"
        openie.write_bytes(content["openie"])
    built_from = "".join(content_hash(content[r]) for r in ("corpus", "openie") if r in content)
    return BenchData(f"upload_{content_hash(built_from)[:8]}", corpus, qs, openie)


def _names(folder: Path) -> list[str]:
    try:
        return [p.name for p in folder.iterdir() if p.is_file()]
    except (FileNotFoundError, NotADirectoryError):
        return []


def load_corpus(folder: str | Path) -> BenchData:
    """A folder used only for its passages (distractors): a corpus JSON, an OpenIE file when present, no questions."""
    folder = Path(folder)
    names = _names(folder)
    corpus_f, openie_f = pick(names, CORPUS), pick(names, OPENIE)
    if corpus_f is None:
        raise FileNotFoundError(f"{folder}: needs a corpus JSON (HippoRAG format)")
    corpus = parse_corpus((folder / corpus_f).read_bytes(), corpus_f)
    return BenchData(folder.name, corpus, (), folder / openie_f if openie_f else None)


def bench_roots(env: Mapping[str, str]) -> tuple[Path, ...]:
    """The folders the app reads benchmark folders from: its data folder, and those VGRAG_BENCH_DIRS lists."""
    listed = [Path(p).expanduser() for p in env.get("VGRAG_BENCH_DIRS", "").split(os.pathsep) if p.strip()]
    return (DATA_DIR, *listed)


def allowed_folder(folder: str | Path, roots: Sequence[Path]) -> Path:
    """The folder, if it lies under one of `roots` (links and .. resolved first); else InputError saying how to
    allow it. A visitor of the app cannot make the server read JSON files from anywhere."""
    path = Path(folder).expanduser().resolve()
    if any(path.is_relative_to(r.resolve()) for r in roots):
        return path
    shown = ", ".join(str(r) for r in roots)
    raise InputError(
        f"{folder}: the app reads benchmark folders only under {shown}. Upload the folder's files instead, or "
        f"start the app with VGRAG_BENCH_DIRS set to the folder (several: separated by {os.pathsep})."
    )

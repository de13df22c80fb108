"""Benchmark data in the HippoRAG format: a folder's corpus, questions with their gold passages and answers, and
its OpenIE file when it has one (see ../shared/bench/README.md for the formats and the gold rules)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


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


def _find(folder: Path, patterns: Sequence[str]) -> Path | None:
    for pat in patterns:
        hits = sorted(folder.glob(pat))
        if hits:
            return hits[0]
    return None


def _answers(q: dict) -> tuple[str, ...]:
    golds = [q.get("answer")] + list(q.get("answer_aliases") or [])
    return tuple(dict.fromkeys(str(a) for a in golds if a not in (None, "")))


def parse_questions(rows: list[dict]) -> tuple[BenchQuestion, ...]:
    """Questions with their gold passages: MuSiQue `paragraphs[is_supporting]` or `supporting_facts` titles."""
    out = []
    for n, q in enumerate(rows):
        qid = str(q.get("id", q.get("_id", n)))
        if "paragraphs" in q:
            gold = frozenset(f"{p['title']}\n{p['paragraph_text']}" for p in q["paragraphs"] if p.get("is_supporting"))
            out.append(BenchQuestion(qid, q["question"], gold, False, _answers(q)))
        elif "supporting_facts" in q:
            titles = frozenset(f[0] for f in q["supporting_facts"])
            out.append(BenchQuestion(qid, q["question"], titles, True, _answers(q)))
        else:
            raise ValueError(f"question {qid} has neither 'paragraphs' nor 'supporting_facts'")
    return tuple(out)


def load_bench(folder: str | Path, questions_file: str | Path | None = None) -> BenchData:
    """Find corpus, questions and OpenIE files in a HippoRAG-format folder."""
    folder = Path(folder)
    corpus_f = _find(folder, ["corpus.json", "*_corpus.json", "*corpus*.json"])
    q_f = (
        Path(questions_file)
        if questions_file
        else _find(folder, ["questions.json", "test_sample.json", "*questions*.json"])
    )
    openie_f = _find(folder, ["openie*.json"])
    if corpus_f is None or q_f is None:
        raise FileNotFoundError(f"{folder}: needs a corpus JSON and a questions JSON (HippoRAG format)")
    corpus = tuple((d.get("title", ""), d["text"]) for d in json.loads(corpus_f.read_text()))
    qs = parse_questions(json.loads(q_f.read_text()))
    return BenchData(folder.name, corpus, qs, openie_f)


def load_corpus(folder: str | Path) -> BenchData:
    """A folder used only for its passages (distractors): a corpus JSON, an OpenIE file when present, no questions."""
    folder = Path(folder)
    corpus_f = _find(folder, ["corpus.json", "*_corpus.json", "*corpus*.json"])
    if corpus_f is None:
        raise FileNotFoundError(f"{folder}: needs a corpus JSON (HippoRAG format)")
    corpus = tuple((d.get("title", ""), d["text"]) for d in json.loads(corpus_f.read_text()))
    return BenchData(folder.name, corpus, (), _find(folder, ["openie*.json"]))

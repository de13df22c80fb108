"""The offline reader: every named entity spaCy tags in the retrieved passages is a candidate answer; a few general
signals describe each (does its label fit what is asked, how much of the question its sentence says, where its
passage ranks, whether the reasoning chain reaches it, how many passages agree); a linear score with weights fitted
on questions generated from the corpora's own triples, never on evaluation questions (scripts/generate_questions.py,
scripts/fit_reader.py; it writes reader_weights.json), and a softmax over the question's candidates and "none of
them" turn them into a confidence: the probability that this candidate is the answer.
The short answer is the best candidate, shown only when that confidence reaches the fitted threshold.

The answer step runs no reader by default (the fitted threshold is 1.0: no held-out precision reached 50 %); a
`Reader` is passed to `extractive_answer` explicitly (the fitting scripts and tests pass a `Model`)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from ..nlp import load_spacy
from .question import Asked, Lemmas, norm
from .sentences import Sentences, as_passages, listed_sentences

_POSSESSIVE = re.compile(r"\s*['’]s$")
_WORDS = re.compile(r"[^\W\d_]+")
WEIGHTS_FILE = Path(__file__).with_name("reader_weights.json")
# the signals, in the order of the weights; each is 0..1 (agree: log of a count)
SIGNALS = (
    "asked_label", "noun_label", "untyped", "overlap", "close", "names", "passage_names", "bridged", "rank", "agree",
    "chain_end", "reach1", "reach2", "noun", "title",
)  # fmt: skip
SAID = {
    "asked_label": "its entity label is what the question word asks for",
    "noun_label": "its entity label is what the asked noun usually names",
    "untyped": "the question word fixes no type",
    "overlap": "its sentence says the question's words",
    "close": "it stands close to the question's words",
    "names": "its sentence names the question's subject",
    "passage_names": "its passage names the question's subject",
    "bridged": "its passage is one another passage about the question's subject names",
    "rank": "its passage ranks high",
    "agree": "several passages name it",
    "chain_end": "the reasoning chain ends at it",
    "reach1": "one relation from the question's names",
    "reach2": "two relations from the question's names",
    "noun": "the asked noun stands by it",
    "title": "its passage is about it",
}


@dataclass(frozen=True)
class Chain:
    """What the graph says about names as answers: where the best chains end, and how many selected relations
    separate each name from the question's own entities (normalised names)."""

    ends: frozenset[str] = frozenset()
    reach: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Candidate:
    text: str
    label: str
    sentence: str
    passage_index: int  # rank of its passage in the retrieved list (0 = first)
    values: tuple[float, ...]  # the signals, in SIGNALS order
    confidence: float


@dataclass(frozen=True)
class Reading:
    """The reader's verdict: the short answer (or "" when not confident enough), its confidence and why."""

    short: str
    confidence: float
    best: Candidate | None
    why: str  # why there is no short answer ("" when there is one)
    signals: str  # which signals decided the best candidate, in words


class Reader(Protocol):
    """What the answer step asks of a reader: a Reading of the listed passages' sentences (split and tagged once,
    shared with the evidence)."""

    def read(self, asked: Asked, sentences: Sentences, chain: Chain) -> Reading: ...


@dataclass(frozen=True)
class Model:
    """The scorer: a logistic model over the signals, and the confidence a short answer needs."""

    weights: tuple[float, ...]  # one per signal, in SIGNALS order
    bias: float
    threshold: float

    def score(self, values: Sequence[float]) -> float:
        return self.bias + sum(w * v for w, v in zip(self.weights, values, strict=True))

    def confidences(self, scores: Sequence[float]) -> list[float]:
        """P(candidate is the answer) for every candidate of one question, beside "none of them" (score 0): a
        softmax over the candidates and that null option, so a question with no clear winner gets low confidence."""
        top = max([0.0, *scores])
        e = [math.exp(x - top) for x in scores]
        total = math.exp(-top) + sum(e)
        return [x / total for x in e]

    def read(self, asked: Asked, sentences: Sentences, chain: Chain = Chain()) -> Reading:
        """The Reader interface: the fitted scorer over the sentences the answer step split."""
        texts: dict[int, tuple[str, list[str]]] = {}
        for i, title, sentence in sentences.split:
            texts.setdefault(i, (title, []))[1].append(sentence)
        passages = [(t, " ".join(ss)) for _, (t, ss) in sorted(texts.items())]
        return read(asked, passages, chain, self, sentences)[0]

    def explain(self, c: Candidate) -> str:
        """The signals that pushed this candidate's confidence up most, in words."""
        parts = sorted(((w * v, s) for s, w, v in zip(SIGNALS, self.weights, c.values, strict=True) if w * v > 0),
                       reverse=True)  # fmt: skip
        return "; ".join(f"{SAID[s]} (+{x:.2f})" for x, s in parts[:3])


@lru_cache(maxsize=1)
def fitted() -> Model:
    """The model scripts/fit_reader.py fitted and wrote to reader_weights.json."""
    data = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))
    return Model(tuple(float(w) for w in data["weights"]), float(data["bias"]), float(data["threshold"]))


def _mentioned(key: str, names: dict[str, int] | frozenset[str]) -> str | None:
    """The graph name that is this candidate: the same, or one containing it or contained in it as whole words."""
    if key in names:
        return key
    padded = f" {key} "
    return next((n for n in names if f" {n} " in padded or padded in f" {n} "), None)


def _closeness(lex: Lemmas, wanted: frozenset[str], sentence: str, at: int, length: int) -> float:
    """1 / (1 + words between the candidate and the nearest of the question's content words in its sentence)."""
    if at < 0 or not wanted:
        return 0.0
    before = _WORDS.findall(sentence[:at])[::-1]
    after = _WORDS.findall(sentence[at + length :])
    gaps = [i for side in (before, after) for i, w in enumerate(side) if lex.has(wanted, w)]
    return 1 / (1 + min(gaps)) if gaps else 0.0


def candidates(
    asked: Asked,
    passages: Sequence[tuple[str, str]],
    chain: Chain = Chain(),
    model: Model | None = None,
    sentences: Sentences | None = None,
) -> list[Candidate]:
    """Every entity spaCy tags in the (title, text) passages that the question does not state itself, with its
    signals (from its best sentence) and confidence, best first."""
    nlp = load_spacy()
    if nlp is None or not passages:
        return []
    model = model or fitted()
    question = f" {norm(asked.text)} "
    names = [norm(n) for n in asked.names if norm(n)]
    sentences = sentences if sentences is not None else listed_sentences(as_passages(passages))
    found: dict[str, Candidate] = {}
    where: dict[str, set[int]] = {}
    lex = asked.lex
    noun = lex.word(asked.noun) if asked.noun else frozenset()
    wanted = frozenset().union(*asked.lemmas)
    whole = [f" {norm(title)} {norm(text)} " for title, text in passages]
    in_passage = [sum(f" {n} " in w for n in names) / len(names) if names else 0.0 for w in whole]
    keys = [norm(title) for title, _ in passages]  # a passage named by one that names the question's subject
    bridged = [float(bool(k) and any(j != i and in_passage[j] and f" {k} " in w for j, w in enumerate(whole)))
               for i, k in enumerate(keys)]  # fmt: skip
    for (i, title, sentence), ents in zip(sentences.split, sentences.tags, strict=True):
        low = f" {norm(title)} {norm(sentence)} "
        said_names = sum(f" {n} " in low for n in names) / len(names) if names else 0.0
        for text, label in ents:
            text = _POSSESSIVE.sub("", text)  # "G. Stanley Hall's": G. Stanley Hall
            key = norm(text)
            if not key or label == "ORDINAL" or f" {key} " in question:
                continue
            where.setdefault(key, set()).add(i)
            at = sentence.find(text)
            near = sentence[max(0, at - 30) : at + len(text) + 30] if at >= 0 else sentence
            reach = chain.reach.get(_mentioned(key, chain.reach) or "", 0)
            values = [
                float(asked.wh not in ("which", "what") and label in dict(asked.types)),
                dict(asked.types).get(label, 0.0) if asked.wh in ("which", "what") else 0.0,
                float(not asked.types),
                lex.overlap(asked.lemmas, sentence.replace(text, " ")),
                _closeness(lex, wanted, sentence, at, len(text)),
                said_names,
                in_passage[i],
                bridged[i],
                1 / (1 + i),
                0.0,  # agree: filled in below, once every passage is read
                float(_mentioned(key, chain.ends) is not None),
                float(reach == 1),
                float(reach == 2),
                float(bool(noun) and any(lex.has(noun, w) for w in near.split())),
                float(key == norm(title)),
            ]
            c = Candidate(text, label, sentence, i, tuple(values), 0.0)
            if key not in found or model.score(c.values) > model.score(found[key].values):
                found[key] = c
    done = []
    for key, c in found.items():
        values = list(c.values)
        values[SIGNALS.index("agree")] = math.log(len(where[key]))
        done.append((c, tuple(values)))
    conf = model.confidences([model.score(v) for _, v in done])
    out = [Candidate(c.text, c.label, c.sentence, c.passage_index, v, p) for (c, v), p in zip(done, conf, strict=True)]
    return sorted(out, key=lambda c: (-c.confidence, c.passage_index, c.text))


def read(
    asked: Asked,
    passages: Sequence[tuple[str, str]],
    chain: Chain = Chain(),
    model: Model | None = None,
    sentences: Sentences | None = None,
) -> tuple[Reading, list[Candidate]]:
    """The short answer when the best candidate's confidence reaches the threshold, else none and why; with the
    ranked candidates (the evidence is chosen from their sentences)."""
    if not asked.english:
        return Reading("", 0.0, None, "the question is not in English, the only language the offline reader reads",
                       ""), []  # fmt: skip
    model = model or fitted()
    found = candidates(asked, passages, chain, model, sentences)
    if not found:
        return Reading("", 0.0, None, "no candidate answer was found in the retrieved passages", ""), []
    best = found[0]
    threshold = model.threshold
    if best.confidence < threshold:
        why = f"the documents were not read confidently enough to answer (best confidence {best.confidence:.0%}, " \
              f"needed {threshold:.0%})"  # fmt: skip
        if threshold >= 1.0:  # the fit found no confidence at which its answers were precise enough
            why = (
                "the offline reader gives no short answers: on questions it was not fitted on, even its most "
                "confident answers were too often wrong"
            )  # fmt: skip  (its confidence is not shown: it misleads)
        return Reading("", best.confidence, best, why, model.explain(best)), found
    return Reading(best.text, best.confidence, best, "", model.explain(best)), found

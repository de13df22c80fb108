"""Fit the offline reader's scorer and cross-validate its threshold; write vgrag/query/reader_weights.json.

Usage: python scripts/fit_reader.py --set NAME DB_FILE GRAPH BENCH_FOLDER [--set …] [--target 0.6] [--write]
                                    [--curve FILE.md] [--generate N]

Per set: graph retrieval at the app's defaults (top 5 passages) for every question, then every candidate's signals
(vgrag/query/reader.py). A candidate is right when it contains a gold answer or alias (the bench's "contains"). The
model is a logistic regression (numpy, Newton steps, L2 1e-4, deterministic); since a candidate's signals come from
its best-scoring sentence, it is fitted twice (the second time on the signals the first fit picks).

With --generate N the weights are fitted instead on N questions per set generated from the graph's own triples
("<wh-word> <predicate> <subject>?", answer: the object); measured: those single-hop questions teach weights that
fail on the multi-hop dev questions (see docs/offline-answers.md), so the default fits on the dev sets.

Cross-validation, both directions: fit on one set, choose the threshold there (the lowest at which that set's shown
short answers reach --target precision), report on the other set: answered, precision, evidence_contains with
bootstrap 95 % intervals (10,000 resamples of the questions, seed 0). The shipped model is then fitted on all sets
with the threshold chosen the same way on all of them (--write). --curve writes the risk-coverage table (precision
against answered as the threshold moves, on each held-out set with the model fitted on the other).
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vgrag.bench import answer_metrics, answer_scores  # noqa: E402
from vgrag.bench_data import load_bench  # noqa: E402
from vgrag.config import QueryParams  # noqa: E402
from vgrag.embed import make_embedder  # noqa: E402
from vgrag.nlp import load_spacy  # noqa: E402
from vgrag.query.answer import chain_of, extractive_answer, query_names, reasoning_paths  # noqa: E402
from vgrag.query.question import norm, read_question  # noqa: E402
from vgrag.query.reader import SIGNALS, WEIGHTS_FILE, Model, candidates  # noqa: E402
from vgrag.query.retrieve import retrieve  # noqa: E402
from vgrag.storage.database import Database, quiet_storage_logs  # noqa: E402
from vgrag.storage.tags import tag_sentences  # noqa: E402
from vgrag.text import split_sentences  # noqa: E402

L2 = 1e-3


@dataclass
class Item:
    golds: tuple[str, ...]
    trace: object
    asked: object
    passages: list[tuple[str, str]]
    chain: object


@dataclass
class Set:
    name: str
    graph: object
    items: list[Item]


def prepare(name: str, graph: object, questions: list[tuple[str, tuple[str, ...]]], embedder: object) -> Set:
    """Retrieve every question at the app's defaults and read what the reader needs from its trace."""
    items = []
    for question, golds in questions:
        trace = retrieve(question, graph, embedder, QueryParams())  # type: ignore[arg-type]
        paths = reasoning_paths(trace, embedder, graph)  # type: ignore[arg-type]
        asked = read_question(trace.question, query_names(trace))
        passages = [(p.title, p.text) for p in trace.passages.passages] if trace.passages else []
        items.append(Item(golds, trace, asked, passages, chain_of(trace, paths)))
    return Set(name, graph, items)


WH = {"PERSON": "Who", "DATE": "When", "TIME": "When", "GPE": "Where", "LOC": "Where", "FAC": "Where",
      "CARDINAL": "How many", "QUANTITY": "How much", "MONEY": "How much"}  # fmt: skip


def generate(graph: object, n: int, seed: int = 0) -> list[tuple[str, tuple[str, ...]]]:
    """n training questions from the graph's own triples: a relation whose object the NER tags in its passage
    becomes "<wh-word for the object's label> <predicate> <subject>?" with the object as the answer."""
    nlp = load_spacy()
    texts = {p.id: p.text for p in graph.iter_passages()}  # type: ignore[attr-defined]
    rels = sorted(graph.iter_relations(), key=lambda r: r.id)  # type: ignore[attr-defined]
    random.Random(seed).shuffle(rels)
    out: list[tuple[str, tuple[str, ...]]] = []
    for r in rels:
        if len(out) >= n:
            break
        text = texts.get(r.passage_ids[0]) if r.passage_ids else None
        if text is None or norm(r.object) in norm(r.subject):
            continue
        sentences = split_sentences(text) or [text]
        labels = [lab for ents in tag_sentences(nlp, sentences, graph.tags) for t, lab in ents  # type: ignore[attr-defined]
                  if norm(t) == norm(r.object)]  # fmt: skip
        if labels and labels[0] != "ORDINAL":
            out.append((f"{WH.get(labels[0], 'What')} {r.predicate} {r.subject}?", (r.object,)))
    return out


def rows(s: Set, model: Model) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per question: the candidates' signals and whether each is right."""
    out = []
    for it in s.items:
        found = candidates(it.asked, it.passages, it.chain, s.graph.tags, model) if it.asked.english else []  # type: ignore[attr-defined]
        x = np.array([c.values for c in found], dtype=float).reshape(-1, len(SIGNALS))
        y = np.array([answer_scores(c.text, it.golds)["contains"] for c in found], dtype=float)
        out.append((x, y))
    return out


def fit_softmax(data: list[tuple[np.ndarray, np.ndarray]], steps: int = 3000, rate: float = 0.5) -> np.ndarray:
    """Weights (+ bias last) of the reader's conditional logit: per question a softmax over its candidates and a
    null option (score 0), maximising the probability of its right candidates (or of the null when none is right);
    full-batch gradient descent from zero, L2 on the weights."""
    k = len(SIGNALS) + 1
    w = np.zeros(k)
    qs = [(np.hstack([x, np.ones((len(x), 1))]), y) for x, y in data if len(y)]
    nulls = len(data) - len(qs)  # questions without candidates: only the null option, no gradient
    for _ in range(steps):
        grad = np.zeros(k)
        for a, y in qs:
            s = a @ w
            top = max(0.0, float(s.max()))
            e = np.exp(s - top)
            p = e / (np.exp(-top) + e.sum())
            if y.sum():  # the right candidates share the target in proportion to their probability
                q = p * y / (p * y).sum()
            else:
                q = np.zeros_like(p)
            grad += a.T @ (p - q)
        grad = grad / (len(qs) + nulls) + L2 * np.r_[w[:-1], 0.0]
        w -= rate * grad
    return w


def fit(sets: list[Set]) -> Model:
    """The weights (threshold left at 1: see choose_threshold)."""
    model = Model((0.0,) * len(SIGNALS), 0.0, 1.0)  # from nothing: the result does not depend on the shipped file
    for _ in range(2):
        data = [r for s in sets for r in rows(s, model)]
        n_pos = sum(float(y.sum()) for _, y in data)
        ceiling = sum(bool(y.sum()) for _, y in data) / len(data)
        print(
            f"  {len(data)} questions, {sum(len(y) for _, y in data)} candidates, {n_pos:.0f} right; a right one "
            f"for {ceiling:.0%} of questions",
            flush=True,
        )
        w = fit_softmax(data)
        model = Model(tuple(round(float(v), 4) for v in w[:-1]), round(float(w[-1]), 4), 1.0)
    return model


def with_threshold(model: Model, sets: list[Set], target: float) -> Model:
    return Model(model.weights, model.bias, choose_threshold(sets, model, target))


def tops(s: Set, model: Model) -> list[tuple[float, float]]:
    """Per question: the best candidate's confidence and whether it is right ((0, 0) without a candidate)."""
    out = []
    for x, y in rows(s, model):
        if not len(y):
            out.append((0.0, 0.0))
            continue
        conf = model.confidences([model.score(v) for v in x])
        i = int(np.argmax(conf))
        out.append((conf[i], float(y[i])))
    return out


def choose_threshold(sets: list[Set], model: Model, target: float) -> float:
    """The lowest threshold at which the shown answers of these sets reach the target precision (at least 3)."""
    pairs = sorted((p for s in sets for p in tops(s, model)), reverse=True)
    best = 1.0
    right = 0.0
    for n, (conf, ok) in enumerate(pairs, 1):
        right += ok
        if n >= 3 and right / n >= target and conf > 0:
            best = conf
    return round(best, 4)


def evaluate(s: Set, model: Model, embedder: object) -> list[dict[str, float]]:
    out = []
    for it in s.items:
        step = extractive_answer(it.trace, embedder, s.graph, model)  # type: ignore[arg-type]
        out.append(answer_metrics(step, it.golds) | {"confidence": step.confidence})
    return out


def bootstrap(per: list[dict[str, float]], n: int = 10_000, seed: int = 0) -> dict[str, tuple[float, float, float]]:
    """answered, precision and evidence_contains (%) with percentile 95 % intervals over resampled questions."""
    answered = np.array([p["answered"] for p in per])
    right = np.array([p["contains"] for p in per])
    evidence = np.array([p["evidence_contains"] for p in per])
    idx = np.random.default_rng(seed).integers(0, len(per), size=(n, len(per)))
    prec = right[idx].sum(1) / np.maximum(answered[idx].sum(1), 1)

    def ci(point: float, samples: np.ndarray) -> tuple[float, float, float]:
        lo, hi = np.percentile(samples, [2.5, 97.5])
        return round(100 * point, 1), round(100 * float(lo), 1), round(100 * float(hi), 1)

    return {
        "answered": ci(answered.mean(), answered[idx].mean(1)),
        "precision": ci(right.sum() / max(answered.sum(), 1), prec),
        "evidence_contains": ci(evidence.mean(), evidence[idx].mean(1)),
    }


def curve(per: list[dict[str, float]]) -> list[tuple[float, float, float]]:
    """(threshold, answered %, precision %) as the threshold moves."""
    out = []
    for t in np.arange(0.05, 1.0, 0.05):
        shown = [p for p in per if p["confidence"] >= t and p["contains_short"] is not None]
        right = sum(p["contains_short"] for p in shown)
        answered, precision = 100 * len(shown) / len(per), 100 * right / max(len(shown), 1)
        out.append((round(float(t), 2), round(answered, 1), round(precision, 1)))
    return out


def main() -> None:
    argv = sys.argv[1:]
    specs = [argv[i + 1 : i + 5] for i, a in enumerate(argv) if a == "--set"]
    target = float(argv[argv.index("--target") + 1]) if "--target" in argv else 0.6
    n_gen = int(argv[argv.index("--generate") + 1]) if "--generate" in argv else 0
    quiet_storage_logs()
    embedder = make_embedder("minilm")
    sets, generated = [], []
    for name, db, graph_name, folder in specs:
        graph = Database(db).open_graph(graph_name, embedder.model_id, embedder.dim, create=False)
        questions = [(q.question, q.answers) for q in load_bench(folder).questions]
        sets.append(prepare(name, graph, questions, embedder))
        if n_gen:
            generated.append(prepare(f"{name} (generated)", graph, generate(graph, n_gen), embedder))
    # the weights: with --generate, fitted on questions generated from the corpora's own triples; else on one dev
    # set when reporting on the other (and on all of them for the shipped model)
    report: dict = {"target": target, "generated": n_gen, "cross": {}, "curves": {}}
    for a in sets:
        for b in sets:
            if a is b:
                continue
            weights = fit(generated or [a])
            model = with_threshold(weights, [a], target)  # the threshold: chosen on one dev set …
            per = evaluate(b, model, embedder)  # … reported on the other
            # the curve needs every question's best candidate, shown or not: score it at threshold 0
            for p, q in zip(per, evaluate(b, Model(model.weights, model.bias, 0.0), embedder), strict=True):
                p["contains_short"] = q["contains"]
            top1 = round(100 * sum(p["contains_short"] for p in per) / len(per), 1)  # every best candidate shown
            report["cross"][f"{a.name} -> {b.name}"] = {"threshold": model.threshold, "top1": top1, **bootstrap(per)}
            report["curves"][f"{a.name} -> {b.name}"] = curve(per)
            print(f"threshold from {a.name} ({model.threshold}), reported on {b.name}: top1 {top1} {bootstrap(per)}",
                  flush=True)  # fmt: skip
    final = with_threshold(fit(generated or sets), sets, target)
    report["final"] = {"weights": dict(zip(SIGNALS, final.weights, strict=True)), "bias": final.bias,
                       "threshold": final.threshold}  # fmt: skip
    for s in sets:
        report[f"final on {s.name} (threshold seen)"] = bootstrap(evaluate(s, final, embedder))
    print(json.dumps(report, indent=1))
    if "--write" in argv:
        shipped = {"signals": list(SIGNALS), "weights": list(final.weights), "bias": final.bias,
                   "threshold": final.threshold}  # fmt: skip
        WEIGHTS_FILE.write_text(json.dumps(shipped, indent=1) + "\n")
    if "--curve" in argv:
        lines = ["| threshold from -> reported on | threshold | answered % | precision % |", "|---|---|---|---|"]
        for key, pts in report["curves"].items():
            lines += [f"| {key} | {t} | {a} | {p} |" for t, a, p in pts]
        Path(argv[argv.index("--curve") + 1]).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

"""Fit the offline reader's scorer and choose its threshold; write vgrag/query/reader_weights.json.

Usage: python scripts/fit_reader.py [--train NAME DB_FILE GRAPH QUESTIONS.json …] --set NAME DB_FILE GRAPH BENCH_FOLDER
                                    [--set …] [--target 0.5] [--write] [--curve FILE.md] [--cache DIR] [--prepare-only]

Per set: graph retrieval at the app's defaults (top 5 passages) for every question, then every candidate's signals
(vgrag/query/reader.py). A candidate is right when it contains a gold answer or alias (the bench's "contains"). The
model is a conditional logit (numpy gradient descent from zero, L2 1e-3, deterministic); since a candidate's signals
come from its best-scoring sentence, it is fitted twice (the second time on the signals the first fit picks). The
threshold is the lowest confidence at which the fitting questions' shown short answers reach --target precision.

With --train (questions generated from the corpora's own triples by scripts/generate_questions.py), the weights and
the threshold are fitted on those only, and every --set (the dev sets) is held out: answered, precision,
evidence_contains with bootstrap 95 % intervals (10,000 resamples of the questions, seed 0), at the threshold for
--target and for 70 %. --write then ships the weights with that threshold only if every dev set's held-out precision
reaches --target with something answered; otherwise with threshold 1.0 (no short answers).
Without --train, cross-validation between the dev sets, both directions (fit on one, report on the other), and
--write ships the model fitted on all of them. --curve writes the risk-coverage table (precision against answered as
the threshold moves, on each held-out set). --cache DIR keeps the retrieved questions (pickled, in chunks), so a
rerun skips retrieval; --prepare-only stops after retrieving (to keep each run under the shared lock short).
"""

from __future__ import annotations

import hashlib
import json
import pickle
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vgrag.evaluation.bench import answer_metrics, answer_scores  # noqa: E402
from vgrag.evaluation.data import load_bench  # noqa: E402
from vgrag.config import QueryParams  # noqa: E402
from vgrag.embed import make_embedder  # noqa: E402
from vgrag.query.answer import chain_of, extractive_answer, query_names, reasoning_paths  # noqa: E402
from vgrag.query.question import read_question  # noqa: E402
from vgrag.query.sentences import as_passages, listed_sentences  # noqa: E402
from vgrag.query.reader import SIGNALS, WEIGHTS_FILE, Model, candidates  # noqa: E402
from vgrag.query.retrieve import retrieve  # noqa: E402
from vgrag.storage.database import Database, quiet_storage_logs  # noqa: E402

L2 = 1e-3
CHUNK = 200


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


def prepare(name: str, graph: object, questions: list[tuple[str, tuple[str, ...]]], embedder: object,
            cache: Path | None = None) -> Set:  # fmt: skip
    """Retrieve every question at the app's defaults and read what the reader needs from its trace; with a cache
    folder, in chunks of CHUNK questions pickled there (a rerun picks up where the last one stopped)."""
    items: list[Item] = []
    for start in range(0, len(questions), CHUNK):
        chunk = questions[start : start + CHUNK]
        key = hashlib.sha1(json.dumps([name, chunk]).encode()).hexdigest()[:12]
        path = cache / f"{name.replace(' ', '_')}-{start}-{key}.pkl" if cache else None
        if path and path.exists():
            items += pickle.loads(path.read_bytes())
            continue
        done = []
        for question, golds in chunk:
            trace = retrieve(question, graph, embedder, QueryParams())  # type: ignore[arg-type]
            paths = reasoning_paths(trace, embedder, graph)  # type: ignore[arg-type]
            asked = read_question(trace.question, query_names(trace))
            passages = [(p.title, p.text) for p in trace.passages.passages] if trace.passages else []
            done.append(Item(tuple(golds), trace, asked, passages, chain_of(trace, paths)))
        if path:
            path.write_bytes(pickle.dumps(done))
            print(f"  {name}: {start + len(chunk)} of {len(questions)} questions retrieved", flush=True)
        items += done
    return Set(name, graph, items)


def rows(s: Set, model: Model) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per question: the candidates' signals and whether each is right."""
    out = []
    for it in s.items:
        listed = listed_sentences(as_passages(it.passages), s.graph.tags)  # type: ignore[attr-defined]
        found = candidates(it.asked, it.passages, it.chain, model, listed) if it.asked.english else []
        x = np.array([c.values for c in found], dtype=float).reshape(-1, len(SIGNALS))
        y = np.array([answer_scores(c.text, it.golds)["contains"] for c in found], dtype=float)
        out.append((x, y))
    return out


def fit_softmax(data: list[tuple[np.ndarray, np.ndarray]], steps: int = 3000, rate: float = 0.5) -> np.ndarray:
    """Weights (+ bias last) of the reader's conditional logit: per question a softmax over its candidates and a
    null option (score 0), maximising the probability of its right candidates (or of the null when none is right);
    full-batch gradient descent from zero, L2 on the weights (all questions' candidates in one array)."""
    qs = [(x, y) for x, y in data if len(y)]
    nulls = len(data) - len(qs)  # questions without candidates: only the null option, no gradient
    w = np.zeros((qs[0][0].shape[1] if qs else len(SIGNALS)) + 1)  # one weight per column (the signals), + bias
    if not qs:
        return w
    a = np.vstack([np.hstack([x, np.ones((len(x), 1))]) for x, _ in qs])
    y = np.concatenate([y for _, y in qs])
    starts = np.cumsum([0] + [len(y) for _, y in qs[:-1]])
    seg = np.repeat(np.arange(len(qs)), [len(y) for _, y in qs])
    for _ in range(steps):
        s = a @ w
        top = np.maximum(np.maximum.reduceat(s, starts), 0.0)
        e = np.exp(s - top[seg])
        p = e / (np.exp(-top) + np.add.reduceat(e, starts))[seg]
        py = p * y  # the right candidates share the target in proportion to their probability
        total = np.add.reduceat(py, starts)[seg]
        q = np.divide(py, total, out=np.zeros_like(py), where=total > 0)
        grad = a.T @ (p - q) / (len(qs) + nulls) + L2 * np.r_[w[:-1], 0.0]
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


def held_out(model: Model, s: Set, embedder: object) -> tuple[list[dict[str, float]], float]:
    """Per question of a set the model never saw: its answer metrics, plus whether its best candidate (shown or
    not) is right (contains_short, for the curve); and top-1 (% of questions whose best candidate is right)."""
    per = evaluate(s, model, embedder)
    for p, q in zip(per, evaluate(s, Model(model.weights, model.bias, 0.0), embedder), strict=True):
        p["contains_short"] = q["contains"]
    return per, round(100 * sum(p["contains_short"] for p in per) / len(per), 1)


def graph_reader() -> tuple[object, object]:
    """MiniLM (the bench graphs' embedder) and an opener of stored graphs, each (database, graph) opened once."""
    quiet_storage_logs()
    embedder = make_embedder("minilm")
    graphs: dict[tuple[str, str], object] = {}

    def graph_of(db: str, name: str) -> object:
        if (db, name) not in graphs:
            graphs[db, name] = Database(db).open_graph(name, embedder.model_id, embedder.dim, create=False)
        return graphs[db, name]

    return embedder, graph_of


def main() -> None:
    argv = sys.argv[1:]
    specs = [argv[i + 1 : i + 5] for i, a in enumerate(argv) if a == "--set"]
    trains = [argv[i + 1 : i + 5] for i, a in enumerate(argv) if a == "--train"]
    target = float(argv[argv.index("--target") + 1]) if "--target" in argv else 0.5
    cache = Path(argv[argv.index("--cache") + 1]) if "--cache" in argv else None
    embedder, graph_of = graph_reader()
    train = []  # questions generated from the corpora's own triples (scripts/generate_questions.py)
    for name, db, graph_name, file in trains:
        questions = [(q["question"], tuple(q["answers"])) for q in json.loads(Path(file).read_text(encoding="utf-8"))]
        train.append(prepare(name, graph_of(db, graph_name), questions, embedder, cache))
    sets = []
    for name, db, graph_name, folder in specs:
        questions = [(q.question, q.answers) for q in load_bench(folder).questions]
        sets.append(prepare(name, graph_of(db, graph_name), questions, embedder, cache))
    if "--prepare-only" in argv:
        return
    report: dict = {"target": target, "trained on": [t.name for t in train], "cross": {}, "curves": {}}
    if train:  # weights and threshold from the generated questions only: every dev set is held out
        weights = fit(train)
        for goal in dict.fromkeys([target, 0.7]):
            model = with_threshold(weights, train, goal)
            for b in sets:
                per, top1 = held_out(model, b, embedder)
                report["cross"][f"generated ({goal:.0%}) -> {b.name}"] = {"threshold": model.threshold,
                                                                           "top1": top1, **bootstrap(per)}  # fmt: skip
                report["curves"][f"generated -> {b.name}"] = curve(per)
                print(f"generated, threshold for {goal:.0%} ({model.threshold}), reported on {b.name}: top1 {top1} "
                      f"{bootstrap(per)}", flush=True)  # fmt: skip
        final = with_threshold(weights, train, target)
        held = [report["cross"][f"generated ({target:.0%}) -> {b.name}"] for b in sets]
        if not held or not all(h["answered"][0] > 0 and h["precision"][0] >= 100 * target for h in held):
            final = Model(final.weights, final.bias, 1.0)  # not precise enough on unseen questions: no short answers
    else:  # the weights and threshold on one dev set, reported on the other
        for a in sets:
            for b in sets:
                if a is not b:
                    model = with_threshold(fit([a]), [a], target)
                    per, top1 = held_out(model, b, embedder)
                    report["cross"][f"{a.name} -> {b.name}"] = {"threshold": model.threshold, "top1": top1,
                                                                **bootstrap(per)}  # fmt: skip
                    report["curves"][f"{a.name} -> {b.name}"] = curve(per)
                    print(f"threshold from {a.name} ({model.threshold}), reported on {b.name}: top1 {top1} "
                          f"{bootstrap(per)}", flush=True)  # fmt: skip
        final = with_threshold(fit(sets), sets, target)
    report["final"] = {"weights": dict(zip(SIGNALS, final.weights, strict=True)), "bias": final.bias,
                       "threshold": final.threshold}  # fmt: skip
    for s in sets:
        report[f"final on {s.name}"] = bootstrap(evaluate(s, final, embedder))
    print(json.dumps(report, indent=1))
    if "--write" in argv:
        shipped = {"signals": list(SIGNALS), "weights": list(final.weights), "bias": final.bias,
                   "threshold": final.threshold}  # fmt: skip
        WEIGHTS_FILE.write_text(json.dumps(shipped, indent=1) + "\n")
    if "--curve" in argv:
        lines = ["| fitted on -> reported on | threshold | answered % | precision % |", "|---|---|---|---|"]
        for key, pts in report["curves"].items():
            lines += [f"| {key} | {t} | {a} | {p} |" for t, a, p in pts]
        Path(argv[argv.index("--curve") + 1]).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

"""Does reading a sentence's meaning with a sentence embedding help the offline answer step? Two measurements, on
the same retrieved questions as scripts/fit_reader.py (graph method, the app's defaults, top 5 passages):

1. Evidence (every --set): evidence_contains of the shipped set cover (vgrag/query/evidence.py) against three ways
   of letting the question-sentence cosine choose: ties of the cover broken by it instead of passage rank ("tie"),
   the most similar sentence first and then the cover ("first"), the three most similar sentences ("top3"). Paired
   differences with 95 % bootstrap intervals (10,000 resamples of the questions, seed 0).
2. Reader (with --train): the reader's signals plus the cosine of the question and each candidate's sentence (as is,
   and relative to the question's most similar candidate sentence), fitted on the generated questions only like
   fit_reader.py --train; the dev sets held out: top-1, and answered / precision at the thresholds that give 50 %
   and 70 % precision on the generated questions.

Usage: python scripts/sentence_similarity_study.py [--train NAME DB GRAPH QUESTIONS.json …] --set NAME DB GRAPH
       BENCH_FOLDER [--set …] [--embedder minilm|e5] [--cache DIR]
The graphs are read with MiniLM (the bench graphs' embedder); --embedder picks the model that embeds the sentences.
Results: docs/offline-answers.md, "Fourth pass".
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fit_reader import Item, Set, fit_softmax, graph_reader, prepare  # noqa: E402

from vgrag.evaluation.bench import answer_scores  # noqa: E402
from vgrag.evaluation.data import load_bench  # noqa: E402
from vgrag.embed import Embedder, embed_queries, make_embedder  # noqa: E402
from vgrag.nlp import load_spacy  # noqa: E402
from vgrag.query.answer import query_names  # noqa: E402
from vgrag.query.evidence import MAX_EVIDENCE, Sentence, bridged, choose, describe  # noqa: E402
from vgrag.query.reader import SIGNALS, candidates, fitted, sentences_of  # noqa: E402
from vgrag.extraction.tags import tag_sentences  # noqa: E402


sys.modules["__main__"].Item = Item  # fit_reader.py, run as a script, pickled its cache's items as __main__.Item


class Cosines:
    """Question-sentence cosines with one embedder, each text embedded once."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder, self.seen = embedder, {}

    def __call__(self, question: str, texts: list[str]) -> np.ndarray:
        new = [t for t in dict.fromkeys(texts) if t not in self.seen]
        if new:
            self.seen.update(zip(new, self.embedder.embed(new), strict=True))
        if not texts:
            return np.zeros(0)
        q = embed_queries(self.embedder, [question])[0]
        return np.array([self.seen[t] for t in texts]) @ q


def _cover_by(sentences: list[Sentence], sim: dict[str, float]) -> list[Sentence]:
    """The shipped cover with ties broken by the cosine instead of the passage's rank."""
    chosen: list[Sentence] = []
    words: set[int] = set()
    names: set[str] = set()
    while len(chosen) < MAX_EVIDENCE:
        left = [s for s in sentences if all(s.text != c.text for c in chosen)]
        if not left:
            break
        best = max(left, key=lambda s: (len(s.words - words) + len(s.names - names) + bridged(s, chosen), sim[s.text]))
        chosen.append(best)
        words |= best.words
        names |= best.names
    return chosen


def evidence_variants(s: Set, cos: Cosines) -> dict[str, np.ndarray]:
    nlp = load_spacy()
    out: dict[str, list[float]] = {"shipped": [], "tie": [], "first": [], "top3": []}
    for it in s.items:
        split = sentences_of(it.passages)
        ents = tag_sentences(nlp, [t for _, _, t in split], s.graph.tags) if nlp else [[] for _ in split]
        said = describe(it.asked.lemmas, query_names(it.trace), split, ents)
        sim = dict(zip([x.text for x in said], cos(it.trace.question, [x.text for x in said]), strict=True))
        top = max(said, key=lambda x: sim[x.text]) if said else None
        picks = {
            "shipped": choose(said),
            "tie": _cover_by(said, sim),
            "first": choose(said, top) if top else [],
            "top3": sorted(said, key=lambda x: -sim[x.text])[:MAX_EVIDENCE],
        }
        for k, chosen in picks.items():
            out[k].append(answer_scores(" ".join(x.text for x in chosen), it.golds)["contains"])
    return {k: np.array(v, dtype=float) for k, v in out.items()}


def ci(d: np.ndarray, n: int = 10_000) -> str:
    m = d[np.random.default_rng(0).integers(0, len(d), size=(n, len(d)))].mean(1)
    lo, hi = np.percentile(m, [2.5, 97.5])
    return f"{100 * d.mean():+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]"


def reader_rows(s: Set, cos: Cosines | None) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per question: the candidates' signals (+ cosine, + cosine minus the question's best when `cos`), rightness."""
    model, out = fitted(), []
    for it in s.items:
        found = candidates(it.asked, it.passages, it.chain, s.graph.tags, model) if it.asked.english else []
        x = np.array([c.values for c in found], dtype=float).reshape(-1, len(SIGNALS))
        if cos is not None:
            c = cos(it.trace.question, [f.sentence for f in found])
            x = np.column_stack([x, c, c - (c.max() if len(c) else 0.0)])
        out.append((x, np.array([answer_scores(f.text, it.golds)["contains"] for f in found], dtype=float)))
    return out


def tops(rows: list[tuple[np.ndarray, np.ndarray]], w: np.ndarray) -> list[tuple[float, float]]:
    """Per question: the best candidate's confidence (softmax beside a null option) and whether it is right."""
    out = []
    for x, y in rows:
        if not len(y):
            out.append((0.0, 0.0))
            continue
        z = x @ w[:-1] + w[-1]
        top = max(0.0, z.max())
        p = np.exp(z - top) / (np.exp(-top) + np.exp(z - top).sum())
        out.append((float(p.max()), float(y[int(np.argmax(p))])))
    return out


def threshold(pairs: list[tuple[float, float]], target: float) -> float:
    best, right = 1.0, 0.0
    for n, (conf, ok) in enumerate(sorted(pairs, reverse=True), 1):
        right += ok
        if n >= 3 and right / n >= target and conf > 0:
            best = conf
    return best


def main() -> None:
    argv = sys.argv[1:]
    specs = [argv[i + 1 : i + 5] for i, a in enumerate(argv) if a == "--set"]
    trains = [argv[i + 1 : i + 5] for i, a in enumerate(argv) if a == "--train"]
    cache = Path(argv[argv.index("--cache") + 1]) if "--cache" in argv else None
    kind = argv[argv.index("--embedder") + 1] if "--embedder" in argv else "minilm"
    embedder, graph_of = graph_reader()
    cos = Cosines(embedder if kind == "minilm" else make_embedder(kind))
    sets = [prepare(n, graph_of(db, g), [(q.question, q.answers) for q in load_bench(f).questions], embedder, cache)
            for n, db, g, f in specs]  # fmt: skip
    for s in sets:
        ev = evidence_variants(s, cos)
        moved = [f"{k} {100 * ev[k].mean():.1f} % ({ci(ev[k] - ev['shipped'])})" for k in ("tie", "first", "top3")]
        print(
            f"evidence, {s.name} ({kind}): shipped {100 * ev['shipped'].mean():.1f} %; " + "; ".join(moved), flush=True
        )
    if not trains:
        return
    train = []
    for n, db, g, f in trains:
        qs = [(q["question"], tuple(q["answers"])) for q in json.loads(Path(f).read_text(encoding="utf-8"))]
        train.append(prepare(n, graph_of(db, g), qs, embedder, cache))
    for label, c in (("signals", None), ("signals + cosine", cos)):
        data = [r for s in train for r in reader_rows(s, c)]
        w = fit_softmax(data)
        fit_pairs = tops(data, w)
        extra = ", cosine weights " + ", ".join(f"{v:+.2f}" for v in w[len(SIGNALS) : -1]) if c else ""
        seen = 100 * np.mean([ok for _, ok in fit_pairs])
        print(f"reader, {label} ({kind}){extra}: top-1 on the generated questions {seen:.1f} %")
        for target in (0.5, 0.7):
            t = threshold(fit_pairs, target)
            for s in sets:
                pairs = tops(reader_rows(s, c), w)
                shown = [ok for conf, ok in pairs if conf >= t]
                prec = f"{100 * np.mean(shown):.1f} %" if shown else "-"
                top1, answered = 100 * np.mean([ok for _, ok in pairs]), 100 * len(shown) / len(pairs)
                print(f"  {s.name}: threshold for {target:.0%} on generated {t:.3f}: top-1 {top1:.1f} %, answered "
                      f"{answered:.1f} %, precision {prec}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()

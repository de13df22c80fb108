"""What the verdict adds to the answer step: the median time of `judge` and `relation_z` (query/verdict.py) inside
`extractive_answer`, and of the whole answer step, over a benchmark's questions on a kept benchmark graph.

    python scripts/verdict_timing.py /tmp/hv/mus.db bench_musique_train ../shared/bench/musique_train
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import vgrag.query.answer as answer  # noqa: E402
from vgrag.evaluation.data import load_bench  # noqa: E402
from vgrag.embed import make_embedder  # noqa: E402
from vgrag.query.retrieve import retrieve  # noqa: E402
from vgrag.storage.database import Database, quiet_storage_logs  # noqa: E402


def _timed(inner, sink: list[float]):  # type: ignore[no-untyped-def]
    """`inner`, recording each call's milliseconds in `sink`."""

    def timed(*args, **kwargs):  # type: ignore[no-untyped-def]
        t0 = time.perf_counter()
        out = inner(*args, **kwargs)
        sink.append((time.perf_counter() - t0) * 1000)
        return out

    return timed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("db")
    ap.add_argument("graph")
    ap.add_argument("data")
    a = ap.parse_args()
    quiet_storage_logs()
    embedder = make_embedder("minilm")
    graph = Database(a.db).open_graph(a.graph, embedder.model_id, embedder.dim, create=False)
    judged: list[float] = []
    margins: list[float] = []
    answer.judge = _timed(answer.judge, judged)  # type: ignore[assignment]
    answer.relation_z = _timed(answer.relation_z, margins)  # type: ignore[assignment]
    steps: list[float] = []
    questions = load_bench(a.data).questions
    answer.extractive_answer(retrieve(questions[0].question, graph, embedder), embedder, graph)  # spaCy loaded
    judged.clear()
    margins.clear()
    for q in questions:
        trace = retrieve(q.question, graph, embedder)
        t0 = time.perf_counter()
        answer.extractive_answer(trace, embedder, graph)
        steps.append((time.perf_counter() - t0) * 1000)
    both = [a + b for a, b in zip(judged, margins, strict=True)]
    print(f"{len(steps)} questions: verdict (judge + relation_z) median {statistics.median(both):.3f} ms (max "
          f"{max(both):.3f}; relation_z alone {statistics.median(margins):.3f}); "
          f"answer step median {statistics.median(steps):.1f} ms")  # fmt: skip


if __name__ == "__main__":
    main()

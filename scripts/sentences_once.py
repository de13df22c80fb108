"""Sentences once (issue #29): what an ingest, an import and the answer step cost when passages keep their sentences
and tags from ingest, against an older checkout (PYTHONPATH=<checkout> runs the same script on its code).

    flock /tmp/heavy.lock python scripts/sentences_once.py [--n 200] [--rounds 2]

A fresh Lite file in a temp folder: the demo's triples imported (its 36 passages), a Markdown file of the first N
HotpotQA dev passages ingested with offline extraction; then each demo question and each of the first 20 HotpotQA
dev questions asked `rounds` times (graph retrieval, offline answer), timing the answer step alone (Workspace.answer)
— the first round finds every listed passage new to the process, later rounds as an app's next questions do.
Uses only the public Workspace API. Prints JSON."""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from vgrag import Settings, Workspace

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "data" / "demo"
HOTPOT = ROOT.parent / "shared" / "bench" / "hotpotqa_dev"


def _answer_ms(ws: Workspace, graph: str, questions: list[str], rounds: int) -> list[list[float]]:
    out = []
    for _ in range(rounds):
        times = []
        for q in questions:
            trace = ws.retrieve(q, graph=graph)
            t0 = time.perf_counter()
            ws.answer(trace, graph=graph)
            times.append((time.perf_counter() - t0) * 1000)
        out.append(times)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=2)
    a = ap.parse_args()
    ws = Workspace.open(Settings(milvus_uri=str(Path(tempfile.mkdtemp()) / "once.db")))
    t0 = time.perf_counter()
    ws.import_triples(DEMO / "northwind.jsonl", graph="demo")
    import_s = time.perf_counter() - t0
    rows = json.loads((HOTPOT / "corpus.json").read_text(encoding="utf-8"))[: a.n]
    md = "\n\n".join(f"# {r['title']}\n\n{r['text']}" for r in rows).encode("utf-8")
    t0 = time.perf_counter()
    report = ws.add_documents([(f"hotpot{a.n}.md", md)], graph="hot")
    ingest_s = time.perf_counter() - t0
    demo_q = json.loads((DEMO / "questions.json").read_text(encoding="utf-8"))
    hot_q = [q["question"] for q in json.loads((HOTPOT / "questions.json").read_text(encoding="utf-8"))[:20]]
    result = {
        "demo_import_s": round(import_s, 2),
        "ingest_s": round(ingest_s, 1),
        "ingest_timings_s": {k: round(v, 1) for k, v in getattr(report, "timings", {}).items()},
        "chunks": report.chunks,
    }
    for name, graph, qs in (("demo", "demo", demo_q), ("hotpot", "hot", hot_q)):
        for r, times in enumerate(_answer_ms(ws, graph, qs, a.rounds)):
            result[f"{name}_answer_round{r + 1}_median_ms"] = round(statistics.median(times), 1)
            result[f"{name}_answer_round{r + 1}_max_ms"] = round(max(times), 1)
    print(json.dumps(result))
    ws.close()


if __name__ == "__main__":
    main()

"""Questions asked while a Build runs: idle latency, then latency while a Workspace ingests a 200-passage Markdown
file (offline extraction) into another graph of the same database — the app's situation (issue #29).

    python scripts/ask_during_build.py [--uri data/x.db | http://127.0.0.1:19530] [--corpus corpus.json] [--n 200]

Uses only the public Workspace API, so the same script measures older checkouts (PYTHONPATH=<checkout>)."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vgrag import Settings, Workspace  # noqa: E402

DEMO = ROOT / "data" / "demo"


def markdown(corpus: Path, n: int) -> bytes:
    rows = json.loads(corpus.read_text(encoding="utf-8"))[:n]
    return "\n\n".join(f"# {r['title']}\n\n{r['text']}" for r in rows).encode("utf-8")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--uri", default="")
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "bench" / "hotpotqa_dev" / "corpus.json"))
    ap.add_argument("--n", type=int, default=200)
    a = ap.parse_args()
    uri = a.uri or str(Path(tempfile.mkdtemp()) / "during.db")
    ws = Workspace.open(Settings(milvus_uri=uri))
    ws.drop("asked")
    ws.drop("built")
    ws.import_triples(DEMO / "northwind.jsonl", graph="asked")
    questions = json.loads((DEMO / "questions.json").read_text())
    ws.query(questions[0], graph="asked", use_llm=False)  # warm: models loaded, copies in memory
    idle = []
    for q in questions * 2:
        t0 = time.perf_counter()
        ws.query(q, graph="asked", use_llm=False)
        idle.append(time.perf_counter() - t0)
    data = markdown(Path(a.corpus), a.n)
    window: dict[str, float] = {}

    def build() -> None:
        window["start"] = time.perf_counter()
        ws.add_documents([(f"p{a.n}.md", data)], graph="built")
        window["end"] = time.perf_counter()

    worker = threading.Thread(target=build)
    worker.start()
    during, i = [], 0
    while worker.is_alive():
        t0 = time.perf_counter()
        ws.query(questions[i % len(questions)], graph="asked", use_llm=False)
        t1 = time.perf_counter()
        if worker.is_alive():
            during.append(t1 - t0)
        i += 1
    worker.join()
    out = {
        "uri": uri if a.uri else "(temp Lite file)",
        "idle_median_s": round(statistics.median(idle), 4),
        "answered_during": len(during),
        "during_median_s": round(statistics.median(during), 4) if during else None,
        "during_max_s": round(max(during), 4) if during else None,
        "ratio": round(statistics.median(during) / statistics.median(idle), 2) if during else None,
        "ingest_s": round(window["end"] - window["start"], 1),
    }
    print(json.dumps(out))
    ws.close()


if __name__ == "__main__":
    main()

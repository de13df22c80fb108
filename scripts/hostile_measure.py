"""Measure the hostile-input bounds (#24): memory and time of refusing a DOCX zip bomb, and how long a query waits
for an LLM server that drips one byte a second, against its deadline.

    python scripts/hostile_measure.py bomb --unpacked-mb 2048      # builds /tmp/vgrag-bomb.docx once
    python scripts/hostile_measure.py drip --deadline 30
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


def build_bomb(path: Path, unpacked_mb: int) -> None:
    para = b"<w:p><w:r><w:t>" + b"a" * 4000 + b"</w:t></w:r></w:p>"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        with z.open("word/document.xml", "w", force_zip64=True) as f:
            f.write(b"<w:document><w:body>")
            for _ in range(unpacked_mb * 2**20 // len(para)):
                f.write(para)
            f.write(b"</w:body></w:document>")


CHILD = """
import resource, sys, time
sys.path.insert(0, {root!r})
from vgrag.documents.sources import InputError, document_sections
data = open({path!r}, "rb").read()
t0 = time.perf_counter()
try:
    document_sections("bomb.docx", data)
    outcome = "accepted"
except InputError as e:
    outcome = str(e)
print(repr((time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, outcome)))
"""


def bomb(a: argparse.Namespace) -> dict:
    path = Path(a.path)
    if not path.exists() or a.rebuild:
        t0 = time.perf_counter()
        build_bomb(path, a.unpacked_mb)
        print(f"built {path} in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    with zipfile.ZipFile(path) as z:
        unpacked = z.getinfo("word/document.xml").file_size
    out = subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT), path=str(path))],
                         capture_output=True, text=True, check=True)  # fmt: skip
    secs, rss_kb, outcome = ast.literal_eval(out.stdout.strip())  # ru_maxrss: KB on Linux
    return {
        "file_mb": round(path.stat().st_size / 2**20, 2),
        "unpacked_mb": round(unpacked / 2**20),
        "refuse_s": round(secs, 3),
        "peak_rss_mb": round(rss_kb / 1024, 1),
        "message": outcome,
    }


def drip(a: argparse.Namespace) -> dict:
    from fakes import HashEmbedder
    from llm_http import HostileLLM, serving
    from test_retrieve import FACTS, Q

    from vgrag.config import LLMSettings, QueryParams
    from vgrag.llm import Deadline, LLMError, make_llm
    from vgrag.query.pipeline import run_query
    from vgrag.storage.database import Database
    from vgrag.storage.writer import SourceChunk, write_chunks

    emb = HashEmbedder()
    db = Database(str(Path(a.db)))
    g = db.open_graph("drip", emb.model_id, emb.dim)
    write_chunks(g, emb, [SourceChunk("doc", "facts", t, i, (tr,)) for i, (t, tr) in enumerate(FACTS)])
    out: dict = {"deadline_s": a.deadline}
    with serving(HostileLLM("drip")) as url:
        llm = make_llm(LLMSettings(base_url=url, api_key="x", query_deadline_s=a.deadline, max_retries=0))
        t0 = time.perf_counter()
        tr = run_query(Q, g, emb, QueryParams(), llm=llm)
        out["query_s"] = round(time.perf_counter() - t0, 2)
        out["query_rerank_error"] = tr.rerank.error
        out["query_answer"] = tr.answer.method
        t0 = time.perf_counter()
        try:
            r = llm.stream("answer", [{"role": "user", "content": "q"}], lambda p: None, deadline=Deadline(a.deadline))
            out["stream_result"] = f"{len(r.text)} characters, truncated={r.truncated}"
        except LLMError as e:
            out["stream_result"] = str(e)
        out["stream_s"] = round(time.perf_counter() - t0, 2)
    with serving(HostileLLM("drip_headers")) as url:
        llm = make_llm(LLMSettings(base_url=url, api_key="x", query_deadline_s=a.deadline, max_retries=0))
        t0 = time.perf_counter()
        run_query(Q, g, emb, QueryParams(), llm=llm)
        out["headers_dripped_query_s"] = round(time.perf_counter() - t0, 2)
    db.drop_graph("drip")
    return out


def main() -> None:
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("bomb")
    b.add_argument("--unpacked-mb", type=int, default=2048)
    b.add_argument("--path", default="/tmp/vgrag-bomb.docx")
    b.add_argument("--rebuild", action="store_true")
    d = sub.add_parser("drip")
    d.add_argument("--deadline", type=float, default=30.0)
    d.add_argument("--db", default="/tmp/vgrag-drip.db")
    a = p.parse_args()
    print(json.dumps(bomb(a) if a.cmd == "bomb" else drip(a), indent=1))


if __name__ == "__main__":
    main()

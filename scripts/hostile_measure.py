"""Measure the hostile-input bounds (#24): memory and time of refusing a DOCX zip bomb, and how long a query waits
for an LLM server that drips one byte a second, against its deadline.

    python scripts/hostile_measure.py bomb --unpacked-mb 2048      # builds /tmp/vgrag-bomb.docx once
    python scripts/hostile_measure.py drip --deadline 30
    python scripts/hostile_measure.py shapes --kb 300 [--ingest] [--root DIR]  # hostile text shapes (#34)
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


SHAPES = {  # name: (file name, text of about n characters); the #34 probe's shapes and a few more
    "md `_a _a …`": ("x.md", lambda n: "_a " * (n // 3)),
    "md `**a **a …`": ("x.md", lambda n: "**a " * (n // 4)),
    "md `[a[a …`": ("x.md", lambda n: "[a" * (n // 2)),
    "md heading `# a`+spaces+`b`": ("x.md", lambda n: "# a" + " " * n + "b"),
    "txt `[1]`+spaces": ("x.txt", lambda n: "[1]" + " " * n + "end."),
    "html `<a<a …`": ("x.html", lambda n: "<a" * (n // 2)),
    "html 30k-deep <div>": ("x.html", lambda n: "<div>" * (n // 10) + "Deep text here." + "</div>" * (n // 10)),
    "txt one 300 KB word": ("x.txt", lambda n: "a" * n),
    "txt newlines only": ("x.txt", lambda n: "Start." + "\n" * n + "End."),
    "txt RTL + combining marks": ("x.txt", lambda n: "\u05e9\u05dc\u05d5\u05dd\u0301\u200f " * (n // 7)),
    "txt NUL bytes": ("x.txt", lambda n: "hello\x00 " * (n // 7)),
}
SHAPE_CHILD = """
import sys, time, tempfile; sys.path[:0] = [{root!r}, {tests!r}]
from vgrag.ingest import plan_chunks
from vgrag.documents.inputs import InputError
plan_chunks("w.txt", b"Warm up. The model loads.")
name, data = {name!r}, open({path!r}, "rb").read()
t0 = time.perf_counter()
try:
    out = f"{{len(plan_chunks(name, data))}} chunks"
except InputError as e:
    out = str(e)[:90]
read_s = time.perf_counter() - t0
ingest_s = None
if {ingest!r}:
    from fakes import HashEmbedder
    from vgrag.extraction.extract import OfflineExtractor
    from vgrag.ingest import ingest_documents
    from vgrag.storage.database import Database
    emb = HashEmbedder()
    g = Database(tempfile.mkdtemp() + "/s.db").open_graph("s", emb.model_id, emb.dim)
    t0 = time.perf_counter()
    ingest_documents(g, emb, OfflineExtractor(), [(name, data)])
    ingest_s = time.perf_counter() - t0
print(repr((read_s, ingest_s, out)))
"""


def shapes(a: argparse.Namespace) -> dict:
    """Each shape at --kb: seconds to read and chunk it (plan_chunks, spaCy loaded first), and with --ingest a whole
    ingest (offline extractor, hash embedder, a Lite file); stopped at --timeout. --root: another checkout (before)."""
    out = {}
    for shape, (name, make) in SHAPES.items():
        path = Path(f"/tmp/vgrag-shape{Path(name).suffix}")
        path.write_bytes(make(a.kb * 1024).encode("utf-8"))
        code = SHAPE_CHILD.format(root=a.root, tests=str(ROOT / "tests"), name=name, path=str(path), ingest=a.ingest)
        try:
            r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=a.timeout)
            read_s, ingest_s, what = ast.literal_eval(r.stdout.strip().splitlines()[-1])
            out[shape] = {"read_s": round(read_s, 2), "ingest_s": ingest_s and round(ingest_s, 2), "result": what}
        except subprocess.TimeoutExpired:
            out[shape] = {"read_s": f"> {a.timeout} s (stopped)"}
        print(shape, out[shape], file=sys.stderr)
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
    s = sub.add_parser("shapes")
    s.add_argument("--kb", type=int, default=300)
    s.add_argument("--ingest", action="store_true")
    s.add_argument("--timeout", type=float, default=120)
    s.add_argument("--root", default=str(ROOT))
    a = p.parse_args()
    print(json.dumps({"bomb": bomb, "drip": drip, "shapes": shapes}[a.cmd](a), indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()

"""How long a query takes to fall back offline when the LLM endpoint is dead (closed port, unknown host).

python scripts/llm_failfast.py            # prints one line per case: wall time, attempts, what the trace says
"""

from __future__ import annotations

import socket
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vgrag.config import LLMSettings, Settings  # noqa: E402
from vgrag.documents.triple_files import read_jsonl  # noqa: E402
from vgrag.embed import MiniLMEmbedder  # noqa: E402
from vgrag.ingest import ingest_imported  # noqa: E402
from vgrag.llm import make_llm  # noqa: E402
from vgrag.query.pipeline import run_query  # noqa: E402
from vgrag.text import content_hash  # noqa: E402
from vgrag.workspace import Workspace  # noqa: E402


def main() -> None:
    import tempfile

    demo = Path(__file__).resolve().parent.parent / "data" / "demo" / "northwind.jsonl"
    with tempfile.TemporaryDirectory() as tmp:
        ws = Workspace.open(replace(Settings(), milvus_uri=str(Path(tmp) / "f.db")), MiniLMEmbedder())
        g = ws.graph("demo")
        data = demo.read_bytes()
        ingest_imported(g, ws.embedder, demo.name, content_hash(data), read_jsonl(data, demo.name))
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        q = "Who is the escalation contact for the service that Beacon depends on?"
        for label, url in (
            ("closed local port", f"http://127.0.0.1:{port}/v1"),
            ("unknown host", "http://no-such-host.invalid/v1"),
        ):
            llm = make_llm(LLMSettings(base_url=url, api_key="x"))
            t0 = time.perf_counter()
            tr = run_query(q, g, ws.embedder, llm=llm, on_delta=lambda p: None)
            wall = time.perf_counter() - t0
            print(
                f"{label}: query answered offline in {wall:.2f} s; rerank: {tr.rerank.error}; "
                f"attempts: {list(tr.rerank.llm.attempts)}; answer: {tr.answer.method} ({tr.answer.error})"
            )
        ws.db.close()


if __name__ == "__main__":
    main()

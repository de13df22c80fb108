"""Helpers shared by tests and scripts: a process holding a Lite file open, and the real app on a free port."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def database_held_open(path: Path) -> Iterator[None]:
    """Another process keeps the Milvus Lite file at `path` open (and so locked) inside the block."""
    code = (
        f"import sys, time; sys.path.insert(0, {str(ROOT)!r})\nfrom vgrag.storage.database import Database\n"
        f"Database({str(path)!r}); print('open', flush=True); time.sleep(300)"
    )
    holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        yield
    finally:
        holder.kill()
        holder.wait()


@contextlib.contextmanager
def lite_server(data_dir: Path) -> Iterator[str]:
    """`milvus-lite server` on a free loopback port (the README's way to share a Lite file between programs);
    yields its URI."""
    import shutil
    import socket as _socket

    port = free_port()
    # the console script of the Python running the tests (a venv's bin/ need not be on PATH)
    exe = shutil.which("milvus-lite", path=str(Path(sys.executable).parent)) or shutil.which("milvus-lite")
    assert exe, "milvus-lite's console script is missing: pip install -r requirements.txt"
    proc = subprocess.Popen(
        [exe, "server", "--data-dir", str(data_dir), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            with _socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.2)
        else:
            raise RuntimeError("milvus-lite server did not start")
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def linked_triples_file(path: Path, prefix: str, n: int, shared: int = 7, per: int = 1) -> Path:
    """A JSONL triple file whose passages all link to a few shared entities (so two writers merge the same rows)."""
    import json

    lines = []
    for i in range(n):
        triples = [[f"{prefix} Person {i}", "works with", f"Shared Person {i % shared}"]]
        triples += [["Hub Company", f"{prefix} deal {i}-{j}", f"{prefix} Partner {i}-{j}"] for j in range(per - 1)]
        text = f"{prefix} Person {i} works with Shared Person {i % shared} at Hub Company."
        lines.append(json.dumps({"title": f"{prefix} {i}", "passage": text, "triples": triples}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_app(env: dict, script: str = "app.py", log: Path | None = None) -> Iterator[str]:
    """`streamlit run app.py` (or another script) on 127.0.0.1 with `env`; yields its URL once healthy. With `log`,
    the app's output (Streamlit's own warnings among it) goes to that file."""
    port = free_port()
    out = subprocess.DEVNULL if log is None else log.open("wb")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            script,
            "--server.headless",
            "true",
            "--server.address",
            "127.0.0.1",
            "--server.port",
            str(port),
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=ROOT,
        env=env,
        stdout=out,
        stderr=out if log is None else subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(240):
            try:
                if urllib.request.urlopen(url + "/_stcore/health", timeout=1).read() == b"ok":
                    break
            except OSError:
                time.sleep(0.5)
        else:
            raise RuntimeError("streamlit did not become healthy")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        if log is not None:
            out.close()


def server_view(g):
    """The same graph's collections through a `MilvusStore`: searched and read by Milvus itself, as on a server."""
    from vgrag.storage.server import MilvusStore
    from vgrag.storage.store import Graph

    return Graph(g.client, MilvusStore(g.tables), g.tables, g.documents, g.lock, g.ingest_lock)

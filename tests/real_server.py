"""A real Milvus standalone server for tests/test_server.py: started with the Python in VGRAG_MILVUS_SERVER_PYTHON
(`milvus==2.3.5`, .ci/run installs it) running .ci/milvus_server.py, on its fixed PORTS, stopped with its whole
process group."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SERVER_PYTHON = os.environ.get("VGRAG_MILVUS_SERVER_PYTHON", "")
PORTS = (19530, 2379, 2380, 9091)  # the server's gRPC, its embedded etcd's client and peer, and its metrics ports


def ports_closed(timeout: float = 30.0) -> None:
    """Wait until no server listens on PORTS (a killed server can outlive its launcher; a new one would panic)."""
    deadline = time.monotonic() + timeout
    while any(listening(p) for p in PORTS) and time.monotonic() < deadline:
        time.sleep(0.2)


def listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def start(data: Path) -> tuple[subprocess.Popen, str]:
    ports_closed()
    proc = subprocess.Popen(
        [SERVER_PYTHON, str(ROOT / ".ci" / "milvus_server.py"), str(data)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: killed whole at the end (SIGTERM does not stop it)
    )
    line = proc.stdout.readline() if proc.stdout else ""
    if not line.startswith("ready "):
        stop(proc)
        pytest.fail(f"the Milvus server did not start (see {data}/logs): {line!r}")
    return proc, f"http://127.0.0.1:{line.split()[1]}"


def stop(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait(timeout=30)
    ports_closed()


class SharedServer:
    """The module's one real server, started when a test first needs it (~5 s on a quiet machine, 20-30 s loaded:
    it was started for each test) and stopped when the module ends, or before a test that starts its own (every
    server takes the same PORTS)."""

    def __init__(self, root: Path) -> None:
        self.root, self.proc, self.uri, self.starts = root, None, "", 0

    def up(self) -> str:
        if self.proc is None:
            self.starts += 1
            self.proc, self.uri = start(self.root / f"data-{self.starts}")  # a new data dir for each start
        return self.uri

    def down(self) -> None:
        if self.proc is not None:
            proc, self.proc = self.proc, None
            stop(proc)

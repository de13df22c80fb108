"""Run the real command line (`python -m vgrag ...`) and kill -9 it at a known point of a write.

    python tests/crash_at.py POINT N -- ARGS...

POINT is "embed" (inside the embedder's Nth call, before it returns: the batch's vectors are lost) or a row kind
("passages", "relations", "entities": right after the Nth write of that kind, before the next write of the
batch). Nothing else changes: the ingest, the embedder and the store are the real ones; only the process dies
there, as with a kill -9 at that instant. Exits 3 if the point was never reached (the test then fails)."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _die_on(owner: type, method: str, point: str, n: int, before: bool) -> None:
    real = getattr(owner, method)
    calls = [0]

    def wrapped(self, *args, **kwargs):
        kind = "embed" if method == "embed" else args[0]
        if kind == point:
            calls[0] += 1
        if before and kind == point and calls[0] == n:
            os.kill(os.getpid(), signal.SIGKILL)  # inside the embedding: its work is lost
        out = real(self, *args, **kwargs)
        if not before and kind == point and calls[0] == n:
            os.kill(os.getpid(), signal.SIGKILL)  # this write done, the batch's next write never starts
        return out

    setattr(owner, method, wrapped)


def main() -> int:
    point, n, sep, *args = sys.argv[1:]
    assert sep == "--", "usage: crash_at.py POINT N -- ARGS..."
    if point == "embed":
        from vgrag.embed import MiniLMEmbedder

        _die_on(MiniLMEmbedder, "embed", point, int(n), before=True)
    else:
        from vgrag.storage.store import Graph

        _die_on(Graph, "write", point, int(n), before=False)
    from vgrag.cli import main as cli

    cli(args)
    return 3


if __name__ == "__main__":
    sys.exit(main())

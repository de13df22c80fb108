"""One writer per graph across processes and machines sharing a Milvus server: a lease in `vgrag_meta`.

Milvus has no compare-and-set, so two programs that merged id lists in memory and wrote them back lost each other's
links (two CLI ingests through one server: 606 of 1,291 relations unreachable). The lease serialises writers with
Lamport's bakery algorithm, which needs only that each writer writes its own record and reads everyone's: a writer
takes a number one above every number it sees, then waits while any other writer is still choosing or holds a
smaller (number, id). Records carry an expiry that the holder renews; a writer that died is passed over once its
record has expired. Reads go to Milvus with Strong consistency (connection.py, right after our own writes).
A Lite file needs none of this: one process opens it, and threads use the graph's locks.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator

from .connection import StoreError
from .meta import MetaStore
from .schema import ID, PAYLOAD

log = logging.getLogger(__name__)

TTL_S = 60.0  # a record not renewed for this long belongs to a writer that died
WAIT_S = 3600.0  # how long a writer waits for the one before it (an ingest of a large file takes minutes)
POLL_S = 0.25


class LeaseTimeout(StoreError):
    """Another program kept the graph for longer than we could wait."""


class Lease:
    """The right to write graph `graph` (use as a context manager, or `hold`)."""

    def __init__(
        self,
        meta: MetaStore,
        graph: str,
        wait_s: float = WAIT_S,
        on_wait: Callable[[str], None] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.meta, self.graph, self.wait_s, self.on_wait, self.clock = meta, graph, wait_s, on_wait, clock
        self.me = uuid.uuid4().hex
        self.holder = f"{socket.gethostname()} pid {os.getpid()}"
        self.number = 0
        self._choosing = True
        self._put_lock = threading.Lock()
        self._stop = threading.Event()
        self._beat: threading.Thread | None = None

    def _key(self, who: str) -> str:
        return f"lease:{self.graph}:{who}"

    def _put(self, choosing: bool) -> None:
        with self._put_lock:  # the renewing thread writes the same record
            self._choosing = choosing
            payload = {"number": self.number, "choosing": choosing, "holder": self.holder,
                       "expires": self.clock() + TTL_S}  # fmt: skip
            self.meta.put(self._key(self.me), "lease", self.graph, payload)

    def _others(self) -> list[tuple[str, dict]]:
        """The other writers' live records; expired ones (their writer died) are deleted."""
        now, live, dead = self.clock(), [], []
        for row in self.meta.rows("lease", self.graph, strong=True):
            who = str(row[ID]).rsplit(":", 1)[-1]
            if who == self.me:
                continue
            p = row[PAYLOAD] or {}
            (dead if float(p.get("expires", 0)) < now else live).append((who, p))
        if dead:
            self.meta.delete([self._key(who) for who, _ in dead])
        return live

    def _before_me(self, who: str, p: dict) -> bool:
        """Whether writer `who` goes first: it is still choosing its number, or holds a smaller (number, id)."""
        number = int(p.get("number", 0))
        return bool(p.get("choosing")) or (number > 0 and (number, who) < (self.number, self.me))

    def acquire(self) -> None:
        self._put(choosing=True)
        self._beat = threading.Thread(target=self._renew, name=f"lease-{self.graph}", daemon=True)
        self._beat.start()  # renewed while waiting too: a waiting writer is not a dead one
        self.number = 1 + max((int(p.get("number", 0)) for _, p in self._others()), default=0)
        self._put(choosing=False)
        deadline, told = time.monotonic() + self.wait_s, False
        while True:
            ahead = [(who, p) for who, p in self._others() if self._before_me(who, p)]
            if not ahead:
                break
            if time.monotonic() > deadline:
                self.release()
                raise LeaseTimeout(
                    f"Graph {self.graph!r} is being written by another program ({ahead[0][1].get('holder', '?')}); "
                    "nothing was changed. Try again when it has finished."
                )
            if not told:
                msg = f"waiting for another program writing graph {self.graph!r} ({ahead[0][1].get('holder', '?')})"
                log.info(msg)
                if self.on_wait is not None:
                    self.on_wait(msg)
                told = True
            time.sleep(POLL_S)

    def _renew(self) -> None:
        while not self._stop.wait(TTL_S / 4):
            try:
                self._put(choosing=self._choosing)
            except StoreError as e:  # the server is gone: the writer's own calls fail and say so
                log.warning("could not renew the lease on %s: %s", self.graph, e)

    def release(self) -> None:
        self._stop.set()
        if self._beat is not None:
            self._beat.join()
        with contextlib.suppress(StoreError):
            self.meta.delete([self._key(self.me)])

    @contextlib.contextmanager
    def hold(self) -> Iterator[None]:
        self.acquire()
        try:
            yield
        finally:
            self.release()

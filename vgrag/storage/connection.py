"""The one way to Milvus: a Lite file or a server, every call bounded in time, every failure one clear message.

`Connection` wraps pymilvus's `MilvusClient`. On a server it gives every call a deadline (a killed or frozen server
becomes a `ServerUnavailableError` naming the server within seconds, not a 70 s hang or a raw traceback), reads
that follow this process's writes use Session consistency (collections default to Bounded: a read right after an
insert or delete was stale 20 times in 20 on Milvus 2.3.5; Session sees this process's inserts and upserts, 0 stale
in 40, and costs ~0.2 s only on the first read after a write, where Strong cost ~0.2 s on every read; after a
delete, whose reply does not carry its timestamp to pymilvus, Strong), and `flush` is left
to the server (each one took ~2.2 s, and newer servers throttle them). The server's version is checked when it is
opened. On a Lite file the calls are direct; a read-only or full disk is reported as such, and a collection that will
not load because a kill tore one of Lite's index files is loaded again once that file is set aside (lite_files.py).
"""

from __future__ import annotations

import errno
import re
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from pymilvus import MilvusClient
from pymilvus.exceptions import MilvusException

from .lite_files import move_torn_index_files

MIN_SERVER = (2, 3, 0)  # ARRAY columns and upsert
BM25_SERVER = (2, 5, 0)  # full-text (BM25) functions and sparse vectors: the word index
CALL_TIMEOUT_S = 8.0  # a server call; loading, indexing and creating collections get SLOW_TIMEOUT_S
SLOW_TIMEOUT_S = 120.0
FRESH_S = 10.0  # reads this soon after a write use Strong consistency (a server's Bounded lag is 5 s by default)

_LOCAL = {"close", "create_schema", "prepare_index_params", "get_server_type"}  # no round trip, no timeout
_SLOW = {"create_collection", "create_index", "load_collection", "release_collection", "drop_collection"}
_READS = {"get", "query", "search", "hybrid_search"}
_WRITES = {"insert", "upsert", "delete", "drop_collection", "create_collection"}


class StoreError(RuntimeError):
    """A storage problem with a message that says what to do."""


class DatabaseLockedError(StoreError):
    pass


class ServerUnavailableError(StoreError):
    """The Milvus server did not answer (stopped, unreachable or frozen)."""


class UnsupportedServerError(StoreError):
    """The Milvus server is too old for what was asked."""


# pymilvus pings every 10 s even when idle; the in-process Milvus Lite server allows one ping per 5 minutes and
# answers more with GOAWAY "too_many_pings" (logged to the terminal after ~2 idle minutes, measured). A local
# server needs no keepalive: ping rarely, and never without calls in flight.
LITE_GRPC_OPTIONS = {"grpc.keepalive_time_ms": 600_000, "grpc.keepalive_permit_without_calls": False}


def is_lite(uri: str) -> bool:
    return not uri.startswith(("http://", "https://", "tcp://", "unix:"))


def parse_version(text: str) -> tuple[int, int, int] | None:
    """(major, minor, patch) from a server's version string ("v2.3.5-lite", "2.5.10"); None when unreadable."""
    m = re.search(r"(\d+)\.(\d+)\.(\d+)", text or "")
    return (int(m[1]), int(m[2]), int(m[3])) if m else None


def _fmt(v: tuple[int, ...]) -> str:
    return ".".join(map(str, v))


def _disk_problem(e: BaseException) -> str | None:
    """'read-only' or 'full' when the error (or its cause) says the disk refused a write."""
    seen: set[int] = set()
    while e is not None and id(e) not in seen:  # pymilvus raises `e from e`: a chain can loop
        seen.add(id(e))
        code = getattr(e, "errno", None)
        text = str(e).lower()
        if code == errno.EROFS or "read-only file system" in text:
            return "read-only"
        if code == errno.ENOSPC or "no space left" in text:
            return "full"
        e = e.__cause__ or e.__context__  # type: ignore[assignment]
    return None


class Connection:
    """A `MilvusClient` with deadlines, fresh reads after writes, and errors that say what to do."""

    def __init__(self, raw: MilvusClient, uri: str, server: bool) -> None:
        self.raw, self.uri, self.server = raw, uri, server
        self.version: tuple[int, int, int] | None = None
        self._last_write: dict[str, float] = {}  # collection -> when this process last wrote to it
        # collection -> when this process last deleted from it, until a Strong read of it begun after that delete has
        # returned (from then on the server's view includes the delete, and Session reads see it too)
        self._unseen_delete: dict[str, float] = {}
        self._delete_lock = threading.Lock()
        # Milvus Lite numbers each write and each flush in one sequence: two threads flushing (or writing while
        # another flushes) at once fail with "current_seq is monotonic" (measured: 1 run in 6 of three leasing
        # threads). One lock per Lite file's connection orders them; a write or flush there takes milliseconds.
        self._lite_write_lock = threading.RLock()

    @property
    def has_bm25(self) -> bool:
        """Whether the engine runs full-text (BM25) functions: Milvus Lite and servers from 2.5 on."""
        return not self.server or (self.version is not None and self.version >= BM25_SERVER)

    def check_version(self) -> None:
        """Refuse a server older than `MIN_SERVER` with a message naming both versions."""
        self.version = parse_version(str(self.call("get_server_version")))
        if self.version is not None and self.version < MIN_SERVER:
            raise UnsupportedServerError(
                f"The Milvus server at {self.uri} is version {_fmt(self.version)}; vgrag needs Milvus "
                f"{_fmt(MIN_SERVER)} or newer ({_fmt(BM25_SERVER)}+ for the word index). Upgrade the server, or "
                "use a Milvus Lite file (VGRAG_MILVUS_URI=data/vgrag.db)."
            )

    def flush(self, collection: str) -> None:
        """Seal what was written. A Lite file: keeps its replay log short (20-30 ms). A server keeps its own log
        durable and seals segments itself; a flush there costs seconds and newer servers throttle them."""
        if not self.server:
            self.call("flush", collection)

    def __getattr__(self, name: str) -> Callable[..., object]:
        if name.startswith("_"):
            raise AttributeError(name)
        return lambda *args, **kwargs: self.call(name, *args, **kwargs)

    def call(self, name: str, *args: object, **kwargs: object) -> object:
        method = getattr(self.raw, name)
        coll, deleted = "", None
        if self.server and name not in _LOCAL:
            kwargs.setdefault("timeout", SLOW_TIMEOUT_S if name in _SLOW else CALL_TIMEOUT_S)
            coll = _collection(args, kwargs)
            started = time.monotonic()
            deleted = self._unseen_delete.get(coll) if name in _READS else None
            if name in _READS and started - self._last_write.get(coll, float("-inf")) < FRESH_S:
                # our own writes seen: Session (pymilvus sends our last write's timestamp) costs ~0.2 s only on the
                # first read after a write, Strong ~0.2 s on every read; but a delete's reply on Milvus 2.3.5 does
                # not advance that timestamp (a read right after it was stale 2 times in 10), so the first read after
                # a delete is Strong: once it returns, the server has applied the delete
                kwargs.setdefault("consistency_level", "Strong" if deleted is not None else "Session")
        try:
            if not self.server and (name in _WRITES or name == "flush"):
                with self._lite_write_lock:
                    out = method(*args, **kwargs)
            else:
                out = method(*args, **kwargs)
        except StoreError:
            raise
        except Exception as e:  # noqa: BLE001 - gRPC, pymilvus and OS errors: each becomes one readable message
            if name == "load_collection" and not self.server:
                return self._load_repaired(e, args, kwargs)
            raise self.error(name, e, kwargs.get("timeout")) from e
        if name in _WRITES:
            self._last_write[_collection(args, kwargs)] = time.monotonic()
            if name == "delete":
                with self._delete_lock:
                    self._unseen_delete[_collection(args, kwargs)] = time.monotonic()
        elif self.server and deleted is not None and kwargs.get("consistency_level") == "Strong":
            with self._delete_lock:  # a Strong read begun after the delete has returned: the delete is applied
                if self._unseen_delete.get(coll) == deleted:
                    del self._unseen_delete[coll]
        return out

    def _load_repaired(self, e: Exception, args: tuple, kwargs: dict) -> object:
        """A Lite collection that would not load: its index files that cannot be read (a process killed while Lite
        wrote one) moved aside and the load tried again — Lite rebuilds them from the data (lite_files.py)."""
        coll = _collection(args, kwargs)
        try:
            moved = move_torn_index_files(self.uri, coll)
        except OSError as oe:
            raise StoreError(
                f"Milvus Lite ({self.uri}) could not load collection {coll!r} ({_short(e)}), and its torn index file "
                f"could not be moved aside ({oe}). Copy the database folder to a writable disk and open the copy."
            ) from e
        if moved:
            return self.call("load_collection", *args, **kwargs)
        raise self.error("load_collection", e) from e  # its index files read whole: the cause is elsewhere

    def error(self, op: str, e: BaseException, timeout: object = None) -> StoreError:
        text = str(e)
        disk = _disk_problem(e)
        if disk == "read-only":
            return StoreError(
                f"The database {self.uri} is on a read-only file system: it can be read but not changed. "
                "Copy it to a writable folder (or remount it read-write) to add or delete documents."
            )
        if disk == "full":
            return StoreError(
                f"The disk holding {self.uri} is full; the last change was not stored. Free some space and run it "
                "again (an interrupted document is completed by adding it again)."
            )
        if self.server:
            low = text.lower()
            if "deadline" in low or "retry timeout" in low or "timed out" in low:
                return ServerUnavailableError(
                    f"The Milvus server at {self.uri} did not answer {op} within {timeout} s (frozen or overloaded). "
                    "Check that it is running and healthy (its /healthz), then try again."
                )
            if "unavailable" in low or "fail connecting" in low or "connection refused" in low or "connect" in low:
                return ServerUnavailableError(
                    f"The Milvus server at {self.uri} cannot be reached ({op}): is it running? Start it, or set "
                    "VGRAG_MILVUS_URI to a reachable server or to a Milvus Lite file, then try again."
                )
            return StoreError(f"The Milvus server at {self.uri} refused {op}: {_short(e)}")
        return StoreError(f"Milvus Lite ({self.uri}) failed in {op}: {_short(e)}")


def _collection(args: tuple, kwargs: dict) -> str:
    """The collection a MilvusClient call names (its first argument)."""
    name = kwargs.get("collection_name", args[0] if args else "")
    return name if isinstance(name, str) else ""


def _short(e: BaseException) -> str:
    if isinstance(e, MilvusException):
        return f"{e.message} (code {e.code})"
    return str(e).strip().splitlines()[0][:300] if str(e).strip() else type(e).__name__


def _probe_write(uri: str) -> OSError | None:
    """The error a write beside a Lite file meets (read-only or full disk), or None: Lite reports such a failure
    to open only as 'Open local milvus failed', the message of a file locked by another process."""
    folder = Path(uri) if Path(uri).is_dir() else Path(uri).parent
    try:
        with tempfile.TemporaryFile(dir=folder):
            return None
    except OSError as e:
        return e if _disk_problem(e) else None


def connect(uri: str, token: str = "") -> Connection:
    """Open a Milvus Lite file or a Milvus server, translating the common failures into clear errors."""
    server = not is_lite(uri)
    kwargs: dict = {"uri": uri}
    if token:
        kwargs["token"] = token
    if server:
        kwargs["timeout"] = CALL_TIMEOUT_S
    else:
        kwargs["grpc_options"] = LITE_GRPC_OPTIONS
    try:
        raw = MilvusClient(**kwargs)
    except MilvusException as e:
        disk = None if server else _probe_write(uri)
        if disk is not None:
            raise Connection(None, uri, server).error("open", disk) from e  # type: ignore[arg-type]
        if not server and ("Open local milvus failed" in str(e) or "lock" in str(e).lower()):
            raise DatabaseLockedError(
                f"The database {uri} is already open in another process (a Milvus Lite file allows one). "
                "Close the other program, or share it through a server: "
                f"`milvus-lite server --data-dir {uri} --host 127.0.0.1 --port 19530` and set "
                "VGRAG_MILVUS_URI=http://127.0.0.1:19530 for every program."
            ) from e
        raise Connection(None, uri, server).error("connect", e, CALL_TIMEOUT_S) from e  # type: ignore[arg-type]
    except Exception as e:  # noqa: BLE001 - connection errors come in many types; report them plainly
        raise Connection(None, uri, server).error("connect", e, CALL_TIMEOUT_S) from e  # type: ignore[arg-type]
    conn = Connection(raw, uri, server)
    if server:
        conn.check_version()
    return conn

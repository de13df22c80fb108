"""A Milvus database (Lite file or server): connection, clear errors, the registry of named graphs and their
documents (the `vgrag_meta` collection, meta.py), and one write lock per database."""

from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from .connection import (  # noqa: F401 - the storage errors, importable from here as before
    Connection,
    DatabaseLockedError,
    ServerUnavailableError,
    StoreError,
    connect,
    is_lite,
)
from .meta import DocumentLog, MetaStore
from .mirror import Mirrors
from .schema import GRAPH_NAME
from .schema import META as META_COLLECTION
from .store import Graph, Index, load_collections

# Per Lite file (one process may hold several Database objects on it): [open count, its vector copies]
_MIRRORS: dict[str, list] = {}
_MIRRORS_LOCK = threading.Lock()


_log = logging.getLogger(__name__)


def quiet_storage_logs() -> None:
    """Keep Milvus's loggers to critical messages: Lite logs, with tracebacks, what we report in one readable line
    ourselves (a locked file) and what is harmless (probes of RPCs it lacks). Called by the CLI, the app and tests."""
    for name in ("pymilvus", "grpc._server", "milvus_lite"):
        logging.getLogger(name).setLevel(logging.CRITICAL)


class EmbedderMismatchError(StoreError):
    pass


@dataclass(frozen=True)
class GraphInfo:
    name: str
    embedder: str
    dim: int
    created_at: float


class Database:
    """One Milvus database (Lite file or server) holding any number of named graphs."""

    def __init__(self, uri: str, token: str = "", client: Connection | None = None) -> None:
        self.uri = uri
        self.client = client or connect(uri, token)
        self.write_lock = threading.RLock()
        self.index = Index("FLAT") if is_lite(uri) else Index("HNSW")
        self.mirrors: Mirrors | None = None
        if is_lite(uri):  # exact search in process (mirror.py); a server searches with its own index
            self._mirror_key = path = os.path.realpath(uri)
            folder = Path(path) / "vgrag-vectors" if os.path.isdir(path) else Path(path + ".vgrag-vectors")
            with _MIRRORS_LOCK:
                entry = _MIRRORS.setdefault(path, [0, Mirrors(folder)])
                entry[0] += 1
                self.mirrors = entry[1]
        self.meta = MetaStore(self.client)
        self.meta.ensure()
        load_collections(self.client, [META_COLLECTION])

    def list_graphs(self) -> list[GraphInfo]:
        """The graphs of this database. A record no graph can have made (a name outside schema.GRAPH_NAME, whose
        collections could not exist, or a malformed payload; another tool may share a server) is skipped and logged,
        never shown as a graph."""
        out = []
        for r in self.meta.rows("graph"):
            try:
                name, payload = r["graph"], r["payload"]
                if not isinstance(name, str) or not GRAPH_NAME.fullmatch(name):
                    raise ValueError("not a graph name")
                info = GraphInfo(name, str(payload["embedder"]), int(payload["dim"]), float(payload["created_at"]))
            except (KeyError, TypeError, ValueError) as e:
                _log.warning("skipped a graph record that no graph can have made (%s): %r", e, r.get("graph"))
                continue
            out.append(info)
        return sorted(out, key=lambda g: g.name)

    def graph_info(self, name: str) -> GraphInfo | None:
        return next((g for g in self.list_graphs() if g.name == name), None)

    def _graph(self, name: str, dim: int) -> Graph:
        return Graph(self.client, name, dim, self.write_lock, DocumentLog(self.meta, name), self.index, self.mirrors)

    def open_graph(self, name: str, embedder_id: str, dim: int, create: bool = True) -> Graph:
        """Open (or create) a graph; refuses an embedder other than the one the graph was built with."""
        try:
            g = self._graph(name, dim)
        except ValueError as e:
            raise StoreError(str(e)) from e
        info = self.graph_info(name)
        if info is None:
            if not create:
                raise StoreError(f"No graph named {name!r} in {self.uri}.")
            with self.write_lock:
                try:
                    g.create_collections()
                    self.meta.put(
                        f"graph:{name}", "graph", name, {"embedder": embedder_id, "dim": dim, "created_at": time.time()}
                    )
                except Exception:  # never a half-made graph that every later command trips on
                    self._drop_collections(g)
                    raise
            return g
        if info.embedder != embedder_id or info.dim != dim:
            raise EmbedderMismatchError(
                f"Graph {name!r} was built with embedder {info.embedder} ({info.dim}-d) but {embedder_id} "
                f"({dim}-d) is configured. Switch the embedding backend back, or build a new graph."
            )
        with self.write_lock:
            new_lexical = g.create_collections()  # recreates any collection lost to an interrupted create
            if new_lexical:
                g.backfill_lexical()
        return g

    def drop_graph(self, name: str) -> bool:
        """Drop a graph: its collections, their in-process copies and its records; False when there was none."""
        try:
            g = self._graph(name, 1)
        except ValueError as e:
            raise StoreError(str(e)) from e
        with self.write_lock:
            if self.graph_info(name) is None and not any(self.client.has_collection(c) for c in g.all_collection_names):
                return False
            self._drop_collections(g)
            self.meta.delete(self.meta.keys_of_graph(name))
            return True

    def _drop_collections(self, g: Graph) -> None:
        for coll in g.all_collection_names:
            if self.client.has_collection(coll):
                self.client.drop_collection(coll)
            if self.mirrors is not None:
                self.mirrors.forget(coll)

    def close(self) -> None:
        if self.mirrors is not None:
            with _MIRRORS_LOCK:
                entry = _MIRRORS.get(self._mirror_key)
                if entry is not None:
                    entry[0] -= 1
                    if entry[0] <= 0:
                        del _MIRRORS[self._mirror_key]
            self.mirrors = None
        self.client.close()

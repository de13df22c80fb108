"""A Milvus database (Lite file or server): connection, clear errors, the registry of named graphs and their
documents (the `vgrag_meta` collection, meta.py), and one write lock per database."""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Iterator
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
from .lease import Lease
from .local import LocalStore
from .meta import DocumentLog, MetaStore
from .schema import GRAPH_NAME, check_graph_name
from .schema import META as META_COLLECTION
from .server import MilvusStore
from .store import Graph
from .writer import finish_deletes
from .tables import Index, Tables, load_collections

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
        self.lite = is_lite(uri)
        self.index = Index("FLAT") if self.lite else Index("HNSW")
        self.vectors_dir: Path | None = None
        if self.lite:  # exact search in process (local.py); a server searches with its own index
            path = os.path.realpath(uri)
            self.vectors_dir = Path(path) / "vgrag-vectors" if os.path.isdir(path) else Path(path + ".vgrag-vectors")
        self._graphs: dict[str, Graph] = {}  # one Graph (store, locks, side indexes) per name, made once
        self._graphs_lock = threading.Lock()
        self.meta = MetaStore(self.client)
        self.meta.ensure()
        load_collections(self.client, [META_COLLECTION])

    def list_graphs(self) -> list[GraphInfo]:
        """The graphs of this database. A record no graph can have made (a name outside schema.GRAPH_NAME, whose
        collections could not exist, or a malformed payload; another tool may share a server) is skipped and logged,
        never shown as a graph."""
        out = []
        for r in self.meta.rows("graph"):
            if isinstance(r.get("payload"), dict) and r["payload"].get("dropping"):
                self._finish_drop(str(r["graph"]))  # a drop cut short: finished, never listed
                continue
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
        """The graph's one `Graph` in this database object: its store (LocalStore for a Lite file, MilvusStore for a
        server), its locks and side indexes."""
        check_graph_name(name)
        with self._graphs_lock:
            g = self._graphs.get(name)
            if g is None or g.dim != dim:
                tables = Tables(self.client, name, dim, self.index)
                store = (
                    LocalStore(tables, self.meta, self.vectors_dir) if self.vectors_dir is not None
                    else MilvusStore(tables)
                )  # fmt: skip
                lock = g.lock if g is not None else threading.RLock()
                ingest = g.ingest_lock if g is not None else threading.RLock()
                g = Graph(self.client, store, tables, DocumentLog(self.meta, name), lock, ingest)
                self._graphs[name] = g
            return g

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
            with self.writer(g):  # two programs creating one graph on a server: the second waits, then opens it
                info = self.graph_info(name)
                if info is None:
                    self._create_graph(g, embedder_id, dim)
                    return g
        if info.embedder != embedder_id or info.dim != dim:
            raise EmbedderMismatchError(
                f"Graph {name!r} was built with embedder {info.embedder} ({info.dim}-d) but {embedder_id} "
                f"({dim}-d) is configured. Switch the embedding backend back, or build a new graph."
            )
        with g.lock:
            new_lexical = g.create_collections()  # recreates any collection lost to an interrupted create
            if new_lexical:
                g.backfill_lexical()
        if any(d.deleting for d in g.documents.all()):  # a document delete cut short: finished now
            with self.writer(g):
                finish_deletes(g)
        return g

    def _create_graph(self, g: Graph, embedder_id: str, dim: int) -> None:
        with g.lock:
            try:
                g.create_collections()
                payload = {"embedder": embedder_id, "dim": dim, "created_at": time.time()}
                self.meta.put(f"graph:{g.name}", "graph", g.name, payload)
            except Exception:  # never a half-made graph that every later command trips on
                self._drop_collections(g)
                raise

    @contextlib.contextmanager
    def writer(self, graph: Graph) -> Iterator[None]:
        """The right to write `graph`: its ingest lock in this process, and on a server also the graph's lease
        (lease.py), so a writer in another process waits instead of losing our links or having us lose its."""
        with graph.ingest_lock:
            if self.lite:
                yield
            else:
                with Lease(self.meta, graph.name).hold():
                    yield

    def drop_graph(self, name: str) -> bool:
        """Drop a graph: its collections, their in-process copies and its records; False when there was none. The
        graph's record says "dropping" first, so a drop cut short is finished when the graph is next listed."""
        try:
            g = self._graphs.get(name) or self._graph(name, 1)  # the open one: its store stops its saver
        except ValueError as e:
            raise StoreError(str(e)) from e
        with g.lock:
            record = self.meta.get(f"graph:{name}")
            if record is None and not any(self.client.has_collection(c) for c in g.all_collection_names):
                return False
            self.meta.put(f"graph:{name}", "graph", name, {**(record or {}), "dropping": True})
            self._finish_drop(name)
            return True

    def _finish_drop(self, name: str) -> None:
        g = self._graphs.get(name) or self._graph(name, 1)  # the open one: its store stops its saver
        self._drop_collections(g)
        self.meta.delete(self.meta.keys_of_graph(name))

    def _drop_collections(self, g: Graph) -> None:
        for coll in g.all_collection_names:
            if self.client.has_collection(coll):
                self.client.drop_collection(coll)
        g.store.forget()
        with self._graphs_lock:
            self._graphs.pop(g.name, None)

    def close(self) -> None:
        with self._graphs_lock:
            graphs, self._graphs = list(self._graphs.values()), {}
        for g in graphs:
            g.store.close()
        self.client.close()

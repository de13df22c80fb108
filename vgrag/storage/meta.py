"""The database's own records, in the `vgrag_meta` collection: which graphs exist (and their embedder) and each
graph's source documents."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from collections.abc import Sequence

from pymilvus import DataType

from ..models import Document
from .connection import Connection
from .schema import GRAPH, ID, KIND, META, PAYLOAD, VEC


class MetaStore:
    """Small JSON records keyed by id, filtered by kind and graph (Milvus requires a vector: a constant one)."""

    def __init__(self, client: Connection) -> None:
        self.client = client

    def ensure(self) -> None:
        if self.client.has_collection(META):
            return
        s = self.client.create_schema(auto_id=False, enable_dynamic_field=False)
        s.add_field(ID, DataType.VARCHAR, is_primary=True, max_length=256)
        s.add_field(KIND, DataType.VARCHAR, max_length=16)
        s.add_field(GRAPH, DataType.VARCHAR, max_length=64)
        s.add_field(PAYLOAD, DataType.JSON)
        s.add_field(VEC, DataType.FLOAT_VECTOR, dim=2)
        ip = self.client.prepare_index_params()
        ip.add_index(VEC, index_type="FLAT", metric_type="COSINE")
        try:
            self.client.create_collection(META, schema=s)
        except Exception:  # noqa: BLE001 - another program opening the same new database made it first
            if not self.client.has_collection(META):
                raise
            self._await_loaded()
            return
        self.client.create_index(META, ip, sync=False)  # see Graph._create: no fixed 0.5 s wait
        self.client.load_collection(META)

    def _await_loaded(self, seconds: float = 30.0) -> None:
        """Load the collection another program is creating: it can be loaded once that program has indexed it
        (a load before then is refused: retried, up to `seconds`)."""
        deadline = time.monotonic() + seconds
        while True:
            try:
                self.client.load_collection(META)
                return
            except Exception:  # noqa: BLE001 - not indexed yet
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def rows(self, kind: str, graph: str | None = None, strong: bool = False) -> list[dict]:
        """The records of a kind (of one graph); `strong`: on a server, every acknowledged write seen."""
        flt = f"{KIND} == {json.dumps(kind)}" + (f" and {GRAPH} == {json.dumps(graph)}" if graph is not None else "")
        extra = {"consistency_level": "Strong"} if strong and self.client.server else {}
        return self.client.query(META, filter=flt, output_fields=[ID, KIND, GRAPH, PAYLOAD], limit=16384, **extra)

    def keys_of_graph(self, graph: str) -> list[str]:
        rows = self.client.query(META, filter=f"{GRAPH} == {json.dumps(graph)}", output_fields=[ID], limit=16384)
        return [r[ID] for r in rows]

    def get(self, key: str) -> dict | None:
        rows = self.client.get(META, ids=[key], output_fields=[PAYLOAD])
        return rows[0][PAYLOAD] if rows else None

    def put(self, key: str, kind: str, graph: str, payload: dict) -> None:
        self.client.upsert(META, [{ID: key, KIND: kind, GRAPH: graph, PAYLOAD: payload, VEC: [1.0, 0.0]}])
        self.client.flush(META)

    def delete(self, keys: Sequence[str]) -> None:
        if keys:
            self.client.delete(META, ids=list(keys))
            self.client.flush(META)


class DocumentLog:
    """One graph's source documents: name, content hash, passage count and whether the ingest completed."""

    def __init__(self, meta: MetaStore, graph: str) -> None:
        self.meta, self.graph = meta, graph

    def _key(self, doc_id: str) -> str:
        return f"doc:{self.graph}:{doc_id}"

    def put(self, d: Document) -> None:
        payload = {
            "id": d.id,
            "name": d.name,
            "hash": d.content_hash,
            "n": d.n_passages,
            "complete": d.complete,
            "added_at": d.added_at,
            "key": d.key,
            "deleting": d.deleting,
        }
        self.meta.put(self._key(d.id), "doc", self.graph, payload)

    def all(self) -> list[Document]:
        docs = [
            Document(
                id=p["id"],
                name=p["name"],
                content_hash=p["hash"],
                n_passages=int(p["n"]),
                complete=bool(p["complete"]),
                added_at=float(p["added_at"]),
                key=str(p.get("key", "")),
                deleting=bool(p.get("deleting", False)),
            )
            for p in (r[PAYLOAD] for r in self.meta.rows("doc", self.graph))
        ]
        return sorted(docs, key=lambda d: d.added_at)

    def get(self, doc_id: str) -> Document | None:
        return next((d for d in self.all() if d.id == doc_id), None)

    def mark_deleting(self, doc_id: str) -> None:
        """Record that a delete of this document started: incomplete, and finished on the next open."""
        d = self.get(doc_id)
        if d is not None and not d.deleting:
            self.put(replace(d, complete=False, deleting=True))

    def attach(self, doc_id: str, kind: str, payload: dict) -> None:
        """A record that belongs to one document (e.g. the spellings merged while ingesting it): deleted with it."""
        self.meta.put(f"{kind}:{self.graph}:{doc_id}", kind, self.graph, payload)

    def attached(self, kind: str) -> list[dict]:
        """The payloads of this graph's per-document records of one kind."""
        return [r[PAYLOAD] for r in self.meta.rows(kind, self.graph)]

    def forget(self, doc_id: str) -> None:
        """Delete a document's record and every record attached to it."""
        mine = [k for k in self.meta.keys_of_graph(self.graph) if k.endswith(f":{self.graph}:{doc_id}")]
        self.meta.delete(sorted({self._key(doc_id), *mine}))

"""One graph in Milvus: three collections (entities, relations, passages) whose id lists are the graph.

Rows are keyed by content-hash ids and written whole (insert when absent, upsert otherwise), so repeating a
write changes nothing. Reads go by primary key; searches return the exact nearest neighbours (see `Index`).
The schema lives in schema.py, the database (connection, registry, documents) in database.py.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from ..models import Entity, Passage, Relation
from .connection import Connection
from .engines import Collections, Hit, LocalEngine, MilvusEngine
from .lexical import LEXICAL, LexicalIndex
from .meta import DocumentLog
from .mirror import Mirrors
from .schema import (
    DOC_ID,
    ID,
    ID_PREFIX,
    KINDS,
    VEC,
    Kind,
    Record,
    add_fields,
    check_graph_name,
    from_row,
    output_fields,
    to_row,
)
from .tags import SentenceTags
from .titles import TitleIndex

BATCH = 2000


@dataclass(frozen=True)
class Index:
    """How vectors are indexed and searched. Milvus Lite: FLAT — exact, and faster than its approximate index
    (measured: Lite 3.2.2 scans every row per search whatever the index). A server: HNSW with a search width
    `ef` well above any limit we ask for, so the true top hits are returned."""

    type: str = "FLAT"
    ef: int = 256

    def index_params(self) -> dict:
        params = {"M": 16, "efConstruction": 200} if self.type == "HNSW" else {}
        return {"index_type": self.type, "metric_type": "COSINE", "params": params}

    def search_params(self, limit: int) -> dict:
        # `ef` is ignored by FLAT; it also widens the search of collections an older version built with AUTOINDEX
        return {"metric_type": "COSINE", "params": {"ef": max(self.ef, 2 * limit)}}


def load_collections(client: Connection, names: Sequence[str]) -> None:
    """Make collections queryable (a reopened database starts with every one released), all at once: a server takes
    ~3 s per load and overlaps them (3 loads: 2.6 s together, 9.1 s one by one; Milvus 2.3.5)."""
    todo = [c for c in names if "Loaded" not in str(client.get_load_state(c).get("state"))]
    with ThreadPoolExecutor(max(1, len(todo))) as pool:
        list(pool.map(client.load_collection, todo))


class Graph:
    """One named graph: typed reads by primary key, exact vector searches, idempotent writes."""

    def __init__(
        self,
        client: Connection,
        name: str,
        dim: int,
        lock: threading.RLock,
        documents: DocumentLog,
        index: Index = Index(),
        mirrors: Mirrors | None = None,
    ) -> None:
        self.client, self.name, self.dim, self.lock, self.documents, self.index = (
            client,
            check_graph_name(name),
            dim,
            lock,
            documents,
            index,
        )
        # the search engine (engines.py): Lite's in-process copies over the file (`mirrors`), or Milvus itself
        store = Collections(client, self.coll, index.search_params, lock, self.buckets)
        self.engine = (
            LocalEngine(store, mirrors, self.name, dim, documents.meta) if mirrors is not None else MilvusEngine(store)
        )
        self.lexical = LexicalIndex(client, self.coll(LEXICAL), self._create)  # type: ignore[arg-type]

    def coll(self, kind: Kind) -> str:
        return f"{self.name}_{kind}"

    @property
    def collections(self) -> tuple[str, ...]:
        """The collections this graph uses (the word index's only where the engine has BM25)."""
        words = (self.coll(LEXICAL),) if self.lexical.available else ()  # type: ignore[arg-type]
        return tuple(self.coll(k) for k in KINDS) + words

    @property
    def all_collection_names(self) -> tuple[str, ...]:
        """Every collection the graph may have left behind (to drop it whole)."""
        return tuple(self.coll(k) for k in KINDS) + (self.coll(LEXICAL),)  # type: ignore[arg-type]

    def create_collections(self) -> bool:
        """Create what is missing and load every collection; True when the lexical index was new (an older graph:
        call `backfill_lexical`)."""
        for kind in KINDS:
            if self.client.has_collection(self.coll(kind)):
                continue
            schema = add_fields(self.client.create_schema(auto_id=False, enable_dynamic_field=False), kind, self.dim)
            ip = self.client.prepare_index_params()
            ip.add_index(VEC, **self.index.index_params())
            self._create(self.coll(kind), schema, ip)
        new_words = self.lexical.create()
        load_collections(self.client, self.collections)
        return new_words

    def _create(self, coll: str, schema: object, index_params: object) -> None:
        """Create and index a collection (`create_collections` loads it). `sync=False`: pymilvus otherwise sleeps
        0.5 s before it first asks whether an index is built; an empty collection's index is ready at once."""
        self.client.create_collection(coll, schema=schema)
        self.client.create_index(coll, index_params, sync=False)

    def backfill_lexical(self) -> None:
        """Index the words of every stored passage (a graph built before the lexical index existed)."""
        self.lexical.write(list(self.iter_passages()))
        self.client.flush(self.lexical.collection)

    # ---------- reads by primary key
    def get(self, kind: Kind, ids: Sequence[str]) -> list[Record]:
        """The records of the ids that exist, in the order asked, each once."""
        return self.engine.get(kind, ids)

    def get_with_vectors(self, kind: Kind, ids: Sequence[str]) -> list[tuple[Record, np.ndarray]]:
        return self.engine.get_with_vectors(kind, ids)

    def get_entities(self, ids: Sequence[str]) -> list[Entity]:
        return self.get("entities", ids)  # type: ignore[return-value]

    def get_relations(self, ids: Sequence[str]) -> list[Relation]:
        return self.get("relations", ids)  # type: ignore[return-value]

    def get_passages(self, ids: Sequence[str]) -> list[Passage]:
        return self.get("passages", ids)  # type: ignore[return-value]

    @property
    def tags(self) -> SentenceTags:
        """The sentences' named entities (tags.py): tagged at ingest and kept beside a Milvus Lite file; on a
        server, tagged by the reader at query time and kept in this graph's memory."""
        return self.engine.tags

    def title_index(self) -> TitleIndex:
        """The passages' titles by the names they give (titles.py), kept in step with writes by the engine."""
        return self.engine.titles()

    def passages_named_in(self, texts: Sequence[str]) -> list[set[str]]:
        """Per text, the ids of the passages whose title it mentions (a passage's own title included)."""
        index = self.title_index()
        return [index.named_in(t) for t in texts]

    def copies_loaded(self) -> bool:
        """Whether searches, reads and answers can start at once (a server, or every in-process copy and the
        sentence tags in memory)."""
        return self.engine.loaded()

    def load_copies(self) -> None:
        """Bring the in-process copies into memory now (from their files, or read once from Milvus Lite), and the
        sentence tags from theirs."""
        self.engine.load()

    # ---------- vector search
    def search(self, kind: Kind, vectors: np.ndarray, k: int, with_vectors: bool = False) -> list[list[Hit]]:
        """The k nearest records per query vector (cosine), best first, in one round trip."""
        if k <= 0 or len(vectors) == 0:
            return [[] for _ in range(len(vectors))]
        return self.engine.search(kind, np.asarray(vectors), k, with_vectors)

    def lexical_search(self, queries: Sequence[str], k: int) -> list[list[tuple[str, float]]]:
        """Passage ids by BM25 (Milvus full-text search, lexical.py), best first, per query."""
        return self.lexical.search(queries, k)

    def search_entity_records(self, vectors: np.ndarray, k: int) -> list[list[tuple[Entity, float]]]:
        return [[(h.record, h.score) for h in hits] for hits in self.search("entities", vectors, k)]  # type: ignore[misc]

    def search_relation_records(self, vector: np.ndarray, k: int) -> list[tuple[Relation, float]]:
        return [(h.record, h.score) for h in self.search("relations", vector[None, :], k)[0]]  # type: ignore[misc]

    # ---------- writes
    def write(self, kind: Kind, items: Sequence[tuple[Record, Sequence[float]]], existing: set[str]) -> None:
        """Store records with their vectors: rows whose ids are absent are inserted (cheaper than upsert in
        Milvus Lite), the ids in `existing` upserted."""
        rows = [to_row(kind, rec, vec) for rec, vec in items]
        if rows:
            self.engine.before_write(kind)
        if kind == "passages":
            self.lexical.write([rec for rec, _ in items])  # type: ignore[misc]
        for op, part in ((self.client.insert, [r for r in rows if r[ID] not in existing]),
                         (self.client.upsert, [r for r in rows if r[ID] in existing])):  # fmt: skip
            for start in range(0, len(part), BATCH):
                batch = part[start : start + BATCH]
                op(self.coll(kind), batch)
                self.engine.wrote(kind, batch)

    def delete(self, kind: Kind, ids: Sequence[str]) -> None:
        ids = list(ids)
        if ids:
            self.engine.before_write(kind)
        for start in range(0, len(ids), BATCH):
            self.client.delete(self.coll(kind), ids=ids[start : start + BATCH])
            self.engine.deleted(kind, ids[start : start + BATCH])
            if kind == "passages":
                self.lexical.delete(ids[start : start + BATCH])

    def flush(self) -> None:
        """The end of a write: a Lite file flushed and its copies saved (the next start loads them fast)."""
        for coll in self.collections:
            self.client.flush(coll)
        self.engine.save()

    # ---------- whole-graph scans (export, health, check; never on the query path)
    def buckets(self, kind: Kind, fields: list[str]) -> Iterable[list[dict]]:
        """Every row, by primary-key prefix buckets (Lite's query iterator is unreliable); splits full buckets."""
        limit = 16384
        stack = [ID_PREFIX[kind] + h for h in "fedcba9876543210"]
        while stack:
            p = stack.pop()
            rows = self.client.query(
                self.coll(kind), filter=f"{ID} like {json.dumps(p + '%')}", output_fields=fields, limit=limit
            )
            if len(rows) >= limit:
                stack.extend(p + h for h in "fedcba9876543210")
                continue
            yield rows

    def scan(self, kind: Kind) -> Iterable[Record]:
        """Every record."""
        for rows in self.buckets(kind, [ID, *output_fields(kind)]):
            yield from (from_row(kind, r) for r in rows)

    def iter_entities(self) -> Iterable[Entity]:
        return self.scan("entities")  # type: ignore[return-value]

    def iter_relations(self) -> Iterable[Relation]:
        return self.scan("relations")  # type: ignore[return-value]

    def iter_passages(self) -> Iterable[Passage]:
        return self.scan("passages")  # type: ignore[return-value]

    def passages_of_doc(self, doc_id: str) -> list[Passage]:
        rows = self.client.query(
            self.coll("passages"),
            filter=f"{DOC_ID} == {json.dumps(doc_id)}",
            output_fields=[ID, *output_fields("passages")],
            limit=16384,
        )
        return sorted((from_row("passages", r) for r in rows), key=lambda p: p.chunk_index)  # type: ignore[union-attr]

    def counts(self) -> dict[str, int]:
        out = {}
        for kind in ("passages", "entities", "relations"):
            rows = self.client.query(self.coll(kind), filter="", output_fields=["count(*)"])
            out[kind] = int(rows[0]["count(*)"]) if rows else 0
        return out

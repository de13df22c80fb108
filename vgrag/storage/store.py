"""One graph in Milvus: three collections (entities, relations, passages) whose id lists are the graph.

`Graph` is a thin façade over the graph's `GraphStore` (base.py; `LocalStore` for a Lite file, `MilvusStore` for a
server, chosen once by the Database): typed reads by primary key, exact vector searches, idempotent writes. Rows are
keyed by content-hash ids and written whole, so repeating a write changes nothing. The side indexes — the title index
(titles.py) and the word index (lexical.py) — follow the store's commits; no caller writes them.

Locks: `lock` is the graph's *store lock*, held by a writer around one read-merge-write (a batch of an ingest, one
edit) — never by a reader. `ingest_lock` is held while an ingest places documents. Reads never wait for either.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Sequence

import numpy as np

from ..models import Entity, Passage, Relation
from .base import CommitEvent, GraphStore, Hit
from .connection import Connection
from .lexical import LEXICAL, LexicalIndex
from .meta import DocumentLog
from .schema import (
    DOC_ID,
    ENT_IDS,
    ID,
    KINDS,
    OBJ_ID,
    SUBJ_ID,
    TITLE,
    Kind,
    Record,
    check_graph_name,
    from_row,
    to_row,
)
from .tables import Index, Tables, id_filter, load_collections
from .tags import SentenceTags
from .titles import TitleIndex

__all__ = ["Graph", "Hit", "Index", "load_collections"]


class Titles:
    """The passages' title index, built on first use from a scan of the store and kept in step by its commits."""

    def __init__(self, store: GraphStore) -> None:
        self.store = store
        self._index: TitleIndex | None = None
        self._lock = threading.Lock()  # one build at a time (never the store lock: a question must not wait)
        store.subscribe(self.on_commit)

    def index(self) -> TitleIndex:
        if self._index is None:
            with self._lock:
                if self._index is None:
                    rows = self.store.scan("passages", [ID, TITLE])
                    self._index = TitleIndex((r[ID], r[TITLE]) for batch in rows for r in batch)
        return self._index

    def on_commit(self, event: CommitEvent) -> None:
        if self._index is not None:
            self._index.add((r[ID], r[TITLE]) for r in event.written.get("passages", ()))
            self._index.remove(event.deleted.get("passages", ()))


class Graph:
    """One named graph: typed reads by primary key, exact vector searches, idempotent writes (see module doc)."""

    def __init__(
        self,
        client: Connection,
        store: GraphStore,
        tables: Tables,
        documents: DocumentLog,
        lock: threading.RLock,
        ingest_lock: threading.RLock,
    ) -> None:
        self.client, self.store, self.tables, self.documents = client, store, tables, documents
        self.name, self.dim = check_graph_name(store.name), tables.dim
        self.lock, self.ingest_lock = lock, ingest_lock
        self.lexical = LexicalIndex(client, self.coll(LEXICAL), self._create)  # type: ignore[arg-type]
        store.subscribe(self._words)
        self._titles = Titles(store)
        # the named entities of sentences of passages stored without them (older graphs), tagged when a question
        # lists them; passages stored since keep their sentences and tags (storage/tags.py)
        self.tags = SentenceTags()

    @property
    def index(self) -> Index:
        return self.tables.index

    def coll(self, kind: str) -> str:
        return self.tables.coll(kind)

    @property
    def collections(self) -> tuple[str, ...]:
        """The collections this graph uses (the word index's only where the engine has BM25)."""
        words = (self.coll(LEXICAL),) if self.lexical.available else ()
        return tuple(self.coll(k) for k in KINDS) + words

    @property
    def all_collection_names(self) -> tuple[str, ...]:
        """Every collection the graph may have left behind (to drop it whole)."""
        return tuple(self.coll(k) for k in KINDS) + (self.coll(LEXICAL),)

    def create_collections(self) -> bool:
        """Create what is missing and load every collection; True when the lexical index was new (an older graph:
        call `backfill_lexical`)."""
        self.tables.create(self._create)
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

    def _words(self, event: CommitEvent) -> None:
        """The word index follows the passages' commits."""
        written = event.written.get("passages", ())
        if written:
            self.lexical.write([from_row("passages", r) for r in written])  # type: ignore[misc]
        if event.deleted.get("passages"):
            self.lexical.delete(event.deleted["passages"])
        if written or event.deleted.get("passages"):
            self.client.flush(self.lexical.collection) if self.lexical.available else None

    # ---------- reads by primary key
    def get(self, kind: Kind, ids: Sequence[str]) -> list[Record]:
        """The records of the ids that exist, in the order asked, each once."""
        return self.store.get(kind, ids)

    def get_with_vectors(self, kind: Kind, ids: Sequence[str]) -> list[tuple[Record, np.ndarray]]:
        return self.store.get_with_vectors(kind, ids)

    def get_entities(self, ids: Sequence[str]) -> list[Entity]:
        return self.get("entities", ids)  # type: ignore[return-value]

    def get_relations(self, ids: Sequence[str]) -> list[Relation]:
        return self.get("relations", ids)  # type: ignore[return-value]

    def get_passages(self, ids: Sequence[str]) -> list[Passage]:
        return self.get("passages", ids)  # type: ignore[return-value]

    def title_index(self) -> TitleIndex:
        """The passages' titles by the names they give (titles.py), kept in step with commits."""
        return self._titles.index()

    def passages_named_in(self, texts: Sequence[str]) -> list[set[str]]:
        """Per text, the ids of the passages whose title it mentions (a passage's own title included)."""
        index = self.title_index()
        return [index.named_in(t) for t in texts]

    def copies_loaded(self) -> bool:
        """Whether searches, reads and answers can start at once (a server, or every in-process copy in memory)."""
        return self.store.ready()

    def load_copies(self) -> None:
        """Bring the in-process copies (and the title index) into memory now."""
        self.store.load()
        self.title_index()

    def refresh(self) -> None:
        """See the last commit of another writer on the same Lite file (one read of the graph's record)."""
        self.store.refresh()  # type: ignore[attr-defined]

    # ---------- vector search
    def search(self, kind: Kind, vectors: np.ndarray, k: int, with_vectors: bool = False) -> list[list[Hit]]:
        """The k nearest records per query vector (cosine), best first, in one round trip."""
        if k <= 0 or len(vectors) == 0:
            return [[] for _ in range(len(vectors))]
        return self.store.search(kind, np.asarray(vectors), k, with_vectors)

    def lexical_search(self, queries: Sequence[str], k: int) -> list[list[tuple[str, float]]]:
        """Passage ids by BM25 (Milvus full-text search, lexical.py), best first, per query."""
        return self.lexical.search(queries, k)

    def search_entity_records(self, vectors: np.ndarray, k: int) -> list[list[tuple[Entity, float]]]:
        return [[(h.record, h.score) for h in hits] for hits in self.search("entities", vectors, k)]  # type: ignore[misc]

    def search_relation_records(self, vector: np.ndarray, k: int) -> list[tuple[Relation, float]]:
        return [(h.record, h.score) for h in self.search("relations", vector[None, :], k)[0]]  # type: ignore[misc]

    # ---------- writes (hold `lock` around a read-merge-write; end with `flush`)
    def write(self, kind: Kind, items: Sequence[tuple[Record, Sequence[float]]], existing: set[str]) -> None:
        """Store records with their vectors: ids in `existing` replace stored rows, the others are inserted."""
        self.store.upsert(kind, [to_row(kind, rec, vec) for rec, vec in items], existing)

    def delete(self, kind: Kind, ids: Sequence[str]) -> None:
        self.store.delete(kind, list(ids))

    def flush(self) -> None:
        """The end of a write: committed (Lite: flushed and the copies saved) and told to the side indexes."""
        self.store.commit()

    # ---------- whole-graph scans (export, health, check; never on the query path)
    def scan(self, kind: Kind) -> Iterable[Record]:
        """Every record."""
        for rows in self.store.scan(kind, self.tables.fields(kind)):
            yield from (from_row(kind, r) for r in rows)

    def iter_entities(self) -> Iterable[Entity]:
        return self.scan("entities")  # type: ignore[return-value]

    def iter_relations(self) -> Iterable[Relation]:
        return self.scan("relations")  # type: ignore[return-value]

    def iter_passages(self) -> Iterable[Passage]:
        return self.scan("passages")  # type: ignore[return-value]

    def passages_of_doc(self, doc_id: str) -> list[Passage]:
        """Every passage of a document, however many (paged past Milvus's 16,384-row query limit)."""
        rows = self.tables.scan("passages", self.tables.fields("passages"), id_filter(DOC_ID, doc_id))
        found = (from_row("passages", r) for batch in rows for r in batch)
        return sorted(found, key=lambda p: p.chunk_index)  # type: ignore[union-attr]

    def relations_naming(self, entity_id: str) -> list[Relation]:
        """Every relation whose subject or object is this entity (a scalar query: maintenance only)."""
        where = f"{id_filter(SUBJ_ID, entity_id)} or {id_filter(OBJ_ID, entity_id)}"
        rows = self.tables.scan("relations", self.tables.fields("relations"), where)
        return [from_row("relations", r) for batch in rows for r in batch]  # type: ignore[misc]

    def passages_naming(self, entity_id: str) -> list[Passage]:
        """Every passage whose entity list holds this entity (scans in Milvus Lite: maintenance only)."""
        where = f"array_contains({ENT_IDS}, {json.dumps(entity_id)})"
        rows = self.tables.scan("passages", self.tables.fields("passages"), where)
        return [from_row("passages", r) for batch in rows for r in batch]  # type: ignore[misc]

    def counts(self) -> dict[str, int]:
        return {kind: self.tables.count(kind) for kind in ("passages", "entities", "relations")}

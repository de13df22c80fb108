"""One graph in Milvus: three collections (entities, relations, passages) whose id lists are the graph.

Rows are keyed by content-hash ids and written whole (insert when absent, upsert otherwise), so repeating a
write changes nothing. The database-level registry and connection live in database.py.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np
from pymilvus import DataType, MilvusClient

from .models import Document, Entity, Hit, Passage, Relation

if TYPE_CHECKING:
    from .database import Database

log = logging.getLogger(__name__)

# field names
ID, VEC = "id", "vector"
NAME, REL_IDS, PSG_IDS, ENT_IDS = "name", "relation_ids", "passage_ids", "entity_ids"
SUBJ, PRED, OBJ, SUBJ_ID, OBJ_ID, TEXT = "subject", "predicate", "object", "subject_id", "object_id", "text"
TITLE, DOC_ID, CHUNK = "title", "doc_id", "chunk_index"
KIND, GRAPH, PAYLOAD = "kind", "graph", "payload"

META = "vgrag_meta"
MAX_LIST = 4096  # Milvus ARRAY capacity; longer adjacency lists keep their first MAX_LIST ids
MAX_TEXT = 65535
BATCH = 2000
GRAPH_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,39}$")


def _list(values: Iterable[str]) -> list[str]:
    out = list(dict.fromkeys(values))
    if len(out) > MAX_LIST:
        log.warning("adjacency list of %d ids capped at %d", len(out), MAX_LIST)
        out = out[:MAX_LIST]
    return out


def _clip(s: str, n: int = MAX_TEXT // 4) -> str:
    """Milvus counts VARCHAR length in bytes: stay well inside it for any script."""
    b = s.encode("utf-8")
    return s if len(b) <= n else b[:n].decode("utf-8", "ignore")


class Graph:
    """One named graph: typed reads by primary key, vector searches, and idempotent writes."""

    def __init__(self, db: Database, name: str, dim: int) -> None:
        self.db = db
        self.name = name
        self.dim = dim
        self.entities = f"{name}_entities"
        self.relations = f"{name}_relations"
        self.passages = f"{name}_passages"
        self.collections = (self.entities, self.relations, self.passages)

    @property
    def client(self) -> MilvusClient:
        return self.db.client

    # ---------- schema
    def _schema(self, extra: Sequence[tuple]) -> object:
        s = self.client.create_schema(auto_id=False, enable_dynamic_field=False)
        s.add_field(ID, DataType.VARCHAR, is_primary=True, max_length=64)
        for name, dtype, kw in extra:
            s.add_field(name, dtype, **kw)
        s.add_field(VEC, DataType.FLOAT_VECTOR, dim=self.dim)
        return s

    def create_collections(self) -> None:
        ids = {"element_type": DataType.VARCHAR, "max_capacity": MAX_LIST, "max_length": 64}
        txt = {"max_length": MAX_TEXT}
        specs = {
            self.entities: [
                (NAME, DataType.VARCHAR, txt),
                (REL_IDS, DataType.ARRAY, ids),
                (PSG_IDS, DataType.ARRAY, ids),
            ],
            self.relations: [
                (SUBJ, DataType.VARCHAR, txt),
                (PRED, DataType.VARCHAR, txt),
                (OBJ, DataType.VARCHAR, txt),
                (SUBJ_ID, DataType.VARCHAR, {"max_length": 64}),
                (OBJ_ID, DataType.VARCHAR, {"max_length": 64}),
                (PSG_IDS, DataType.ARRAY, ids),
            ],
            self.passages: [
                (TITLE, DataType.VARCHAR, txt),
                (TEXT, DataType.VARCHAR, txt),
                (DOC_ID, DataType.VARCHAR, {"max_length": 64}),
                (CHUNK, DataType.INT64, {}),
                (ENT_IDS, DataType.ARRAY, ids),
                (REL_IDS, DataType.ARRAY, ids),
            ],
        }
        for coll, extra in specs.items():
            if self.client.has_collection(coll):
                continue
            ip = self.client.prepare_index_params()
            ip.add_index(VEC, index_type="AUTOINDEX", metric_type="COSINE")
            self.client.create_collection(coll, schema=self._schema(extra), index_params=ip)

    # ---------- row <-> record
    @staticmethod
    def _entity(r: dict) -> Entity:
        return Entity(r[ID], r[NAME], tuple(r[REL_IDS] or ()), tuple(r[PSG_IDS] or ()))

    @staticmethod
    def _relation(r: dict) -> Relation:
        return Relation(r[ID], r[SUBJ], r[PRED], r[OBJ], r[SUBJ_ID], r[OBJ_ID], tuple(r[PSG_IDS] or ()))

    @staticmethod
    def _passage(r: dict) -> Passage:
        return Passage(
            r[ID], r[TITLE], r[TEXT], r[DOC_ID], int(r[CHUNK]), tuple(r[ENT_IDS] or ()), tuple(r[REL_IDS] or ())
        )

    @staticmethod
    def entity_row(e: Entity, vec: Sequence[float]) -> dict:
        return {
            ID: e.id,
            NAME: _clip(e.name, 2000),
            REL_IDS: _list(e.relation_ids),
            PSG_IDS: _list(e.passage_ids),
            VEC: list(map(float, vec)),
        }

    @staticmethod
    def relation_row(r: Relation, vec: Sequence[float]) -> dict:
        return {
            ID: r.id,
            SUBJ: _clip(r.subject, 2000),
            PRED: _clip(r.predicate, 2000),
            OBJ: _clip(r.object, 2000),
            SUBJ_ID: r.subject_id,
            OBJ_ID: r.object_id,
            PSG_IDS: _list(r.passage_ids),
            VEC: list(map(float, vec)),
        }

    @staticmethod
    def passage_row(p: Passage, vec: Sequence[float]) -> dict:
        return {
            ID: p.id,
            TITLE: _clip(p.title, 2000),
            TEXT: _clip(p.text),
            DOC_ID: p.doc_id,
            CHUNK: p.chunk_index,
            ENT_IDS: _list(p.entity_ids),
            REL_IDS: _list(p.relation_ids),
            VEC: list(map(float, vec)),
        }

    # ---------- reads by primary key
    def _get(self, coll: str, ids: Sequence[str], with_vectors: bool) -> list[dict]:
        ids = list(dict.fromkeys(ids))
        rows: list[dict] = []
        fields = ["*"] if with_vectors else None
        for start in range(0, len(ids), BATCH):
            part = ids[start : start + BATCH]
            if fields:
                got = self.client.get(coll, ids=part, output_fields=fields)
            else:
                got = self.client.get(coll, ids=part)
            rows.extend(got)
        if not with_vectors:
            for r in rows:
                r.pop(VEC, None)
        return rows

    def get_entities(self, ids: Sequence[str]) -> list[Entity]:
        return [self._entity(r) for r in self._get(self.entities, ids, False)]

    def get_relations(self, ids: Sequence[str]) -> list[Relation]:
        return [self._relation(r) for r in self._get(self.relations, ids, False)]

    def get_passages(self, ids: Sequence[str]) -> list[Passage]:
        return [self._passage(r) for r in self._get(self.passages, ids, False)]

    def get_relations_with_vectors(self, ids: Sequence[str]) -> tuple[list[Relation], np.ndarray]:
        rows = self._get(self.relations, ids, True)
        vecs = np.asarray([r[VEC] for r in rows], dtype=np.float32).reshape(len(rows), self.dim)
        return [self._relation(r) for r in rows], vecs

    def entity_rows(self, ids: Sequence[str]) -> list[dict]:
        return self._get(self.entities, ids, True)

    def relation_rows(self, ids: Sequence[str]) -> list[dict]:
        return self._get(self.relations, ids, True)

    def passage_rows(self, ids: Sequence[str]) -> list[dict]:
        return self._get(self.passages, ids, True)

    # ---------- vector search
    def _search(self, coll: str, vectors: np.ndarray, k: int) -> list[list[Hit]]:
        if k <= 0 or len(vectors) == 0:
            return [[] for _ in range(len(vectors))]
        res = self.client.search(
            coll,
            data=[list(map(float, v)) for v in vectors],
            limit=k,
            output_fields=[ID],
            search_params={"metric_type": "COSINE"},
        )
        return [[Hit(h["id"], float(h["distance"])) for h in hits] for hits in res]

    def search_entities(self, vectors: np.ndarray, k: int) -> list[list[Hit]]:
        return self._search(self.entities, vectors, k)

    def search_entity_records(self, vectors: np.ndarray, k: int) -> list[list[tuple[Entity, float]]]:
        """Nearest entities per vector, with names and id lists, in one round trip."""
        if k <= 0 or len(vectors) == 0:
            return [[] for _ in range(len(vectors))]
        res = self.client.search(
            self.entities,
            data=[list(map(float, v)) for v in vectors],
            limit=k,
            output_fields=[NAME, REL_IDS, PSG_IDS],
            search_params={"metric_type": "COSINE"},
        )
        return [[(self._entity({ID: h["id"], **h["entity"]}), float(h["distance"])) for h in hits] for hits in res]

    def search_passage_rows(self, vectors: np.ndarray, k: int, with_vectors: bool = True) -> list[list[dict]]:
        """Nearest passages per vector as rows plus their `score` (vectors only when asked: they cost)."""
        res = self.client.search(
            self.passages,
            data=[list(map(float, v)) for v in vectors],
            limit=k,
            output_fields=[TITLE, TEXT, DOC_ID, CHUNK, ENT_IDS, REL_IDS] + ([VEC] if with_vectors else []),
            search_params={"metric_type": "COSINE"},
        )
        return [[{ID: h["id"], "score": float(h["distance"]), **h["entity"]} for h in hits] for hits in res]

    def search_relation_records(self, vector: np.ndarray, k: int) -> list[tuple[Relation, float]]:
        """Nearest relations with their fields in one round trip (no follow-up get)."""
        if k <= 0:
            return []
        res = self.client.search(
            self.relations,
            data=[list(map(float, vector))],
            limit=k,
            output_fields=[SUBJ, PRED, OBJ, SUBJ_ID, OBJ_ID, PSG_IDS],
            search_params={"metric_type": "COSINE"},
        )
        return [(self._relation({ID: h["id"], **h["entity"]}), float(h["distance"])) for h in res[0]]

    # ---------- writes
    def insert(self, coll: str, rows: Sequence[dict]) -> None:
        """Rows whose ids were just checked to be absent (cheaper than upsert in Milvus Lite)."""
        for start in range(0, len(rows), BATCH):
            self.client.insert(coll, list(rows[start : start + BATCH]))

    def upsert(self, coll: str, rows: Sequence[dict]) -> None:
        for start in range(0, len(rows), BATCH):
            self.client.upsert(coll, list(rows[start : start + BATCH]))

    def delete(self, coll: str, ids: Sequence[str]) -> None:
        ids = list(ids)
        for start in range(0, len(ids), BATCH):
            self.client.delete(coll, ids=ids[start : start + BATCH])

    def flush(self) -> None:
        for coll in self.collections:
            self.client.flush(coll)

    # ---------- whole-graph scans (export, health, check; never on the query path)
    def scan(self, coll: str, fields: Sequence[str]) -> Iterable[dict]:
        """Every row, by primary-key prefix buckets (Lite's query iterator is unreliable); splits full buckets."""
        prefix = {self.entities: "ent-", self.relations: "rel-", self.passages: "psg-"}[coll]
        limit = 16384
        stack = [prefix + h for h in "fedcba9876543210"]
        while stack:
            p = stack.pop()
            rows = self.client.query(
                coll, filter=f"{ID} like {json.dumps(p + '%')}", output_fields=list(fields), limit=limit
            )
            if len(rows) >= limit:
                stack.extend(p + h for h in "fedcba9876543210")
                continue
            yield from rows

    def iter_entities(self) -> Iterable[Entity]:
        return (self._entity(r) for r in self.scan(self.entities, [ID, NAME, REL_IDS, PSG_IDS]))

    def iter_relations(self) -> Iterable[Relation]:
        return (self._relation(r) for r in self.scan(self.relations, [ID, SUBJ, PRED, OBJ, SUBJ_ID, OBJ_ID, PSG_IDS]))

    def iter_passages(self) -> Iterable[Passage]:
        return (self._passage(r) for r in self.scan(self.passages, [ID, TITLE, TEXT, DOC_ID, CHUNK, ENT_IDS, REL_IDS]))

    def passages_of_doc(self, doc_id: str) -> list[Passage]:
        rows = self.client.query(
            self.passages,
            filter=f"{DOC_ID} == {json.dumps(doc_id)}",
            output_fields=[ID, TITLE, TEXT, DOC_ID, CHUNK, ENT_IDS, REL_IDS],
            limit=16384,
        )
        return sorted((self._passage(r) for r in rows), key=lambda p: p.chunk_index)

    def counts(self) -> dict[str, int]:
        out = {}
        for label, coll in (("passages", self.passages), ("entities", self.entities), ("relations", self.relations)):
            rows = self.client.query(coll, filter="", output_fields=["count(*)"])
            out[label] = int(rows[0]["count(*)"]) if rows else 0
        return out

    # ---------- source documents (kept in the meta collection)
    def put_document(self, d: Document) -> None:
        self.db.put_meta(
            f"doc:{self.name}:{d.id}",
            "doc",
            self.name,
            {
                "id": d.id,
                "name": d.name,
                "hash": d.content_hash,
                "n": d.n_passages,
                "complete": d.complete,
                "added_at": d.added_at,
            },
        )

    def documents(self) -> list[Document]:
        rows = self.db.meta_rows(f"{KIND} == 'doc' and {GRAPH} == {json.dumps(self.name)}")
        docs = [
            Document(p["id"], p["name"], p["hash"], int(p["n"]), bool(p["complete"]), float(p["added_at"]))
            for p in (r[PAYLOAD] for r in rows)
        ]
        return sorted(docs, key=lambda d: d.added_at)

    def document(self, doc_id: str) -> Document | None:
        return next((d for d in self.documents() if d.id == doc_id), None)

    def forget_document(self, doc_id: str) -> None:
        self.db.delete_meta([f"doc:{self.name}:{doc_id}"])

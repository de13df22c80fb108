"""One graph's collections in Milvus, as tables: names, creation, batched writes and reads by primary key, and
scans that page past Milvus's 16,384-row query limit. Both stores (local.py, server.py) write through it."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from .connection import Connection
from .schema import ID, ID_PREFIX, KINDS, VEC, Kind, add_fields, output_fields

BATCH = 2000  # rows per insert/upsert/delete/get call: well under the 256 MB message limit
QUERY_LIMIT = 16384  # Milvus's largest `limit` for one query
HEX = "fedcba9876543210"


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


def id_filter(field: str, value: str) -> str:
    """`field == "value"`, quoted by JSON (the one place a filter string is built from a value)."""
    return f"{field} == {json.dumps(value)}"


class Tables:
    """The three collections of graph `name` through one connection."""

    def __init__(self, client: Connection, name: str, dim: int, index: Index) -> None:
        self.client, self.name, self.dim, self.index = client, name, dim, index
        self._columns: dict[str, list[str]] = {}  # per collection: the schema's columns it has

    def fields(self, kind: Kind, with_vector: bool = False) -> list[str]:
        """What a read asks for: the id, the schema's columns this collection has, and the vector when asked. A
        collection created before an optional column (`Column.optional`) lacks it, and a Milvus server refuses a read
        naming a field a collection lacks ("field when not exist"; Lite ignores it): its records read the default."""
        have = self._columns.get(kind)
        if have is None:
            info = self.client.describe_collection(self.coll(kind))
            names = {f.get("name") for f in info.get("fields", ())}
            have = self._columns[kind] = [c for c in output_fields(kind) if c in names]
        return [ID, *have, *([VEC] if with_vector else [])]

    def coll(self, kind: str) -> str:
        return f"{self.name}_{kind}"

    def create(self, create: Callable[[str, object, object], None]) -> None:
        self._columns.clear()
        for kind in KINDS:
            if self.client.has_collection(self.coll(kind)):
                continue
            schema = add_fields(self.client.create_schema(auto_id=False, enable_dynamic_field=False), kind, self.dim)
            ip = self.client.prepare_index_params()
            ip.add_index(VEC, **self.index.index_params())
            create(self.coll(kind), schema, ip)

    # ---------- writes
    def write(self, kind: Kind, rows: Sequence[dict], existing: set[str]) -> None:
        """Rows whose ids are absent are inserted (cheaper than upsert in Milvus Lite), the others upserted."""
        for op, part in ((self.client.insert, [r for r in rows if r[ID] not in existing]),
                         (self.client.upsert, [r for r in rows if r[ID] in existing])):  # fmt: skip
            for start in range(0, len(part), BATCH):
                op(self.coll(kind), list(part[start : start + BATCH]))

    def delete(self, kind: Kind, ids: Sequence[str]) -> None:
        ids = list(ids)
        for start in range(0, len(ids), BATCH):
            self.client.delete(self.coll(kind), ids=ids[start : start + BATCH])

    def flush(self, collections: Iterable[str]) -> None:
        for coll in collections:
            self.client.flush(coll)

    # ---------- reads
    def get(self, kind: Kind, ids: Sequence[str], fields: list[str]) -> list[dict]:
        """Rows by primary key, in batches; each id once."""
        ids, rows = list(dict.fromkeys(ids)), []
        for start in range(0, len(ids), BATCH):
            rows.extend(self.client.get(self.coll(kind), ids=ids[start : start + BATCH], output_fields=fields))
        return rows

    def search(self, kind: Kind, vectors: Sequence[Sequence[float]], k: int, fields: list[str]) -> list[list[dict]]:
        return self.client.search(
            self.coll(kind),
            data=[[float(x) for x in v] for v in vectors],
            limit=k,
            output_fields=fields,
            search_params=self.index.search_params(k),
        )

    def scan(self, kind: Kind, fields: list[str], where: str = "") -> Iterable[list[dict]]:
        """Every row (matching `where`), in batches by primary-key prefix: Lite's query iterator is unreliable and one
        query returns at most 16,384 rows, so a full bucket is split into sixteen. A filtered scan asks once first."""
        if where:
            rows = self.client.query(self.coll(kind), filter=where, output_fields=fields, limit=QUERY_LIMIT)
            if len(rows) < QUERY_LIMIT:
                yield rows
                return
        stack = [ID_PREFIX[kind] + h for h in HEX]
        while stack:
            p = stack.pop()
            flt = f"{ID} like {json.dumps(p + '%')}" + (f" and ({where})" if where else "")
            rows = self.client.query(self.coll(kind), filter=flt, output_fields=fields, limit=QUERY_LIMIT)
            if len(rows) >= QUERY_LIMIT:
                stack.extend(p + h for h in HEX)
                continue
            yield rows

    def count(self, kind: Kind) -> int:
        rows = self.client.query(self.coll(kind), filter="", output_fields=["count(*)"])
        return int(rows[0]["count(*)"]) if rows else 0

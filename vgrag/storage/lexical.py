"""A graph's passages as words, for Milvus's own BM25 full-text search (the hybrid baseline and the optional
lexical passage step): one collection beside the three, each row a passage id and its text, from which Milvus's
BM25 function derives a sparse vector. Kept in step with every passage write and delete (store.Graph).

Optional: a server without BM25 functions (Milvus before 2.5) has no word index; the graph works without it and a
word search says why it cannot run there."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pymilvus import DataType, Function, FunctionType

from ..models import Passage
from .connection import Connection, UnsupportedServerError
from .schema import ID, ID_LEN, MAX_TEXT, TEXT

LEXICAL = "lexical"  # the collection's suffix after the graph's name
SPARSE = "sparse"
BATCH = 2000


class LexicalIndex:
    def __init__(self, client: Connection, collection: str, create: Callable[[str, object, object], None]) -> None:
        self.client, self.collection, self._create = client, collection, create
        self.available = client.has_bm25

    def create(self) -> bool:
        """Create the collection when it is missing; True when it was (an older graph: `write` its passages)."""
        if not self.available or self.client.has_collection(self.collection):
            return False
        schema = self.client.create_schema(auto_id=False, enable_dynamic_field=False)
        schema.add_field(ID, DataType.VARCHAR, is_primary=True, max_length=ID_LEN)
        schema.add_field(TEXT, DataType.VARCHAR, max_length=MAX_TEXT, enable_analyzer=True)
        schema.add_field(SPARSE, DataType.SPARSE_FLOAT_VECTOR)
        schema.add_function(Function(name="bm25", function_type=FunctionType.BM25,
                                     input_field_names=[TEXT], output_field_names=[SPARSE]))  # fmt: skip
        ip = self.client.prepare_index_params()
        ip.add_index(SPARSE, index_type="SPARSE_INVERTED_INDEX", metric_type="BM25")
        self._create(self.collection, schema, ip)
        return True

    def write(self, passages: Sequence[Passage]) -> None:
        if not self.available:
            return
        rows = [{ID: p.id, TEXT: p.full_text.encode("utf-8")[: MAX_TEXT // 4].decode("utf-8", "ignore")}
                for p in passages]  # fmt: skip
        for start in range(0, len(rows), BATCH):
            self.client.upsert(self.collection, rows[start : start + BATCH])

    def delete(self, ids: Sequence[str]) -> None:
        if self.available:
            self.client.delete(self.collection, ids=list(ids))

    def search(self, queries: Sequence[str], k: int) -> list[list[tuple[str, float]]]:
        """Passage ids by BM25, best first, per query; score = BM25 (Milvus Lite 3.2.2 reports it negated, so the
        absolute value is used and the order is the engine's)."""
        if not self.available:
            raise UnsupportedServerError(
                f"Word search (BM25) is unavailable on the Milvus server at {self.client.uri}: it needs Milvus 2.5 "
                "or newer. The graph and dense methods work; use them, or upgrade the server for the hybrid baseline."
            )
        if k <= 0 or not queries:
            return [[] for _ in queries]
        res = self.client.search(
            self.collection,
            data=[q if q.strip() else "?" for q in queries],
            anns_field=SPARSE,
            limit=k,
            search_params={"metric_type": "BM25"},
            output_fields=[ID],
        )
        return [[(h["id"], abs(float(h["distance"]))) for h in hits] for hits in res]

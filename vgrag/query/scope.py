"""Questions scoped to documents: "only these documents" / "not these documents", applied inside retrieval.

A scope is a set of passage ids a query may read (or may not). A passage outside it is never a candidate, and a
relation or entity counts only through the passages that support it: one supported only by excluded passages is
never a seed, never reached by a hop, never reranked, and its passages are never listed. Searches over-fetch and
drop what the scope refuses, widening until k allowed hits are found or the collection is exhausted, so the result
is the exact top k among the allowed rows (Milvus Lite filters no vector search by a passage list).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..config import QueryParams
from ..models import Document
from ..storage.base import Hit
from ..storage.store import Graph
from ..storage.schema import Kind

MAX_LIMIT = 16_384  # the most rows one Milvus search returns


@dataclass(frozen=True)
class Scope:
    """The passages a query may read: `only` (None: every passage) minus `excluded`."""

    only: frozenset[str] | None = None
    excluded: frozenset[str] = frozenset()

    @property
    def active(self) -> bool:
        return self.only is not None or bool(self.excluded)

    def allows(self, passage_id: str) -> bool:
        return passage_id not in self.excluded and (self.only is None or passage_id in self.only)

    def supports(self, passage_ids: Sequence[str]) -> bool:
        """A relation or entity stays a candidate when at least one passage of the scope supports it."""
        return not self.active or any(self.allows(p) for p in passage_ids)

    def passages(self, ids: Sequence[str]) -> list[str]:
        return [p for p in ids if self.allows(p)] if self.active else list(ids)

    def record_ok(self, kind: Kind, record: object) -> bool:
        if kind == "passages":
            return self.allows(record.id)  # type: ignore[attr-defined]
        return self.supports(record.passage_ids)  # type: ignore[attr-defined]


EVERYTHING = Scope()


def find_documents(docs: Sequence[Document], wanted: Sequence[str], graph_name: str) -> list[Document]:
    """The documents named by id, by name, or by a file's bare name (as `docs` lists them); ValueError naming an
    unknown one."""
    out: list[Document] = []
    for w in wanted:
        found = [d for d in docs if w in (d.id, d.name)] or [d for d in docs if d.name.rsplit("/", 1)[-1] == w]
        if not found:
            raise ValueError(
                f"No document {w!r} in graph {graph_name!r}: give a name or id as `python -m vgrag docs` lists them."
            )
        out.extend(found)
    return out


def scope_for(graph: Graph, params: QueryParams) -> Scope:
    """The scope params.only_documents / params.exclude_documents ask for (EVERYTHING when neither is set)."""
    if not params.only_documents and not params.exclude_documents:
        return EVERYTHING
    docs = graph.documents.all()

    def ids(wanted: Sequence[str]) -> frozenset[str]:
        chosen = find_documents(docs, wanted, graph.name)
        return frozenset(p.id for d in chosen for p in graph.passages_of_doc(d.id))

    only = ids(params.only_documents) if params.only_documents else None
    return Scope(only, ids(params.exclude_documents) if params.exclude_documents else frozenset())


def search(
    graph: Graph, kind: Kind, vectors: np.ndarray, k: int, scope: Scope, with_vectors: bool = False
) -> list[list[Hit]]:
    """The k nearest allowed records per query vector: over-fetched and widened until k are allowed."""
    if not scope.active or k <= 0 or len(vectors) == 0:
        return graph.search(kind, vectors, k, with_vectors)
    limit = min(MAX_LIMIT, k + (len(scope.excluded) if scope.only is None else 4 * k))
    while True:
        hits = graph.search(kind, vectors, limit, with_vectors)
        kept = [[h for h in row if scope.record_ok(kind, h.record)] for row in hits]
        done = all(len(kr) >= k or len(row) < limit for kr, row in zip(kept, hits, strict=True))
        if done or limit >= MAX_LIMIT:
            return [row[:k] for row in kept]
        limit = min(MAX_LIMIT, limit * 4)


def lexical_search(graph: Graph, queries: Sequence[str], k: int, scope: Scope) -> list[list[tuple[str, float]]]:
    """BM25 passage ids per query, only allowed passages, widened like `search`."""
    if not scope.active or k <= 0:
        return graph.lexical_search(queries, k)
    limit = min(MAX_LIMIT, k + (len(scope.excluded) if scope.only is None else 4 * k))
    while True:
        hits = graph.lexical_search(queries, limit)
        kept = [[h for h in row if scope.allows(h[0])] for row in hits]
        if all(len(kr) >= k or len(row) < limit for kr, row in zip(kept, hits, strict=True)) or limit >= MAX_LIMIT:
            return [row[:k] for row in kept]
        limit = min(MAX_LIMIT, limit * 4)

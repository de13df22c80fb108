"""The storage protocol of one graph: what a store must do, whatever the backend.

A `GraphStore` owns the writes to its three collections (entities, relations, passages): it reads by primary key,
searches by vector, upserts and deletes rows, and `commit`s a batch. Every commit is told to the store's
subscribers (`CommitEvent`): the side indexes — the title index (titles.py), the word index (lexical.py) — follow
the store that way; no caller writes them. Two complete implementations (no fallback from one to the other):

- `LocalStore` (local.py): a Milvus Lite file. The in-process vector copy is the search engine; the Lite file is
  the durable log the store writes itself.
- `MilvusStore` (server.py): a Milvus server searches and reads with its own index.

The graph editor's single-row operations (rename or merge an entity, edit or delete a relation) are written on
this protocol once (vgrag/editing/), so both backends get the same code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from .schema import Kind, Record


@dataclass(frozen=True)
class Hit:
    """A search result: the record, its cosine similarity, and its vector when asked for."""

    record: Record
    score: float
    vector: np.ndarray | None = None


@dataclass(frozen=True)
class CommitEvent:
    """What one commit changed: per kind, the rows written (Milvus rows: id, columns, vector) and the ids deleted."""

    written: dict[str, tuple[dict, ...]] = field(default_factory=dict)
    deleted: dict[str, tuple[str, ...]] = field(default_factory=dict)


Listener = Callable[[CommitEvent], None]


class GraphStore(Protocol):
    """One graph's three collections. Reads never take the write lock; a write is `upsert`/`delete` then
    `commit` (the caller holds the graph's store lock around its read-merge-write)."""

    name: str

    def get(self, kind: Kind, ids: Sequence[str]) -> list[Record]:
        """The records of the ids that exist, in the order asked, each once."""
        ...

    def get_with_vectors(self, kind: Kind, ids: Sequence[str]) -> list[tuple[Record, np.ndarray]]: ...

    def search(self, kind: Kind, vectors: np.ndarray, k: int, with_vectors: bool = False) -> list[list[Hit]]:
        """The k nearest records per query vector (cosine, exact or wide enough to be), best first."""
        ...

    def upsert(self, kind: Kind, rows: Sequence[dict], existing: set[str]) -> None:
        """Store Milvus rows; ids in `existing` are replaced, the others inserted."""
        ...

    def delete(self, kind: Kind, ids: Sequence[str]) -> None: ...

    def commit(self) -> None:
        """The end of a batch: made durable (a Lite flush, the copy saved) and told to the subscribers."""
        ...

    def subscribe(self, listener: Listener) -> None: ...

    def scan(self, kind: Kind, fields: list[str]) -> Iterable[list[dict]]:
        """Every row of a kind, in batches (maintenance: export, check, the side indexes' first build)."""
        ...

    def ready(self) -> bool:
        """Whether searches and reads can start at once (nothing left to load into memory)."""
        ...

    def load(self) -> None: ...

    def forget(self) -> None:
        """The graph was dropped: release what the store keeps beside Milvus."""
        ...

    def close(self) -> None:
        """Finish what runs in the background (a copy being saved)."""
        ...

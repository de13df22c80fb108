"""The edit log, stored with the graph: one record per edit in the graph's metadata collection (kind "edit",
key `edit:<graph>:<seq>`): what was asked, a summary, when, its steps (draft.py) and the documents it touched.

An edit is written *pending* before its steps are applied and marked *done* after; a pending edit found later (the
process died in between) is applied again (run.resume_pending). Steps too long for one metadata record (a server
limits a JSON field to 64 KB) are kept in numbered part records beside it."""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ..storage.store import Graph

KIND, PART_KIND = "edit", "edit-part"
PART_CHARS = 48_000


@dataclass(frozen=True)
class Edit:
    seq: int
    op: str  # merge, rename, split_alias, delete_entity, edit_relation, delete_relation, add_relation, undo
    args: dict[str, Any]
    summary: str
    at: float
    status: str = "pending"  # pending | done | replayed (a re-ingest applied it again) | stale (it no longer applied)
    docs: tuple[str, ...] = ()  # the documents whose passages it touched
    relations: tuple[str, ...] = ()  # the relations it made or changed (its "after"; the Review page marks them)
    undoes: int | None = None  # an undo: the seq of the edit it reverses
    undone_by: int | None = None  # set on an edit an undo reversed
    steps: list[dict] = field(default_factory=list, compare=False, repr=False)

    def record(self) -> dict[str, Any]:
        """As exported (without its steps: an import plans it again on the graph it lands in)."""
        out = asdict(self)
        out.pop("steps")
        return {k: list(v) if isinstance(v, tuple) else v for k, v in out.items()}

    @property
    def when(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.at))


class EditLog:
    """A graph's edits, oldest first."""

    def __init__(self, graph: Graph) -> None:
        self.graph, self.meta = graph, graph.documents.meta

    def key(self, seq: int) -> str:
        return f"edit:{self.graph.name}:{seq:07d}"

    def all(self, with_steps: bool = True) -> list[Edit]:
        rows = sorted(self.meta.rows(KIND, self.graph.name), key=lambda r: r["payload"]["seq"])
        parts: dict[int, list[tuple[int, str]]] = {}
        if with_steps and any(r["payload"].get("parts") for r in rows):
            for r in self.meta.rows(PART_KIND, self.graph.name):
                parts.setdefault(r["payload"]["seq"], []).append((r["payload"]["n"], r["payload"]["text"]))
        out = []
        for r in rows:
            p = dict(r["payload"])
            n = p.pop("parts", 0)
            if n and with_steps:
                p["steps"] = json.loads("".join(t for _, t in sorted(parts.get(p["seq"], []))))
            for k in ("docs", "relations"):
                p[k] = tuple(p.get(k, ()))
            out.append(Edit(**p))
        return out

    def next_seq(self) -> int:
        edits = self.all(with_steps=False)
        return edits[-1].seq + 1 if edits else 1

    def put(self, edit: Edit) -> None:
        payload = asdict(edit)
        for k in ("docs", "relations"):
            payload[k] = list(payload[k])
        text = json.dumps(payload.pop("steps"), ensure_ascii=False)
        if len(text) <= PART_CHARS:
            payload["steps"] = json.loads(text)
        else:
            chunks = [text[i : i + PART_CHARS] for i in range(0, len(text), PART_CHARS)]
            for n, chunk in enumerate(chunks):
                key = f"{self.key(edit.seq)}:{n:04d}"
                self.meta.put(key, PART_KIND, self.graph.name, {"seq": edit.seq, "n": n, "text": chunk})
            payload["parts"] = len(chunks)
        self.meta.put(self.key(edit.seq), KIND, self.graph.name, payload)

    def mark(self, edit: Edit, **changes: Any) -> Edit:
        """The edit with `changes` (status, undone_by), stored (its steps kept where they are)."""
        new = replace(edit, **changes)
        self.put(new)
        return new

    def clear(self) -> None:
        keys = [r["id"] for k in (KIND, PART_KIND) for r in self.meta.rows(k, self.graph.name)]
        self.meta.delete(keys)

"""The edit log, stored with the graph in its metadata collection: one small record per edit (kind "edit", key
`edit:<graph>:<seq>`: what was asked, a summary, when, its state, the documents it touched) and its steps
(draft.py) beside it, zlib-compressed, in numbered part records (kind "edit-part"; a server limits a JSON field to
64 KB). Listing the log reads the small records only; an edit's steps are read when it is undone or resumed.

An edit is written *pending* (steps first, then the record) before its steps are applied and marked *done* after;
a pending edit found later (the process died in between) is applied again (run.resume_pending)."""

from __future__ import annotations

import base64
import json
import time
import zlib
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
    parts: int = 0  # how many part records hold its steps
    steps: list[dict] = field(default_factory=list, compare=False, repr=False)  # loaded by EditLog.with_steps

    def record(self) -> dict[str, Any]:
        """As exported (without its steps: an import plans it again on the graph it lands in)."""
        out = asdict(self)
        out.pop("steps")
        out.pop("parts")
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

    def all(self) -> list[Edit]:
        """Every edit, without its steps."""
        out = []
        for r in sorted(self.meta.rows(KIND, self.graph.name), key=lambda r: r["payload"]["seq"]):
            p = dict(r["payload"])
            for k in ("docs", "relations"):
                p[k] = tuple(p.get(k, ()))
            out.append(Edit(**p))
        return out

    def with_steps(self, edit: Edit) -> Edit:
        """The edit with its steps read from its part records."""
        chunks = [self.meta.get(f"{self.key(edit.seq)}:{n:04d}") for n in range(edit.parts)]
        if any(c is None for c in chunks):
            raise RuntimeError(f"edit #{edit.seq} of graph {self.graph.name!r} lost part of its steps")
        packed = "".join(c["text"] for c in chunks)  # type: ignore[index]
        return replace(edit, steps=json.loads(zlib.decompress(base64.b64decode(packed))) if packed else [])

    def next_seq(self) -> int:
        edits = self.all()
        return edits[-1].seq + 1 if edits else 1

    def begin(self, edit: Edit) -> Edit:
        """Store a new edit, pending: its steps, then its record."""
        text = base64.b64encode(zlib.compress(json.dumps(edit.steps).encode("utf-8"), 6)).decode("ascii")
        chunks = [text[i : i + PART_CHARS] for i in range(0, len(text), PART_CHARS)]
        for n, chunk in enumerate(chunks):
            self.meta.put(f"{self.key(edit.seq)}:{n:04d}", PART_KIND, self.graph.name, {"seq": edit.seq, "text": chunk})
        edit = replace(edit, parts=len(chunks))
        self.put(edit)
        return edit

    def put(self, edit: Edit) -> None:
        payload = asdict(edit)
        payload.pop("steps")
        for k in ("docs", "relations"):
            payload[k] = list(payload[k])
        self.meta.put(self.key(edit.seq), KIND, self.graph.name, payload)

    def mark(self, edit: Edit, **changes: Any) -> Edit:
        """The edit with `changes` (status, undone_by), stored (its steps stay where they are)."""
        new = replace(edit, **changes)
        self.put(new)
        return new

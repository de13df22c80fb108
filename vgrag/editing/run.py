"""Running edits: plan (ops.py) → log pending (log.py) → apply (steps.py) → log done, all under the graph's lock.
The same path serves a user's fix, a suggested fix, an undo, a resume after a crash and a replay after a
re-ingest or an import."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any

from ..embed import Embedder
from ..storage.store import Graph
from .check import EditError
from .draft import Draft, invert
from .log import Edit, EditLog
from .ops import OPERATIONS
from .steps import apply_steps, state_matches

log = logging.getLogger(__name__)


def _commit(graph: Graph, embedder: Embedder, edit: Edit) -> Edit:
    """Log `edit` pending, apply its steps, log it done (and mark the edit an undo reverses)."""
    book = EditLog(graph)
    edit = book.begin(edit)
    apply_steps(graph, embedder, edit.steps)
    return _finish(book, edit)


def _finish(book: EditLog, edit: Edit) -> Edit:
    if edit.undoes is not None:
        target = next((e for e in book.all() if e.seq == edit.undoes), None)
        if target is not None and target.undone_by != edit.seq:
            book.mark(target, undone_by=edit.seq)
    return book.mark(edit, status="done")


def resume_pending(graph: Graph, embedder: Embedder) -> list[Edit]:
    """Apply again the edits a stopped process left pending (their steps are idempotent); the edits finished. Takes
    the graph's lock only when there is one (listing the log never waits for an ingest)."""
    if not any(e.status == "pending" for e in EditLog(graph).all()):
        return []
    with graph.lock:
        book = EditLog(graph)
        done = []
        for e in (e for e in book.all() if e.status == "pending"):
            log.warning("edit #%d (%s) was cut short; applying it again", e.seq, e.summary)
            apply_steps(graph, embedder, book.with_steps(e).steps)
            done.append(_finish(book, e))
        return done


def plan_edit(graph: Graph, op: str, args: dict[str, Any]) -> tuple[Draft, str]:
    """The edit's draft and summary without writing anything (EditError when it cannot be done)."""
    fn = OPERATIONS.get(op)
    if fn is None:
        raise EditError(f"Unknown edit {op!r}; one of: {', '.join(OPERATIONS)}.")
    d = Draft(graph)
    try:
        summary = fn(d, **args)
    except TypeError as e:
        raise EditError(f"Edit {op!r} was given the wrong arguments ({e}).") from e
    return d, summary


def apply_edit(graph: Graph, embedder: Embedder, op: str, args: dict[str, Any]) -> Edit:
    """Validate, plan and apply one edit; the logged Edit. EditError (nothing written) when it cannot be done."""
    with graph.lock:
        book = EditLog(graph)
        edits = book.all()  # read once: the pending check and the next number (a server read is a round trip)
        if any(e.status == "pending" for e in edits):
            resume_pending(graph, embedder)
            edits = book.all()
        d, summary = plan_edit(graph, op, args)
        steps = d.steps()
        if not steps:
            raise EditError(f"Nothing to change: {summary} leaves the graph as it is.")
        edit = Edit(edits[-1].seq + 1 if edits else 1, op, dict(args), summary, time.time(), docs=tuple(d.docs()),
                    relations=tuple(dict.fromkeys(d.new_relations)), steps=steps)  # fmt: skip
        return _commit(graph, embedder, edit)


def undoable(graph: Graph) -> list[Edit]:
    """The edits an undo would reverse, the latest first (done, not undone, not themselves undos)."""
    edits = EditLog(graph).all()
    return [e for e in reversed(edits) if e.status == "done" and e.op != "undo" and e.undone_by is None]


def undo(graph: Graph, embedder: Embedder, n: int = 1) -> list[Edit]:
    """Reverse the last `n` edits, latest first, each by a logged edit applying its inverse steps."""
    if not isinstance(n, int) or n < 1:
        raise EditError(f"Undo needs a number of edits of at least 1 (got {n!r}).")
    with graph.lock:
        resume_pending(graph, embedder)
        todo = undoable(graph)
        if len(todo) < n:
            have = f"only {len(todo)} edit(s) can be undone" if todo else "there is no edit left to undo"
            raise EditError(f"Cannot undo {n} edit(s) of graph {graph.name!r}: {have} (the log's start).")
        out = []
        for e in todo[:n]:
            target = EditLog(graph).with_steps(e)
            changed = state_matches(graph, target.steps)
            if changed:
                raise EditError(
                    f"Edit #{e.seq} ({e.summary}) cannot be undone: the graph changed since ({len(changed)} record(s) "
                    "were added or deleted afterwards, e.g. by a re-ingest). Fix it with a new edit instead."
                )
            book = EditLog(graph)
            edit = Edit(book.next_seq(), "undo", {"seq": e.seq}, f"undid #{e.seq}: {e.summary}", time.time(),
                        docs=e.docs, undoes=e.seq, steps=invert(target.steps))  # fmt: skip
            out.append(_commit(graph, embedder, edit))
        return out


@dataclass(frozen=True)
class Replay:
    applied: tuple[Edit, ...]
    stale: tuple[tuple[dict, str], ...]  # (the edit's record, why it no longer applies)


def replay_edits(graph: Graph, embedder: Embedder, records: list[dict], docs: set[str] | None = None,
                 own: bool = False) -> Replay:  # fmt: skip
    """Plan again and apply the edits of `records` (an exported log, or with `own` this graph's log after a
    re-ingest) where their targets exist; `docs`: only the edits that touched these documents. Undone edits and
    undos are skipped; an edit whose target is gone is returned as stale with the reason, never dropped silently.
    With `own`, each original is marked "replayed" (the new edit carries it on) or "stale" (kept in the log)."""
    applied, stale = [], []
    with graph.lock:
        book = EditLog(graph)
        full = {e.seq: e for e in book.all()} if own else {}  # the originals, to mark
        for r in records:
            if r.get("op") == "undo" or r.get("undone_by") is not None or r.get("status") != "done":
                continue
            if docs is not None and not docs & set(r.get("docs", ())):
                continue
            try:
                applied.append(apply_edit(graph, embedder, r["op"], r["args"]))
                status = "replayed"
            except EditError as e:
                stale.append((r, f"edit #{r.get('seq')} ({r.get('summary')}) no longer applies: {e}"))
                status = "stale"
            if own and r.get("seq") in full:
                book.mark(full[r["seq"]], status=status)
    return Replay(tuple(applied), tuple(stale))


def replay_own_edits(graph: Graph, embedder: Embedder, docs: set[str]) -> Replay:
    """After a changed document replaced its older content (ingest): this graph's edits that touched it, applied
    again where their targets exist; the others marked stale and returned."""
    records = [e.record() for e in EditLog(graph).all()]
    return replay_edits(graph, embedder, records, docs, own=True)

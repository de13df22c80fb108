"""Fixing the graph by hand: entity and relation operations, a log of them stored with the graph (undo, resume
after a crash, replay after a re-ingest or an import), and suggested fixes. See docs/editing.md."""

from __future__ import annotations

from .check import EditError
from .log import Edit, EditLog
from .run import apply_edit, replay_edits, resume_pending, undo

__all__ = ["Edit", "EditError", "EditLog", "apply_edit", "replay_edits", "resume_pending", "undo"]

"""The edit log in and out of a JSON export (storage/export.py writes it as the export's "edits" list)."""

from __future__ import annotations

import json

from .check import EditError
from .log import EditLog
from .ops import OPERATIONS


def edit_records(graph: object) -> list[dict]:
    """The graph's log as exported: what each edit asked (op, args), its summary, when, status, documents."""
    return [e.record() for e in EditLog(graph).all()]  # type: ignore[arg-type]


def read_edit_records(name: str, data: bytes) -> list[dict]:
    """The "edits" list of a JSON export; EditError naming the file and the entry when it is not one."""
    try:
        obj = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        hint = "export one with `vgrag export --format json`"
        raise EditError(f"{name}: not a JSON export of a graph ({e}); {hint}.") from e
    edits = obj.get("edits") if isinstance(obj, dict) else None
    if not isinstance(edits, list):
        raise EditError(f'{name}: has no "edits" list; export the graph again with this version.')
    for n, r in enumerate(edits):
        ok = isinstance(r, dict) and r.get("op") in (*OPERATIONS, "undo") and isinstance(r.get("args"), dict)
        if not ok:
            raise EditError(f"{name}: edit {n + 1} is not an edit record (op and args); fix or remove it.")
    return edits

"""`python -m vgrag edit …`: the edit operations, the log, undo and the suggested fixes on the command line."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .log import Edit

Out = Callable[[str], None]


def add_edit_parser(sub: Any) -> None:
    e = sub.add_parser("edit", help="fix the graph by hand: merge, rename, delete, edit relations, undo, suggestions")
    ops = e.add_subparsers(dest="edit_cmd", required=True)
    m = ops.add_parser("merge", help="merge entity A into B (B keeps its name, A becomes its alias)")
    m.add_argument("source")
    m.add_argument("target")
    r = ops.add_parser("rename", help="rename an entity")
    r.add_argument("entity")
    r.add_argument("new_name")
    s = ops.add_parser("split-alias", help="make an alias of an entity an entity of its own again")
    s.add_argument("entity")
    s.add_argument("alias")
    ops.add_parser("delete-entity", help="delete an entity and its relations; its passages stay").add_argument("entity")
    x = ops.add_parser("edit-relation", help="change a relation's subject, predicate or object")
    x.add_argument("relation", help="the relation's id (rel-…)")
    x.add_argument("--subject")
    x.add_argument("--predicate")
    x.add_argument("--object")
    ops.add_parser("delete-relation", help="delete a relation").add_argument("relation")
    a = ops.add_parser("add-relation", help="add a triple by hand, from a passage")
    a.add_argument("--passage", required=True, help="the id of the passage that states it (psg-…)")
    a.add_argument("subject")
    a.add_argument("predicate")
    a.add_argument("object")
    ops.add_parser("undo", help="undo the last N edits").add_argument("n", nargs="?", type=int, default=1)
    ops.add_parser("log", help="the graph's edits, oldest first")
    g = ops.add_parser("suggest", help="suggested fixes (or --apply KIND: apply all of that kind)")
    g.add_argument("--apply", metavar="KIND", help="apply every suggestion of this kind (the count is shown first)")
    ops.add_parser("replay", help="apply the edit log of a JSON export to this graph").add_argument("file")


def _line(e: Edit) -> str:
    state = f"undone by #{e.undone_by}" if e.undone_by is not None else e.status
    return f"#{e.seq} {e.when} {e.op}: {e.summary} [{state}]"


def cmd_edit(ws: Any, a: argparse.Namespace, out: Out) -> int:
    g, c = a.graph, a.edit_cmd
    if c == "log":
        edits = ws.edits(g)
        for e in edits:
            out(_line(e))
        if not edits:
            out("no edits yet")
        return 0
    if c == "undo":
        for e in ws.undo(a.n, graph=g):
            out(_line(e))
        return 0
    if c == "suggest":
        return _suggest(ws, a, out)
    if c == "replay":
        done = ws.import_edits(Path(a.file), graph=g)
        for e in done.applied:
            out("applied " + _line(e))
        for _, why in done.stale:
            out("not applied: " + why)
        return 0
    call = {
        "merge": lambda: ws.merge_entities(a.source, a.target, graph=g),
        "rename": lambda: ws.rename_entity(a.entity, a.new_name, graph=g),
        "split-alias": lambda: ws.split_alias(a.entity, a.alias, graph=g),
        "delete-entity": lambda: ws.delete_entity(a.entity, graph=g),
        "edit-relation": lambda: ws.edit_relation(a.relation, a.subject, a.predicate, a.object, graph=g),
        "delete-relation": lambda: ws.delete_relation(a.relation, graph=g),
        "add-relation": lambda: ws.add_relation(a.passage, a.subject, a.predicate, a.object, graph=g),
    }[c]
    out(_line(call()))
    return 0


def _suggest(ws: Any, a: argparse.Namespace, out: Out) -> int:
    found = ws.suggestions(g := a.graph)
    if not a.apply:
        for s in found:
            out(f"[{s.kind}] {s.title}")
            for line in s.preview:
                out("    " + line)
        out(f"{len(found)} suggestion(s); apply a kind with `edit suggest --apply KIND`")
        return 0
    mine = [s for s in found if s.kind == a.apply]
    out(f"{len(mine)} suggestion(s) of kind {a.apply!r} to apply")
    for s in mine:
        try:
            for e in ws.apply_suggestion(s, graph=g):
                out(_line(e))
        except ValueError as e:  # an earlier fix of this batch already changed its target
            out(f"skipped {s.title}: {e}")
    return 0

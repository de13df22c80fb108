"""An edit reads and writes only the rows it changes: on a graph four times larger, a relation edit and a merge
touch exactly as many rows (the time that remains is the store's commit)."""

from __future__ import annotations

import json

from vgrag import Settings, Workspace
from vgrag.text import relation_id


def _graph(ws, name: str, n: int) -> None:
    rows = [{"title": f"R{i}", "passage": f"Company {i} owns Company {i + 1}. Hub A advises Company {i}.",
             "triples": [[f"Company {i}", "owns", f"Company {i + 1}"]] + ([["Hub A", "advises", f"Company {i}"]]
                         if i < 10 else [])} for i in range(n)]  # fmt: skip
    ws.drop(name)
    ws.import_triples((f"{name}.jsonl", "\n".join(json.dumps(r) for r in rows).encode()), graph=name)


def _rows_touched(ws, name: str, monkeypatch, edit) -> tuple[int, int]:
    g = ws.graph(name)
    read, written = [0], [0]
    get, write = g.get, g.write
    monkeypatch.setattr(g, "get", lambda kind, ids: read.__setitem__(0, read[0] + len(ids)) or get(kind, ids))
    monkeypatch.setattr(g, "write", lambda kind, items, existing: written.__setitem__(0, written[0] + len(items))
                        or write(kind, items, existing))  # fmt: skip
    edit()
    monkeypatch.undo()
    return read[0], written[0]


def test_edit_and_merge_touch_the_same_rows_on_a_4x_graph(db, embedder, monkeypatch):
    ws = Workspace(Settings(milvus_uri="unused"), db, embedder)
    touched = []
    for name, n in (("grow_small", 25), ("grow_big", 100)):
        _graph(ws, name, n)
        rel = relation_id("Company 3", "owns", "Company 4")
        a = _rows_touched(ws, name, monkeypatch, lambda n=name, r=rel: ws.edit_relation(r, predicate="bought", graph=n))
        b = _rows_touched(ws, name, monkeypatch, lambda n=name: ws.merge_entities("Hub A", "Company 0", graph=n))
        touched.append((a, b))
        ws.drop(name)
    assert touched[0] == touched[1] and touched[0][1][1] > 10  # the merge re-pointed Hub A's 10 relations

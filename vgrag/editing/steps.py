"""Applying an edit's steps (draft.py) to the graph. Every step says what the record must be afterwards (a whole
relation or entity, or ids added to / removed from a list), so applying the same steps twice — a resume after a
crash halfway — leaves the graph as applying them once. One read per kind, one write per kind, one flush."""

from __future__ import annotations

import os
import time
from dataclasses import replace

from ..embed import Embedder
from ..storage.store import Graph
from .draft import Step, from_dict, with_ids

ALIAS_KEY = "alias:{graph}:edits"  # the edits' aliases: read with the ingest's (kind "alias") by Explore
PAUSE_ENV = "VGRAG_EDIT_PAUSE"  # tests: "n" = stop for good after the n-th group of writes (to be killed there)


class Pause:
    """A test hook (VGRAG_EDIT_PAUSE=n): after the n-th group of writes of an edit, make them durable, say so on
    stdout and wait (a test kills the process there). Without the variable, nothing."""

    def __init__(self, graph: Graph) -> None:
        self.graph, self.at, self.seen = graph, int(os.environ.get(PAUSE_ENV, "0") or 0), 0

    def __call__(self) -> None:
        self.seen += 1
        if self.at and self.seen == self.at:
            self.graph.flush()
            os.write(1, b"edit-paused\n")
            time.sleep(600)


def _whole(graph: Graph, embedder: Embedder, kind: str, steps: list[Step], pause: Pause) -> None:
    """Relations (and entities made or deleted): written as `after`, deleted when `after` is None."""
    puts = [from_dict(kind, s["after"]) for s in steps if s["after"] is not None]
    gone = [s["id"] for s in steps if s["after"] is None]
    if puts:
        stored = {r.id: (r, v) for r, v in graph.get_with_vectors(kind, [r.id for r in puts])}  # type: ignore[arg-type]
        text = (lambda r: r.text) if kind == "relations" else (lambda e: e.name)

        def same(r: object) -> bool:
            return r.id in stored and text(stored[r.id][0]) == text(r)  # type: ignore[attr-defined]

        fresh = [r for r in puts if not same(r)]
        vecs = dict(zip([r.id for r in fresh], embedder.embed([text(r) for r in fresh]), strict=True)) if fresh else {}
        items = [(r, vecs[r.id] if r.id in vecs else stored[r.id][1]) for r in puts]
        graph.write(kind, items, set(stored))  # type: ignore[arg-type]
        pause()
    if gone:
        graph.delete(kind, gone)  # type: ignore[arg-type]
        pause()


def _patches(graph: Graph, embedder: Embedder, kind: str, steps: list[Step], pause: Pause) -> None:
    """Id lists of entities and passages that stay: ids removed and added; an entity's new name re-embedded."""
    if not steps:
        return
    by_id = {s["id"]: s for s in steps}
    items, names = [], []
    for rec, vec in graph.get_with_vectors(kind, list(by_id)):  # type: ignore[arg-type]
        s = by_id[rec.id]
        changes = {f: with_ids(getattr(rec, f), added, removed) for f, (removed, added) in s["patch"].items()}
        if "name" in s:
            changes["name"] = s["name"][1]
            names.append(len(items))
        items.append((replace(rec, **changes), vec))
    if names:
        vecs = embedder.embed([items[i][0].name for i in names])  # type: ignore[attr-defined]
        for n, i in enumerate(names):
            items[i] = (items[i][0], vecs[n])
    graph.write(kind, items, {rec.id for rec, _ in items})  # type: ignore[arg-type]
    pause()


def _aliases(graph: Graph, steps: list[Step]) -> None:
    if not steps:
        return
    meta, key = graph.documents.meta, ALIAS_KEY.format(graph=graph.name)
    stored = {k: set(v) for k, v in (meta.get(key) or {}).items()}
    for s in steps:
        for canon, forms in s["remove"].items():
            stored[canon] = stored.get(canon, set()) - set(forms)
        for canon, forms in s["add"].items():
            stored.setdefault(canon, set()).update(forms)
    payload = {k: sorted(v) for k, v in sorted(stored.items()) if v}
    if payload:
        meta.put(key, "alias", graph.name, payload)
    else:
        meta.delete([key])


def apply_steps(graph: Graph, embedder: Embedder, steps: list[Step]) -> None:
    """Make the graph as `steps` say (idempotent), under the graph's lock, ending with a flush."""
    of = {k: [s for s in steps if s["k"] == k] for k in ("relations", "entities", "passages", "aliases")}
    pause = Pause(graph)
    with graph.lock:
        whole_e = [s for s in of["entities"] if "patch" not in s]
        _whole(graph, embedder, "entities", [s for s in whole_e if s["after"] is not None], pause)  # new ends first
        _whole(graph, embedder, "relations", of["relations"], pause)
        _patches(graph, embedder, "entities", [s for s in of["entities"] if "patch" in s], pause)
        _patches(graph, embedder, "passages", of["passages"], pause)
        _whole(graph, embedder, "entities", [s for s in whole_e if s["after"] is None], pause)
        _aliases(graph, of["aliases"])
        graph.flush()


def state_matches(graph: Graph, steps: list[Step]) -> list[str]:
    """The records whose presence differs from what `steps` left (the graph changed since): [] when none."""
    out = []
    for kind in ("relations", "entities"):
        whole = [s for s in steps if s["k"] == kind and "patch" not in s]
        present = {r.id for r in graph.get(kind, [s["id"] for s in whole])}  # type: ignore[arg-type]
        out += [s["id"] for s in whole if (s["after"] is not None) != (s["id"] in present)]
    return out

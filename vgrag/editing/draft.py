"""An edit planned in memory: the records it reads, changed as the operation goes, then compared with what was
read to give the steps that make the graph so (steps.py applies them; their inverse undoes them).

Relations and entities created or deleted are kept whole in a step (before and after), an entity or a passage
that stays has only the ids added to and removed from its lists (a passage's text is never copied into the log),
and the alias changes go to the graph's edit-alias record (Explore shows them with the ingest's aliases)."""

from __future__ import annotations

from dataclasses import asdict, replace
from typing import Any

from ..models import Entity, Passage, Relation
from ..storage.store import Graph

LISTS = {"entities": ("relation_ids", "passage_ids"), "passages": ("entity_ids", "relation_ids")}
Step = dict[str, Any]


def to_dict(rec: Entity | Relation) -> dict:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(rec).items()}


def from_dict(kind: str, d: dict) -> Entity | Relation:
    cls = Relation if kind == "relations" else Entity
    return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in d.items()})  # type: ignore[arg-type]


def with_ids(old: tuple[str, ...], add: list[str] | tuple[str, ...] = (), remove: object = ()) -> tuple[str, ...]:
    """`old` without `remove`, then `add` appended (each once, order kept)."""
    gone = set(remove)  # type: ignore[call-overload]
    return tuple(dict.fromkeys([i for i in old if i not in gone] + list(add)))


class Draft:
    """The records one edit touches: as read (`before`) and as the edit leaves them (`now`); None = absent."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.before: dict[str, dict[str, Any]] = {"entities": {}, "relations": {}, "passages": {}}
        self.now: dict[str, dict[str, Any]] = {"entities": {}, "relations": {}, "passages": {}}
        self.aliases_add: dict[str, set[str]] = {}
        self.aliases_remove: dict[str, set[str]] = {}
        self.new_relations: list[str] = []  # relation ids the edit made or changed (the edit's `after`)

    # ---------- reads (each record once per edit)
    def load(self, kind: str, ids: list[str] | tuple[str, ...] | set[str]) -> None:
        todo = [i for i in dict.fromkeys(ids) if i not in self.before[kind]]
        if not todo:
            return
        found = {r.id: r for r in self.graph.get(kind, todo)}  # type: ignore[arg-type]
        for i in todo:
            self.before[kind][i] = found.get(i)
            self.now[kind][i] = found.get(i)

    def get(self, kind: str, rid: str) -> Any:
        self.load(kind, [rid])
        return self.now[kind][rid]

    def entity(self, eid: str) -> Entity | None:
        return self.get("entities", eid)

    def relation(self, rid: str) -> Relation | None:
        return self.get("relations", rid)

    def passage(self, pid: str) -> Passage | None:
        return self.get("passages", pid)

    # ---------- changes
    def put(self, kind: str, rec: Any) -> None:
        self.load(kind, [rec.id])
        self.now[kind][rec.id] = rec

    def drop(self, kind: str, rid: str) -> None:
        self.load(kind, [rid])
        self.now[kind][rid] = None

    def relink(self, kind: str, rid: str, field: str, add: tuple[str, ...] = (), remove: tuple[str, ...] = ()) -> None:
        """Add ids to / remove ids from one id list of a record (nothing when the record is absent)."""
        rec = self.get(kind, rid)
        if rec is not None:
            self.now[kind][rid] = replace(rec, **{field: with_ids(getattr(rec, field), add, remove)})

    def alias(self, canon: str, forms: set[str], add: bool = True) -> None:
        forms = {f for f in forms if f and f != canon}
        if forms:
            (self.aliases_add if add else self.aliases_remove).setdefault(canon, set()).update(forms)

    # ---------- the result
    def docs(self) -> list[str]:
        """The documents whose passages the edit touched (a changed re-ingest of one replays its edits)."""
        return sorted({p.doc_id for p in self.before["passages"].values() if p is not None})

    def steps(self) -> list[Step]:
        out: list[Step] = []
        for kind in ("relations", "entities", "passages"):
            for rid, old in self.before[kind].items():
                new = self.now[kind][rid]
                if old == new:
                    continue
                if kind == "relations" or old is None or new is None:
                    before = to_dict(old) if old is not None else None
                    out.append({"k": kind, "id": rid, "before": before, "after": to_dict(new) if new else None})
                    continue
                patch = {}
                for field in LISTS[kind]:
                    a, b = getattr(old, field), getattr(new, field)
                    added, removed = [i for i in b if i not in a], [i for i in a if i not in b]
                    if added or removed:
                        patch[field] = [removed, added]
                step: Step = {"k": kind, "id": rid, "patch": patch}
                if kind == "entities" and old.name != new.name:
                    step["name"] = [old.name, new.name]
                out.append(step)
        if self.aliases_add or self.aliases_remove:
            out.append({
                "k": "aliases",
                "add": {k: sorted(v) for k, v in sorted(self.aliases_add.items())},
                "remove": {k: sorted(v) for k, v in sorted(self.aliases_remove.items())},
            })  # fmt: skip
        return out


def invert(steps: list[Step]) -> list[Step]:
    """The steps that take the graph back to before `steps`."""
    out: list[Step] = []
    for s in steps:
        if s["k"] == "aliases":
            out.append({"k": "aliases", "add": s["remove"], "remove": s["add"]})
        elif "patch" in s:
            back: Step = {"k": s["k"], "id": s["id"], "patch": {f: [a, r] for f, (r, a) in s["patch"].items()}}
            if "name" in s:
                back["name"] = [s["name"][1], s["name"][0]]
            out.append(back)
        else:
            out.append({"k": s["k"], "id": s["id"], "before": s["after"], "after": s["before"]})
    return out

"""The edit operations, each planned on a Draft (draft.py): validated first (EditError, nothing written), then
the records changed in memory. Each returns a one-line summary. Arguments are names and triples, not stored
rows, so an edit can be planned again on a graph rebuilt from its documents (run.replay_edits).

A relation's id is the content hash of (subject, predicate, object) (text.relation_id): a relation whose subject,
predicate or object changes becomes a new relation, and where that relation exists already the two collapse into
one with the union of their passages."""

from __future__ import annotations

import re
from dataclasses import replace

from ..extraction.entities import graph_aliases
from ..models import Entity, Relation
from ..text import entity_id, normalize_name, relation_id
from .check import EditError, check_text
from .draft import Draft
from .log import EditLog


def find_entity(d: Draft, ref: str) -> Entity:
    """An entity by id ("ent-…") or name, or EditError naming what was asked."""
    ref = ref if isinstance(ref, str) else ""
    eid = ref if ref.startswith("ent-") else entity_id(ref)
    found = d.entity(eid)
    if found is None:
        raise EditError(
            f"Graph {d.graph.name!r} has no entity {ref!r} (deleted or merged by another edit?); pick one that exists."
        )
    return found


def find_relation(d: Draft, rid: str) -> Relation:
    found = d.relation(rid) if isinstance(rid, str) else None
    if found is None:
        raise EditError(
            f"Graph {d.graph.name!r} has no relation {rid!r} (deleted or changed by another edit?); reload the page."
        )
    return found


def ensure_entity(d: Draft, name: str) -> Entity:
    """The entity with this name's id, made (empty) when absent."""
    eid = entity_id(name)
    found = d.entity(eid)
    if found is None:
        found = Entity(eid, name)
        d.put("entities", found)
    return found


def attach(d: Draft, rel: Relation) -> None:
    """Store `rel` (merged with a relation of the same id: passages united) and link it from both ends and its
    passages."""
    old = d.relation(rel.id)
    if old is not None:
        rel = Relation(rel.id, old.subject, old.predicate, old.object, old.subject_id, old.object_id,
                       tuple(dict.fromkeys(old.passage_ids + rel.passage_ids)))  # fmt: skip
    d.put("relations", rel)
    for eid in {rel.subject_id, rel.object_id}:
        d.relink("entities", eid, "relation_ids", add=(rel.id,))
        d.relink("entities", eid, "passage_ids", add=rel.passage_ids)
    for pid in rel.passage_ids:
        d.relink("passages", pid, "relation_ids", add=(rel.id,))
        d.relink("passages", pid, "entity_ids", add=(rel.subject_id, rel.object_id))
    d.new_relations.append(rel.id)


def detach(d: Draft, rel: Relation) -> None:
    """Remove a relation and every id list's mention of it."""
    d.drop("relations", rel.id)
    for eid in {rel.subject_id, rel.object_id}:
        d.relink("entities", eid, "relation_ids", remove=(rel.id,))
    for pid in rel.passage_ids:
        d.relink("passages", pid, "relation_ids", remove=(rel.id,))


def retire(d: Draft, eid: str, lost_last_relation: bool = True) -> None:
    """Remove an entity the edit left without relations (unlinked from its passages): an endpoint of a relation
    the user deleted or changed; with `lost_last_relation` False (a neighbour of a merged or deleted entity), only
    when it has no passage either."""
    e = d.entity(eid)
    if e is None or e.relation_ids or (e.passage_ids and not lost_last_relation):
        return
    for pid in e.passage_ids:
        d.relink("passages", pid, "entity_ids", remove=(eid,))
    d.drop("entities", eid)


def rekey(d: Draft, rel: Relation, s: str, p: str, o: str) -> str | None:
    """`rel` becomes (s, p, o) with the same passages; None when it became a loop (an entity related to itself:
    dropped)."""
    sid, oid = entity_id(s), entity_id(o)
    d.load("entities", [rel.subject_id, rel.object_id, sid, oid])  # one read per kind (a server read is a round trip)
    d.load("passages", rel.passage_ids)
    detach(d, rel)
    if sid == oid:
        return None
    s_name, o_name = ensure_entity(d, s).name, ensure_entity(d, o).name
    new = Relation(relation_id(s_name, p, o_name), s_name, p, o_name, sid, oid, rel.passage_ids)
    attach(d, new)
    return new.id


def prefetch(d: Draft, a: Entity, name: str | None = None) -> None:
    """Read at once what moving (to `name`) or deleting the relations of `a` touches: their ends, their passages,
    and (with `name`) the relations they become. Each `Draft` read is one round trip; on a server ~0.2 s right
    after a write, so a merge of 50 relations read one record at a time spent ~9 s reading."""
    rels = [r for rid in a.relation_ids if (r := d.now["relations"].get(rid)) is not None]
    d.load("entities", {e for r in rels for e in (r.subject_id, r.object_id)} | ({entity_id(name)} if name else set()))
    d.load("passages", {p for r in rels for p in r.passage_ids} | set(a.passage_ids))
    if name is None:
        return

    def named(n: str) -> str:  # the name rekey writes: the stored entity's, else as given
        e = d.now["entities"].get(entity_id(n))
        return e.name if e is not None else n

    ends = [(name if r.subject_id == a.id else r.subject, r.predicate, name if r.object_id == a.id else r.object)
            for r in rels]  # fmt: skip
    d.load("relations", [relation_id(named(s), p, named(o)) for s, p, o in ends if entity_id(s) != entity_id(o)])


# ---------- entity operations
def merge(d: Draft, source: str, target: str) -> str:
    a, b = find_entity(d, source), find_entity(d, target)
    if a.id == b.id:
        raise EditError(f"{a.name!r} and {b.name!r} are the same entity; pick two different entities to merge.")
    _move(d, a, b.name)
    known = graph_aliases(d.graph).all()
    d.alias(b.name, {a.name, *known.get(a.name, ())})
    return f"merged {a.name!r} into {b.name!r}"


def _move(d: Draft, a: Entity, name: str) -> None:
    """Every relation and passage of `a` re-pointed to the entity named `name`; `a` removed."""
    b = ensure_entity(d, name)
    d.load("relations", a.relation_ids)
    prefetch(d, a, b.name)
    for rid in a.relation_ids:
        rel = d.relation(rid)
        if rel is None:
            continue
        s = b.name if rel.subject_id == a.id else rel.subject
        o = b.name if rel.object_id == a.id else rel.object
        rekey(d, rel, s, rel.predicate, o)
    d.load("passages", a.passage_ids)
    for pid in a.passage_ids:
        d.relink("passages", pid, "entity_ids", add=(b.id,), remove=(a.id,))
    d.relink("entities", b.id, "passage_ids", add=a.passage_ids)
    d.drop("entities", a.id)
    for eid in {e for r in a.relation_ids if (x := d.before["relations"].get(r)) for e in (x.subject_id, x.object_id)}:
        retire(d, eid, lost_last_relation=False)


def rename(d: Draft, entity: str, new_name: str) -> str:
    a = find_entity(d, entity)
    name = check_text(new_name, "new name")
    if name == a.name:
        raise EditError(f"{a.name!r} already has this name.")
    if entity_id(name) == a.id:  # the same key written differently (case, spacing): same ids, new texts
        d.put("entities", Entity(a.id, name, a.relation_ids, a.passage_ids))
        d.load("relations", a.relation_ids)
        for rid in a.relation_ids:
            if (rel := d.relation(rid)) is not None:
                s = name if rel.subject_id == a.id else rel.subject
                o = name if rel.object_id == a.id else rel.object
                d.put("relations", replace(rel, subject=s, object=o))
                d.new_relations.append(rel.id)
        return f"renamed {a.name!r} to {name!r}"
    if d.entity(entity_id(name)) is not None:
        raise EditError(f"An entity {name!r} exists already; merge {a.name!r} into it instead of renaming.")
    _move(d, a, name)
    return f"renamed {a.name!r} to {name!r}"


def _mentions(text: str, name: str) -> bool:
    return re.search(r"(?<!\w)" + re.escape(normalize_name(name)) + r"(?!\w)", normalize_name(text)) is not None


def split_alias(d: Draft, entity: str, alias: str) -> str:
    """An alias of an entity becomes its own entity again. Merged by an edit: the relations and passages it
    brought go back to it (the merge's log says which). Merged at ingest: the relations whose passages write the
    alias and not the entity's name move to it, and the passages that write it link to it."""
    b = find_entity(d, entity)
    alias = check_text(alias, "alias")
    known = graph_aliases(d.graph).all().get(b.name, ())
    if alias not in known:
        raise EditError(f"{alias!r} is not an alias of {b.name!r} (its aliases: {', '.join(known) or 'none'}).")
    if d.entity(entity_id(alias)) is not None:
        raise EditError(f"{alias!r} is an entity of its own already; nothing to split.")
    says = _unmerge(d, b, alias)
    if says is None:
        says = _split_by_text(d, b, alias)
    a = ensure_entity(d, alias)
    for pid in says:
        d.relink("passages", pid, "entity_ids", add=(a.id,))
    d.relink("entities", a.id, "passage_ids", add=tuple(sorted(says)))
    d.alias(b.name, {alias}, add=False)
    return f"split {alias!r} off {b.name!r}"


def _unmerge(d: Draft, b: Entity, alias: str) -> set[str] | None:
    """The relations a logged merge of `alias` into `b` re-pointed, back on `alias`; its passages (None: no such
    merge in the log)."""
    book = EditLog(d.graph)
    for e in reversed(book.all()):
        if e.op != "merge" or e.undone_by is not None or e.status == "pending":
            continue
        e = book.with_steps(e)
        gone = next((s for s in e.steps if s["k"] == "entities" and "patch" not in s and s["after"] is None
                     and s["before"]["name"] == alias), None)  # fmt: skip
        if gone is None:
            continue
        aid = gone["before"]["id"]
        made = {s["id"]: s for s in e.steps if s["k"] == "relations"}
        for s in made.values():
            old = s["before"]
            if s["after"] is not None or aid not in (old["subject_id"], old["object_id"]):
                continue
            subj = b.name if old["subject_id"] == aid else old["subject"]
            obj = b.name if old["object_id"] == aid else old["object"]
            now = d.relation(relation_id(subj, old["predicate"], obj))
            if now is None:
                continue
            mine = tuple(old["passage_ids"])
            was = made.get(now.id, {}).get("before")  # b's own relation it collapsed into, as it was before
            detach(d, now)
            if was is not None:  # b keeps its own relation with its own passages
                attach(d, Relation(now.id, now.subject, now.predicate, now.object, now.subject_id, now.object_id,
                                   tuple(p for p in now.passage_ids if p in was["passage_ids"])))  # fmt: skip
            s_name = alias if old["subject_id"] == aid else old["subject"]
            o_name = alias if old["object_id"] == aid else old["object"]
            ensure_entity(d, s_name), ensure_entity(d, o_name)
            rid = relation_id(s_name, old["predicate"], o_name)
            attach(d, Relation(rid, s_name, old["predicate"], o_name, entity_id(s_name), entity_id(o_name), mine))
        patch = next((s["patch"] for s in e.steps if s["k"] == "entities" and s["id"] == b.id and "patch" in s), {})
        now_b = d.entity(b.id)
        d.load("relations", now_b.relation_ids)  # type: ignore[union-attr]
        used = {p for r in now_b.relation_ids if (x := d.relation(r)) for p in x.passage_ids}  # type: ignore[union-attr]
        for pid in (p for p in patch.get("passage_ids", [[], []])[1] if p not in used):  # brought by the alias only
            d.relink("entities", b.id, "passage_ids", remove=(pid,))
            d.relink("passages", pid, "entity_ids", remove=(b.id,))
        return set(gone["before"]["passage_ids"])
    return None


def _split_by_text(d: Draft, b: Entity, alias: str) -> set[str]:
    d.load("passages", b.passage_ids)
    passages = {pid: p for pid in b.passage_ids if (p := d.passage(pid)) is not None}
    says = {pid for pid, p in passages.items() if _mentions(p.full_text, alias)}
    if not says:
        raise EditError(f"No passage of {b.name!r} writes {alias!r}; there is nothing to split off.")
    d.load("relations", b.relation_ids)
    for rid in b.relation_ids:
        rel = d.relation(rid)
        if rel and set(rel.passage_ids) <= says and not any(_mentions(passages[p].full_text, b.name)
                                                           for p in rel.passage_ids if p in passages):  # fmt: skip
            s = alias if rel.subject_id == b.id else rel.subject
            o = alias if rel.object_id == b.id else rel.object
            rekey(d, rel, s, rel.predicate, o)
    return says


def delete_entity(d: Draft, entity: str) -> str:
    a = find_entity(d, entity)
    d.load("relations", a.relation_ids)
    prefetch(d, a)
    rels = [r for rid in a.relation_ids if (r := d.relation(rid)) is not None]
    for rel in rels:
        detach(d, rel)
    d.load("passages", a.passage_ids)
    for pid in a.passage_ids:
        d.relink("passages", pid, "entity_ids", remove=(a.id,))
    d.drop("entities", a.id)
    for eid in {e for r in rels for e in (r.subject_id, r.object_id)} - {a.id}:
        retire(d, eid, lost_last_relation=False)
    return f"deleted {a.name!r} and its {len(rels)} relation(s)"


# ---------- relation operations
def edit_relation(d: Draft, relation: str, subject: str | None = None, predicate: str | None = None,
                  object: str | None = None) -> str:  # noqa: A002 - the triple's own word  # fmt: skip
    rel = find_relation(d, relation)
    s = check_text(subject, "subject") if subject is not None else rel.subject
    p = check_text(predicate, "relation") if predicate is not None else rel.predicate
    o = check_text(object, "object") if object is not None else rel.object
    if (s, p, o) == (rel.subject, rel.predicate, rel.object):
        raise EditError("Nothing changed: the subject, relation and object are as stored.")
    if entity_id(s) == entity_id(o):
        raise EditError(f"The subject and the object are the same entity ({s!r}); a relation links two entities.")
    d.load("passages", rel.passage_ids)
    new = rekey(d, rel, s, p, o)
    for eid in (rel.subject_id, rel.object_id):
        retire(d, eid)
    return f"changed {rel.text!r} to {d.relation(new).text!r}" if new else f"deleted {rel.text!r}"  # type: ignore[union-attr]


def delete_relation(d: Draft, relation: str) -> str:
    rel = find_relation(d, relation)
    d.load("passages", rel.passage_ids)
    detach(d, rel)
    for eid in (rel.subject_id, rel.object_id):
        retire(d, eid)
    return f"deleted {rel.text!r}"


def add_relation(d: Draft, passage: str, subject: str, predicate: str, object: str) -> str:  # noqa: A002
    p = d.passage(passage) if isinstance(passage, str) else None
    if p is None:
        raise EditError(f"Graph {d.graph.name!r} has no passage {passage!r}; pick a passage of a document.")
    s, pr, o = check_text(subject, "subject"), check_text(predicate, "relation"), check_text(object, "object")
    if entity_id(s) == entity_id(o):
        raise EditError(f"The subject and the object are the same entity ({s!r}); a relation links two entities.")
    s_name, o_name = ensure_entity(d, s).name, ensure_entity(d, o).name
    rid = relation_id(s_name, pr, o_name)
    old = d.relation(rid)
    if old is not None and p.id in old.passage_ids:
        raise EditError(f"{old.text!r} is already in the graph from this passage.")
    attach(d, Relation(rid, s_name, pr, o_name, entity_id(s), entity_id(o), (p.id,)))
    return f"added {s_name} {pr} {o_name}"


OPERATIONS = {
    "merge": merge,
    "rename": rename,
    "split_alias": split_alias,
    "delete_entity": delete_entity,
    "edit_relation": edit_relation,
    "delete_relation": delete_relation,
    "add_relation": add_relation,
}

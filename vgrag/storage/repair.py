"""Repair a graph's id lists from the facts both sides of each link record.

Every link is written on both of its rows: an entity lists its relations and a relation names its two entities; a
passage lists its entities and relations, and they list it back. A writer that lost another's merge (two programs on
one server before the lease), a delete cut short, or an adjacency list capped on one side leaves one side missing.
`repair_graph` restores each link from whichever side still records it — the union of both sides, restricted to rows
that exist; a relation's own endpoints are the truth for entity–relation links — then deletes relations left with
no passage and entities left with no relation and no passage. Rows are rewritten with their stored vectors: nothing
is embedded. Idempotent: a repaired graph is left as it is.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..embed import Embedder
from ..models import Entity
from .schema import MAX_LIST
from .store import Graph


@dataclass(frozen=True)
class RepairReport:
    rewritten: dict[str, int]
    deleted: dict[str, int]
    restored: int = 0  # entities written again (see _restore_endpoints)

    @property
    def changed(self) -> bool:
        return any(self.rewritten.values()) or any(self.deleted.values()) or self.restored > 0


def _merge(own: tuple[str, ...], found: set[str], exists: set[str]) -> tuple[str, ...]:
    """`own` in its order (what exists), then the ids only the other side recorded, sorted; at most MAX_LIST."""
    kept = [x for x in own if x in exists]
    return tuple(dict.fromkeys(kept + sorted(found - set(kept))))[:MAX_LIST]


def _either_side(left: dict, left_ids: Callable, right: dict, right_ids: Callable) -> dict[str, set[str]]:
    """Per row of `left`, the existing `right` rows linked to it by either side's id list."""
    out: dict[str, set[str]] = defaultdict(set)
    for x in left.values():
        out[x.id].update(i for i in left_ids(x) if i in right)
    for y in right.values():
        for i in right_ids(y):
            if i in left:
                out[i].add(y.id)
    return out


def _restore_endpoints(graph: Graph, embedder: Embedder, ents: dict, rels: dict) -> int:
    """Entities a relation names but the graph lost (a delete that went by one document's capped view): written
    again under their names, embedded as ingest embeds them; their id lists are filled by the repair."""
    lost: dict[str, str] = {}
    for r in rels.values():
        for eid, name in ((r.subject_id, r.subject), (r.object_id, r.object)):
            if eid not in ents:
                lost.setdefault(eid, name)
    if not lost:
        return 0
    vecs = embedder.embed(list(lost.values()))
    items = [(Entity(eid, name), vec) for (eid, name), vec in zip(lost.items(), vecs, strict=True)]
    graph.write("entities", items, set())
    ents.update((e.id, e) for e, _ in items)
    return len(items)


def repair_graph(graph: Graph, embedder: Embedder | None = None) -> RepairReport:
    """Make every link reciprocal and every id real (see the module doc); the caller holds the graph's writer.
    With an embedder, entities that relations name but the graph lost are restored; without, such relations go."""
    with graph.lock:
        ents = {e.id: e for e in graph.iter_entities()}
        rels = {r.id: r for r in graph.iter_relations()}
        psgs = {p.id: p for p in graph.iter_passages()}
        restored = _restore_endpoints(graph, embedder, ents, rels) if embedder is not None else 0

        rel_psgs = _either_side(rels, lambda r: r.passage_ids, psgs, lambda p: p.relation_ids)
        gone_r = {
            r for r, rel in rels.items() if not rel_psgs[r] or rel.subject_id not in ents or rel.object_id not in ents
        }
        live_r = set(rels) - gone_r

        # entity <-> relation: the relation's endpoints
        ent_rels: dict[str, set[str]] = defaultdict(set)
        for r in live_r:
            ent_rels[rels[r].subject_id].add(r)
            ent_rels[rels[r].object_id].add(r)
        ent_psgs = _either_side(ents, lambda e: e.passage_ids, psgs, lambda p: p.entity_ids)
        gone_e = {e for e in ents if not ent_rels[e] and not ent_psgs[e]}
        live_e = set(ents) - gone_e
        psg_ents: dict[str, set[str]] = defaultdict(set)
        for e in live_e:
            for p in ent_psgs[e]:
                psg_ents[p].add(e)
        psg_rels: dict[str, set[str]] = defaultdict(set)
        for r in live_r:
            for p in rel_psgs[r]:
                psg_rels[p].add(r)

        new_r = {r: replace(rels[r], passage_ids=_merge(rels[r].passage_ids, rel_psgs[r], set(psgs))) for r in live_r}
        new_e = {
            e: replace(
                ents[e],
                relation_ids=_merge(tuple(x for x in ents[e].relation_ids if x in ent_rels[e]), ent_rels[e], live_r),
                passage_ids=_merge(ents[e].passage_ids, ent_psgs[e], set(psgs)),
            )
            for e in live_e
        }
        new_p = {
            p: replace(
                psgs[p],
                entity_ids=_merge(psgs[p].entity_ids, psg_ents[p], live_e),
                relation_ids=_merge(psgs[p].relation_ids, psg_rels[p], live_r),
            )
            for p in psgs
        }
        changed = {
            "relations": [r for r, rec in new_r.items() if rec != rels[r]],
            "entities": [e for e, rec in new_e.items() if rec != ents[e]],
            "passages": [p for p, rec in new_p.items() if rec != psgs[p]],
        }
        new = {"relations": new_r, "entities": new_e, "passages": new_p}
        for kind, ids in changed.items():
            if ids:
                items = [(new[kind][rec.id], vec) for rec, vec in graph.get_with_vectors(kind, ids)]  # type: ignore[index]
                graph.write(kind, items, set(ids))  # type: ignore[arg-type]
        graph.delete("relations", sorted(gone_r))
        graph.delete("entities", sorted(gone_e))
        graph.flush()
    return RepairReport(
        rewritten={k: len(v) for k, v in changed.items()},
        deleted={"relations": len(gone_r), "entities": len(gone_e)},
        restored=restored,
    )

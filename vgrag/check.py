"""Consistency check of a graph: every referenced id exists and every reference is reciprocal."""

from __future__ import annotations

from dataclasses import dataclass

from .store import MAX_LIST, Graph


@dataclass(frozen=True)
class CheckReport:
    counts: dict[str, int]
    problems: tuple[str, ...]
    warnings: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


def check_graph(graph: Graph, max_problems: int = 200) -> CheckReport:
    """Scan the three collections (a maintenance task, never on the query path) and cross-check ids."""
    ents = {e.id: e for e in graph.iter_entities()}
    rels = {r.id: r for r in graph.iter_relations()}
    psgs = {p.id: p for p in graph.iter_passages()}
    docs = {d.id for d in graph.documents()}
    problems: list[str] = []
    warnings: list[str] = []

    def bad(msg: str) -> None:
        if len(problems) < max_problems:
            problems.append(msg)

    for e in ents.values():
        capped = len(e.relation_ids) >= MAX_LIST or len(e.passage_ids) >= MAX_LIST
        if capped:
            warnings.append(f"entity {e.name!r} has a capped adjacency list ({MAX_LIST})")
        for rid in e.relation_ids:
            r = rels.get(rid)
            if r is None:
                bad(f"entity {e.id} → missing relation {rid}")
            elif e.id not in (r.subject_id, r.object_id):
                bad(f"entity {e.id} lists relation {rid} that does not involve it")
        for pid in e.passage_ids:
            p = psgs.get(pid)
            if p is None:
                bad(f"entity {e.id} → missing passage {pid}")
            elif e.id not in p.entity_ids and len(p.entity_ids) < MAX_LIST:
                bad(f"passage {pid} does not list entity {e.id} back")
        if not e.relation_ids and not e.passage_ids:
            bad(f"entity {e.id} is orphaned (no relation, no passage)")
    for r in rels.values():
        for eid in (r.subject_id, r.object_id):
            e = ents.get(eid)
            if e is None:
                bad(f"relation {r.id} → missing entity {eid}")
            elif r.id not in e.relation_ids and len(e.relation_ids) < MAX_LIST:
                bad(f"entity {eid} does not list relation {r.id} back")
        if not r.passage_ids:
            bad(f"relation {r.id} has no passage")
        for pid in r.passage_ids:
            p = psgs.get(pid)
            if p is None:
                bad(f"relation {r.id} → missing passage {pid}")
            elif r.id not in p.relation_ids and len(p.relation_ids) < MAX_LIST:
                bad(f"passage {pid} does not list relation {r.id} back")
    for p in psgs.values():
        if p.doc_id not in docs:
            bad(f"passage {p.id} belongs to unknown document {p.doc_id}")
        for eid in p.entity_ids:
            e = ents.get(eid)
            if e is None:
                bad(f"passage {p.id} → missing entity {eid}")
            elif p.id not in e.passage_ids and len(e.passage_ids) < MAX_LIST:
                bad(f"entity {eid} does not list passage {p.id} back")
        for rid in p.relation_ids:
            r = rels.get(rid)
            if r is None:
                bad(f"passage {p.id} → missing relation {rid}")
            elif p.id not in r.passage_ids:
                bad(f"relation {rid} does not list passage {p.id} back")
    counts = {"passages": len(psgs), "entities": len(ents), "relations": len(rels), "documents": len(docs)}
    return CheckReport(counts, tuple(problems), tuple(warnings[:50]))

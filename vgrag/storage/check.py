"""Consistency check of a graph: every referenced id exists and every reference is reciprocal."""

from __future__ import annotations

from dataclasses import dataclass

from .schema import MAX_LIST
from .store import Graph


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
    documents = graph.documents.all()
    docs = {d.id for d in documents}
    problems: list[str] = []
    warnings: list[str] = []

    def bad(msg: str) -> None:
        if len(problems) < max_problems:
            problems.append(msg)

    def linked(kind: str, src: str, ids: tuple[str, ...], table: dict, back) -> None:
        """Each id must exist in `table`, and that row's `back(row)` ids must list `src` (unless capped)."""
        for tid in ids:
            row = table.get(tid)
            if row is None:
                bad(f"{kind} {src} → missing {tid}")
            elif src not in back(row) and len(back(row)) < MAX_LIST:
                bad(f"{tid} does not list {kind} {src} back")

    for e in ents.values():
        if len(e.relation_ids) >= MAX_LIST or len(e.passage_ids) >= MAX_LIST:
            warnings.append(f"entity {e.name!r} has a capped adjacency list ({MAX_LIST})")
        linked("entity", e.id, e.relation_ids, rels, lambda r: (r.subject_id, r.object_id))
        linked("entity", e.id, e.passage_ids, psgs, lambda p: p.entity_ids)
        if not e.relation_ids and not e.passage_ids:
            bad(f"entity {e.id} is orphaned (no relation, no passage)")
    for r in rels.values():
        linked("relation", r.id, (r.subject_id, r.object_id), ents, lambda e: e.relation_ids)
        linked("relation", r.id, r.passage_ids, psgs, lambda p: p.relation_ids)
        if not r.passage_ids:
            bad(f"relation {r.id} has no passage")
    for p in psgs.values():
        if p.doc_id not in docs:
            bad(f"passage {p.id} belongs to unknown document {p.doc_id}")
        linked("passage", p.id, p.entity_ids, ents, lambda e: e.passage_ids)
        linked("passage", p.id, p.relation_ids, rels, lambda r: r.passage_ids)
    for d in documents:
        if not d.complete:
            bad(f"document {d.name!r} ({d.id}) is incomplete (its ingest was cut): add it again to complete it")
    counts = {"passages": len(psgs), "entities": len(ents), "relations": len(rels), "documents": len(docs)}
    return CheckReport(counts, tuple(problems), tuple(warnings[:50]))

"""The chain the answer step draws: the relations that lead from the question's entities to the passages the answer
cites. The answer's reasoning paths are ranked by how well they match the question, not by what the answer read: the
top path could lead to passages no cited sentence came from (seen by a new-user probe). Of the ranked paths, the one
that reaches the most cited passages is drawn (the better ranked on a tie); if none reaches one, the shortest chain
over the selected relations from a question entity to a relation stated in a cited passage."""

from __future__ import annotations

from collections import deque

from ..query.trace import QueryTrace, RelationView


def cited_passages(trace: QueryTrace) -> set[str]:
    a = trace.answer
    if a is None:
        return set()
    return {c.passage_id for c in a.citations} | {e.passage_id for e in a.evidence}


def answer_chain(trace: QueryTrace) -> tuple[str, ...]:
    """Relation ids of the chain drawn on the answer step (empty when there is none to draw)."""
    a = trace.answer
    if a is None:
        return ()
    cited = cited_passages(trace)
    top = a.paths[0] if a.paths else ()
    if not cited:
        return top
    rels = {r.id: r for r in trace.relations}

    def reached(path: tuple[str, ...]) -> int:
        return len(cited & {p for rid in path if rid in rels for p in rels[rid].passage_ids})

    if a.paths:
        best = max(a.paths, key=reached)  # the first of the best: ranking breaks ties
        if reached(best):
            return best
    return _shortest_to_cited(trace, rels, cited) or top


def _shortest_to_cited(trace: QueryTrace, rels: dict[str, RelationView], cited: set[str]) -> tuple[str, ...]:
    """Breadth-first from the question's entities (else the seed entities) over the selected relations, both ways;
    the first relation stated in a cited passage ends the chain (the most similar of a layer first)."""
    usable = [rels[i] for i in (trace.rerank.selected if trace.rerank else rels) if i in rels]
    usable.sort(key=lambda r: -r.similarity)
    starts = [q.entity_id for q in trace.query_entities.entities if q.entity_id] if trace.query_entities else []
    if not starts and trace.seeds:
        starts = [s.id for s in trace.seeds.entity_hits]
    via: dict[str, tuple[str, ...]] = {s: () for s in starts}
    queue = deque(starts)
    while queue:
        node = queue.popleft()
        for r in usable:
            if node not in (r.subject_id, r.object_id) or r.id in via[node]:
                continue
            chain = (*via[node], r.id)
            if cited & set(r.passage_ids):
                return chain
            other = r.object_id if node == r.subject_id else r.subject_id
            if other not in via:
                via[other] = chain
                queue.append(other)
    return ()

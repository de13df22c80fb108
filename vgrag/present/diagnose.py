"""“Why was this missed?”: the step at which a passage (or entity) fell out of a query."""

from __future__ import annotations

from dataclasses import dataclass

from ..query.trace import QueryTrace
from ..storage.store import Graph


@dataclass(frozen=True)
class Diagnosis:
    step: str  # retrieved | cut at top-k | not selected by rerank | evicted | below threshold | beyond hop limit
    # | never a seed
    detail: str


def explain_passage(trace: QueryTrace, graph: Graph, passage_id: str) -> Diagnosis:
    """Walk the trace backwards from the answer to find where the passage dropped out."""
    if trace.passages is None:
        return Diagnosis("never a seed", "the query did not run")
    ranked = trace.passage_ids()
    if passage_id in ranked:
        return Diagnosis("retrieved", f"retrieved at rank {ranked.index(passage_id) + 1}")
    if passage_id in trace.passages.cut:
        rank = len(ranked) + trace.passages.cut.index(passage_id) + 1
        return Diagnosis("cut at top-k", f"scored rank {rank}, below the top-{trace.params.passage_top_k} cut")
    found = graph.get_passages([passage_id])
    if not found:
        return Diagnosis("never a seed", "no such passage in this graph")
    p = found[0]
    if trace.method == "naive":
        return Diagnosis("cut at top-k", "dense search ranked it below the top-k")
    rels = set(p.relation_ids)
    if trace.rerank is not None:
        cands = {c.id: n for n, c in enumerate(trace.rerank.candidates)}
        hit = sorted((cands[r], r) for r in rels if r in cands)
        if hit:
            n, rid = hit[0]
            rel = trace.relation(rid)
            return Diagnosis(
                "not selected by rerank",
                f"its relation “{rel.text if rel else rid}” ranked {n + 1} in "
                f"the rerank; only {len(trace.rerank.selected)} were selected",
            )
    if trace.eviction is not None and rels & set(trace.eviction.evicted):
        return Diagnosis(
            "evicted",
            f"{len(rels & set(trace.eviction.evicted))} of its relations were evicted: "
            f"less similar to the question than the {trace.eviction.cap} kept",
        )
    ents = set(p.entity_ids)
    if trace.seeds is not None:
        below = [b for b in trace.seeds.below_threshold if b.id in ents or b.id in rels]
        if below:
            return Diagnosis(
                "below threshold",
                f"it was found with similarity {below[0].score:.3f}, below the threshold {trace.params.sim_threshold}",
            )
    reached = {e.id for e in trace.entities}
    if ents & reached:
        return Diagnosis(
            "beyond hop limit",
            f"it mentions {len(ents & reached)} reached entities, but none of its "
            f"relations was expanded within {trace.params.hops} hop(s)",
        )
    return Diagnosis("never a seed", "none of its entities or relations was near the question or a seed")


def explain_entity(trace: QueryTrace, graph: Graph, entity_id: str) -> Diagnosis:
    """Where an entity stood in the query: seed, reached by a hop, on a selected relation, or never reached."""
    found = graph.get_entities([entity_id])
    if not found:
        return Diagnosis("never a seed", "no such entity in this graph")
    e = found[0]
    if trace.method == "naive":
        return Diagnosis("never a seed", "naive retrieval does not use entities")
    selected = set(trace.rerank.selected) if trace.rerank else set()
    on_selected = [r for r in (trace.relation(i) for i in selected) if r and entity_id in (r.subject_id, r.object_id)]
    if on_selected:
        return Diagnosis(
            "retrieved", f"{len(on_selected)} selected relation(s) involve it, e.g. “{on_selected[0].text}”"
        )
    if trace.seeds is not None:
        if any(s.id == entity_id for s in trace.seeds.entity_hits):
            return Diagnosis("not selected by rerank", "it was a seed, but none of its relations was selected")
        below = next((b for b in trace.seeds.below_threshold if b.id == entity_id), None)
        if below is not None:
            return Diagnosis(
                "below threshold",
                f"similarity {below.score:.3f} to “{below.via}” is below the threshold {trace.params.sim_threshold}",
            )
    if any(entity_id in (r.subject_id, r.object_id) for r in trace.relations):
        return Diagnosis("not selected by rerank", "it was reached, but its relations ranked too low in the rerank")
    if trace.eviction is not None and set(e.relation_ids) & set(trace.eviction.evicted):
        return Diagnosis("evicted", "its relations were reached but evicted as least similar to the question")
    return Diagnosis(
        "beyond hop limit",
        f"not within {trace.params.hops} hop(s) of a seed"
        if trace.seeds and trace.seeds.entity_hits
        else "never a seed, and no seed to expand from",
    )

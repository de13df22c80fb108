"""One plain-language sentence per query step, with its numbers and the knob that controls it — for the Ask page,
the replay page and anyone teaching multi-hop retrieval."""

from __future__ import annotations

from ..query.trace import QueryTrace, Step

TOP_SELECTED = 10  # how many selected relations the drawing highlights (viz.TOP_SELECTED)

HOW_IT_WORKS = (
    "The graph lives only in the vector database: every entity, relation and passage is a row with an embedding, "
    "and each row lists the ids of its neighbours. A query (1) finds the entities named in the question, "
    "(2) searches the vector index for seed entities and seed relations, (3) follows the id lists one or two hops "
    "by primary-key look-ups — no graph database and no further vector search — (4) evicts the candidates least "
    "similar to the question if there are too many, (5) reranks the rest (one LLM call when a model is set up, "
    "otherwise personalised PageRank over the subgraph), and (6) answers from the passages of the selected "
    "relations, citing them; passages are ranked by similarity plus relation evidence, fused with a BM25 word "
    "search (Milvus full-text) of the question and of the question plus the top facts found."
)


def _n(count: int, word: str) -> str:
    plural = word[:-1] + "ies" if word.endswith("y") else word + "s"
    return f"{count} {word if count == 1 else plural}"


def steps_for(trace: QueryTrace) -> tuple[Step, ...]:
    """The steps this run went through: no hop-2 step when Hops = 1 (it drew an empty graph, unexplained)."""
    return tuple(s for s in Step if s.hop_depth is None or s.hop_depth <= trace.params.hops)


def is_noop(trace: QueryTrace, step: Step) -> bool:
    """A step that changed nothing for this query: a hop that reached nothing new, an eviction under the cap, a
    rerank that kept every candidate (it only ordered them). The page marks it and its sentence says so."""
    if step.hop_depth is not None:
        hop = next((h for h in trace.hops if h.depth == step.hop_depth), None)
        return hop is None or not hop.new_relation_ids
    if step is Step.EVICTION:
        return trace.eviction is None or trace.eviction.before == trace.eviction.after
    if step is Step.RERANK:
        return trace.rerank is not None and len(trace.rerank.selected) >= len(trace.rerank.candidates)
    return False


def explain(trace: QueryTrace, step: Step) -> str:
    """What the step did, in one sentence."""
    p = trace.params
    if step is Step.QUERY_ENTITIES:
        ents = trace.query_entities.entities if trace.query_entities else ()
        exact = sum(1 for e in ents if e.entity_id)
        return (
            f"The question names {_n(len(ents), 'entity')}; {exact} matched a graph entity by exact name "
            f"(a primary-key look-up), the others go to vector search."
        )
    if step is Step.SEEDS and trace.seeds:
        s = trace.seeds
        return (
            f"Vector search chose {_n(len(s.entity_hits), 'seed entity')} and "
            f"{_n(len(s.relation_hits), 'seed relation')} "
            f"(Entity top-k {p.entity_top_k}, Relation top-k {p.relation_top_k}); "
            f"{len(s.below_threshold)} fell below the similarity threshold {p.sim_threshold:g}."
        )
    if step.hop_depth is not None:
        hop = next((h for h in trace.hops if h.depth == step.hop_depth), None)
        if hop is None and step.hop_depth > p.hops:
            return f"No change: hop {step.hop_depth} did not run, because Hops is set to {p.hops}."
        if hop is None or not hop.new_relation_ids:
            return (
                f"No change: hop {step.hop_depth} found no new relation — every neighbour of the frontier entities "
                f"was already in the subgraph (knob: Hops = {p.hops})."
            )
        return (
            f"Hop {hop.depth} followed the id lists of the frontier entities by primary-key look-up — no vector "
            f"search — and found {_n(len(hop.new_relation_ids), 'new relation')} and "
            f"{_n(len(hop.new_entity_ids), 'new entity')} (knob: Hops = {p.hops})."
        )
    if step is Step.EVICTION and trace.eviction:
        e = trace.eviction
        if e.before == e.after:
            return (
                f"No change: {_n(e.before, 'candidate relation')} fit within the Eviction cap of {e.cap}, so none was "
                "evicted."
            )
        return (
            f"{_n(e.before, 'candidate relation')} exceeded the Eviction cap of {e.cap}: the {len(e.evicted)} "
            f"least similar to the question were dropped, {e.after} kept."
        )
    if step is Step.RERANK and trace.rerank:
        r = trace.rerank
        how = {"llm": "one LLM call", "graph": "personalised PageRank + similarity", "similarity": "similarity"}[
            r.method
        ]
        if len(r.selected) >= len(r.candidates):
            return (
                f"No change to the set: the rerank ({how}) kept all {_n(len(r.candidates), 'candidate relation')} "
                f"(Relations kept by rerank = {p.rerank_keep}); it only ordered them, and the top "
                f"{min(TOP_SELECTED, len(r.selected))} are drawn in full colour."
            )
        return (
            f"The rerank ({how}) selected {len(r.selected)} of {_n(len(r.candidates), 'candidate relation')} "
            f"(Relations kept by rerank = {p.rerank_keep}); {len(r.candidates) - len(r.selected)} were not selected. "
            f"The top {min(TOP_SELECTED, len(r.selected))} are drawn in full colour."
        )
    if step is Step.ANSWER and trace.passages:
        n_graph = sum(1 for x in trace.passages.passages if x.source == "graph")
        n_words = sum(1 for x in trace.passages.passages if x.source == "lexical")
        n_named = sum(1 for x in trace.passages.passages if x.source == "named")
        cites = len(trace.answer.citations) if trace.answer else 0
        words = f", {n_words} found only by the BM25 word search" if n_words else ""
        named = f", {n_named} titled by a name that an evidence passage mentions" if n_named else ""
        return (
            f"The top {_n(len(trace.passages.passages), 'passage')} ({n_graph} reached through the selected "
            f"relations{named}{words}; Passages = {p.passage_top_k}) answer the question, citing {cites}; the red "
            "chain is the best reasoning path."
        )
    return "This step has no data in this trace."

"""One plain-language sentence per query step, with its numbers and the knob that controls it — for the Ask page,
the replay page and anyone teaching multi-hop retrieval."""

from __future__ import annotations

from ..config import QueryParams
from ..query.trace import QueryTrace, Step

TOP_SELECTED = 10  # how many selected relations the drawing highlights (viz.TOP_SELECTED)

_LEXICAL = {
    "off": "There is no BM25 word search (it is off by default: it moved no top-10 list or cost recall on the "
    "benchmarks).",
    "candidates": "A BM25 word search (Milvus full-text) of the same two queries adds passages, ranked like the rest.",
    "fused": "The ranking is fused by reciprocal rank with a BM25 word search (Milvus full-text) of the same two "
    "queries.",
}


_BASELINES = {
    "naive": "The naive method uses no graph: it embeds the question once and returns the {k} passages nearest to it "
    "(Passages = {k}); the graph's steps (seeds, hops, eviction, rerank) do not run. ",
    "hybrid": "The hybrid method uses no graph: it ranks the {d} passages nearest to the question and the {d} best "
    "by BM25 words (Milvus full-text), fuses the two rankings by reciprocal rank and keeps the top {k} (Passages = "
    "{k}); the graph's steps (seeds, hops, eviction, rerank) do not run. ",
}


def how_it_works(p: QueryParams = QueryParams(), method: str = "graph") -> str:
    """What a query does, step by step, with these knob values and method (the Ask page shows the run on screen's,
    or before a run the knobs as they stand)."""
    if method in _BASELINES:
        return _BASELINES[method].format(k=p.passage_top_k, d=2 * p.passage_top_k) + (
            "Offline, the answer is the evidence sentences from those passages, cited, with a verdict (found, partly "
            "found, not in these documents); with a model, one LLM call answers from the passages, citing them."
        )
    hops = f"{p.hops} hop{'s' if p.hops != 1 else ''} (Hops = {p.hops})" if p.hops else "no hop (Hops = 0)"
    rerank = {
        "auto": "one LLM call when a model is set up, otherwise personalised PageRank over the subgraph plus "
        "similarity to the question",
        "graph": "personalised PageRank over the subgraph plus similarity to the question",
        "similarity": "similarity to the question alone",
        "llm": "one LLM call (personalised PageRank when no model is set up)",
    }[p.rerank]
    return (
        "The graph lives only in the vector database: every entity, relation and passage is a row with an embedding, "
        "and each row lists the ids of its neighbours. A query embeds its question once, then "
        "(1) finds the entities the question names: word sequences that are an entity's exact name (a primary-key "
        "look-up) and capitalised or quoted spans; "
        f"(2) searches the vectors for seeds: the {p.entity_top_k} entities nearest to each span with no exact match "
        f"(Entity top-k) and the {p.relation_top_k} relations nearest to the question (Relation top-k), dropping "
        f"those below a similarity of {p.sim_threshold:g} (Similarity threshold); "
        f"(3) follows the id lists {hops} by primary-key look-ups, with no graph database and no further vector "
        "search; "
        f"(4) keeps the seed relations and the {p.eviction_cap} candidates most similar to the question (Eviction "
        "cap); "
        f"(5) reranks them by {rerank}, keeping {p.rerank_keep} (Relations kept by rerank); "
        f"(6) ranks passages: those of the selected relations, those titled by a name that the top relations' "
        f"passages mention, and the nearest to the question and to the question plus the top {p.evidence_relations} "
        f"relations found; each scores its similarity plus {p.relation_weight:g} times its best relation's rerank "
        f"score, and the top {p.passage_top_k} (Passages) are kept. {_LEXICAL[p.lexical]} "
        "(7) Offline, the answer is the evidence sentences from those passages, cited, and a verdict: found, partly "
        "found (naming what nothing supports) or not in these documents; with a model, one LLM call answers from the "
        "passages, citing them, and says when they do not hold the answer."
    )


HOW_IT_WORKS = how_it_works()


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
        seeds = len(trace.seeds.relation_hits) if trace.seeds else 0  # kept whatever the cap
        if e.before == e.after:
            return (
                f"No change: {_n(e.before, 'candidate relation')} fit within the Eviction cap of {e.cap}, so none was "
                "evicted."
                + (f" Set the cap below {e.before} to watch it drop the least similar." if e.before > seeds else "")
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
        n_linked = sum(1 for x in trace.passages.passages if x.source == "linked")
        cites = len(trace.answer.citations) if trace.answer else 0
        words = f", {n_words} found only by the BM25 word search" if n_words else ""
        named = f", {n_named} titled by a name that an evidence passage mentions" if n_named else ""
        named += f", {n_linked} sharing an entity with an evidence passage" if n_linked else ""
        verdict = trace.answer.verdict if trace.answer else None
        lead = f"{verdict.said} " if verdict else ""
        return (
            f"{lead}The top {_n(len(trace.passages.passages), 'passage')} ({n_graph} reached through the selected "
            f"relations{named}{words}; Passages = {p.passage_top_k}) were read, {cites} cited; the thick "
            "orange-red chain leads to the cited passages."
        )
    return "This step has no data in this trace."

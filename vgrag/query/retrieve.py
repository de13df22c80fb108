"""The query pipeline: query entities → seeds → hops by primary key → eviction → rerank → passages.

Works only from Milvus look-ups and searches; nothing loads the whole graph. Every step lands in the trace.
Round trips are sequential on purpose: Milvus Lite serves in-process and shares the GIL, so threads only
added contention (measured); entity vector search runs only for name spans with no exact match.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from ..config import QueryParams
from ..embed import Embedder, embed_queries
from ..models import Entity, Passage, Relation
from ..nlp import mentions, ngrams
from ..storage.store import Graph
from ..text import entity_id, normalize_name
from .baselines import rrf
from .links import evidence_scores, linked_passages, named_passages
from .rerank import RerankInput, rerank_graph, rerank_similarity
from .scope import EVERYTHING, Scope, lexical_search, scope_for, search
from .state import QueryState
from .trace import (
    EntityView,
    EvictionStep,
    HopStep,
    PassageSource,
    PassageStep,
    QueryEntitiesStep,
    QueryEntity,
    QueryTrace,
    RankedPassage,
    RelationView,
    RerankStep,
    ScoredId,
    SeedStep,
    ms_since,
)

log = logging.getLogger(__name__)
LLMRerank = Callable[[RerankInput], RerankStep]


@dataclass
class _Candidates:
    """Relations gathered so far, their stored vectors and similarity to the question, and the names of entities
    touched."""

    rels: dict[str, Relation] = field(default_factory=dict)
    vecs: dict[str, np.ndarray] = field(default_factory=dict)
    sims: dict[str, float] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)

    def add(self, rel: Relation, vec: np.ndarray, qvec: np.ndarray) -> bool:
        if rel.id in self.rels:
            return False
        self.rels[rel.id] = rel
        self.vecs[rel.id] = vec
        self.sims[rel.id] = float(vec @ qvec)
        self.names.setdefault(rel.subject_id, rel.subject)
        self.names.setdefault(rel.object_id, rel.object)
        return True


def match_query_entities(
    grams: Sequence[str], found: Sequence[Entity], spans: Sequence[tuple[str, str]]
) -> QueryEntitiesStep:
    """The n-grams (longest first) that are entity names, then the remaining name spans."""
    t0 = time.perf_counter()
    ids = {e.id for e in found}
    out: list[QueryEntity] = []
    covered: list[str] = []
    for g in grams:
        eid = entity_id(g)
        if eid in ids and not any(normalize_name(g) in c for c in covered):
            out.append(QueryEntity(g, "exact-name", eid))
            covered.append(normalize_name(g))
    for text, method in spans:
        if normalize_name(text) not in covered:
            out.append(QueryEntity(text, method, None))
    return QueryEntitiesStep(tuple(out), ms_since(t0))


def build_seeds(
    qstep: QueryEntitiesStep,
    span_hits: dict[str, list[tuple[Entity, float]]],
    rel_hits: Sequence[tuple[Relation, float]],
    p: QueryParams,
    ms: float,
) -> SeedStep:
    """Seed entities (exact names score 1; nearest entities to each span) and seed relations, thresholded."""
    ent: dict[str, ScoredId] = {}
    below: list[ScoredId] = []
    for q in qstep.entities:
        if q.entity_id:
            ent[q.entity_id] = ScoredId(q.entity_id, 1.0, q.text)
        for e, score in span_hits.get(q.text, []) if not q.entity_id else []:
            if score < p.sim_threshold:
                below.append(ScoredId(e.id, round(score, 4), q.text))
            elif score > (ent[e.id].score if e.id in ent else -1.0):
                ent[e.id] = ScoredId(e.id, round(score, 4), q.text)
    rels = []
    for r, score in rel_hits:
        (rels if score >= p.sim_threshold else below).append(ScoredId(r.id, round(score, 4), "question"))
    kept = set(ent) | {r.id for r in rels}
    return SeedStep(
        tuple(sorted(ent.values(), key=lambda s: -s.score)),
        tuple(rels),
        tuple(b for b in below if b.id not in kept),
        ms,
    )


def _expand(
    graph: Graph, cand: _Candidates, qvec: np.ndarray, start: set[str], hops: int, scope: Scope = EVERYTHING
) -> list[HopStep]:
    steps: list[HopStep] = []
    known = set(start)
    frontier = set(start)
    for depth in range(1, hops + 1):
        t0 = time.perf_counter()
        ents = graph.get_entities(sorted(frontier))
        for e in ents:
            cand.names.setdefault(e.id, e.name)
        rel_ids = list(dict.fromkeys(r for e in ents for r in e.relation_ids if r not in cand.rels))
        found = [(r, v) for r, v in graph.get_with_vectors("relations", rel_ids) if scope.record_ok("relations", r)]
        new_rels = [r.id for r, v in found if cand.add(r, v, qvec)]  # type: ignore[arg-type]
        new_ents = sorted(
            {x for rid in new_rels for x in (cand.rels[rid].subject_id, cand.rels[rid].object_id)} - known
        )
        known.update(new_ents)
        steps.append(HopStep(depth, tuple(new_ents), tuple(new_rels), ms_since(t0)))
        frontier = set(new_ents)
        if not frontier:
            break
    return steps


def _evict(cand: _Candidates, keep: set[str], cap: int) -> EvictionStep:
    """Keep the seed relations (all of them, even when relation top-k is above the cap: later steps read them)
    and the `cap` candidates most similar to the question."""
    t0 = time.perf_counter()
    before = len(cand.rels)
    if before <= cap:
        return EvictionStep(before, before, cap, (), ms_since(t0))
    ranked = sorted(cand.rels, key=lambda r: (r not in keep, -cand.sims[r], r))
    evicted = tuple(r for r in ranked[cap:] if r not in keep)
    for rid in evicted:
        del cand.rels[rid]
        del cand.vecs[rid]
        del cand.sims[rid]
    return EvictionStep(before, len(cand.rels), cap, evicted, ms_since(t0))


def rank_passages(
    graph: Graph,
    embedder: Embedder,
    question: str,
    qvec: np.ndarray,
    selected: Sequence[ScoredId],
    rels: dict[str, Relation],
    params: QueryParams,
    scope: Scope = EVERYTHING,
    question_entities: Collection[str] = (),
) -> PassageStep:
    """Passages from the selected relations, from the names the evidence passages mention, from the entities they
    share with other passages (links.py), and from two dense searches, ranked by similarity plus graph evidence.

    The second dense search embeds the question together with the top selected relations (the facts the
    graph found, e.g. the bridge entity of a two-hop question), which reaches passages the question alone
    does not resemble. The passages of those top relations are the evidence passages: a passage whose title one
    of them mentions is linked to it (titles.py), as its next hop. Each candidate scores max(sim to question,
    sim to question+evidence) plus `params.relation_weight` times its graph evidence: the best rerank score
    among its selected relations, or of the top relation whose passage names it, or the best relation's score
    shared among the passages naming an entity the best relation's passage states (links.py; `question_entities`,
    the ids of the question's own names, are not followed).
    """
    t0 = time.perf_counter()
    k = params.passage_top_k
    from_graph = scope.passages(
        list(dict.fromkeys(pid for s in selected if s.id in rels for pid in rels[s.id].passage_ids))
    )
    evidence = [rels[s.id].text for s in selected[: params.evidence_relations] if s.id in rels]
    queries = [qvec]
    if evidence:
        queries.append(embed_queries(embedder, [question + " " + ". ".join(evidence)])[0])
    searched = search(graph, "passages", np.stack(queries), k, scope, with_vectors=True)
    dense, expanded = searched[0], (searched[1] if len(searched) > 1 else [])
    lexical: list[list[str]] = []
    if params.lexical in (
        "candidates",
        "fused",
    ):  # the same two queries as words: BM25 finds exact names (a bridge entity) dense misses
        texts = [question] + ([question + " " + ". ".join(evidence)] if evidence else [])
        lexical = [[pid for pid, _ in hits] for hits in lexical_search(graph, texts, k, scope)]
    pool: dict[str, tuple[Passage, np.ndarray]] = {h.record.id: (h.record, h.vector) for h in dense + expanded}  # type: ignore[misc]
    wanted = list(dict.fromkeys(pid for pid in from_graph + [p for ids in lexical for p in ids] if pid not in pool))
    pool.update((p.id, (p, v)) for p, v in graph.get_with_vectors("passages", wanted))  # type: ignore[misc]
    rel_score = {s.id: s.score for s in selected}
    evidence_psg = evidence_scores(selected[: params.evidence_relations], rels)
    named = named_passages(graph, pool, evidence_psg, scope)
    linked = linked_passages(graph, pool, evidence_scores(selected[:1], rels), question_entities, scope)
    pool.update((p.id, (p, v)) for p, v in graph.get_with_vectors("passages", [x for x in named if x not in pool]))  # type: ignore[misc]
    dense_ids, graph_ids = {h.record.id for h in dense}, set(from_graph)
    lexical_ids = {p for ids in lexical for p in ids}

    def score(pid: str, psg: Passage, v: np.ndarray) -> tuple:
        sim = max(float(v @ q) for q in queries)
        via = tuple(x for x in psg.relation_ids if x in rel_score)
        link: PassageSource | None = "linked" if linked.get(pid, ("", 0.0))[1] > named.get(pid, ("", 0.0))[1] else (
            "named" if pid in named else None)  # fmt: skip
        by, link_score = (linked if link == "linked" else named).get(pid, ("", 0.0))
        best = max([rel_score[x] for x in via] + [link_score])
        source: PassageSource = (
            "graph" if pid in graph_ids else link if link else "dense" if pid in dense_ids
            else "lexical" if pid in lexical_ids and pid not in {h.record.id for h in expanded} else "expanded"
        )  # fmt: skip
        return (sim + params.relation_weight * best, psg, via, source, by)

    scored = [score(pid, psg, v) for pid, (psg, v) in pool.items()]
    # a linked passage outside the pool is no nearer a query than the last hit of that query's search: it is read
    # only when that similarity plus its link could still reach the top k (the top k is exact, the rest is cut)
    kth = sorted((x[0] for x in scored), reverse=True)[k - 1] if len(scored) >= k and not lexical else -np.inf
    ceiling = max(min(float(h.vector @ q) for h in hits) if len(hits) >= k else np.inf  # type: ignore[operator]
                  for hits, q in zip(searched, queries, strict=True))  # fmt: skip
    reach = [x for x, (_, ls) in linked.items() if x not in pool and ceiling + params.relation_weight * ls >= kth]
    scored += [score(p.id, p, v) for p, v in graph.get_with_vectors("passages", reach)]  # type: ignore[arg-type]
    scored.sort(key=lambda x: (-x[0], x[1].id))
    if lexical and params.lexical == "fused":  # graph ranking and the word rankings fused by reciprocal rank
        fused = dict(rrf([[x[1].id for x in scored]] + lexical))
        scored = [(fused[p.id], p, via, src, by) for _, p, via, src, by in scored]
        scored.sort(key=lambda x: (-x[0], x[1].id))
    out = tuple(RankedPassage(p.id, p.title, p.text, round(sc, 4), src, via, by, p.sentences)
                for sc, p, via, src, by in scored[:k])  # fmt: skip
    return PassageStep(
        passages=out,
        dense_ids=tuple(h.record.id for h in dense),
        cut=tuple(x[1].id for x in scored[k:]),
        ms=ms_since(t0),
    )


def retrieve(
    question: str,
    graph: Graph,
    embedder: Embedder,
    params: QueryParams = QueryParams(),
    llm_rerank: LLMRerank | None = None,
    scope: Scope | None = None,
) -> QueryTrace:
    """Run every retrieval step (no answer) and return the trace; only passages of the scope (params' document
    filter when not given), and relations and entities they support, are ever candidates."""
    t_all = time.perf_counter()
    scope = scope if scope is not None else scope_for(graph, params)
    spans = mentions(question)
    t0 = time.perf_counter()
    grams = ngrams(question)
    exact = [e for e in graph.get_entities([entity_id(g) for g in grams]) if scope.record_ok("entities", e)]
    qstep = match_query_entities(grams, exact, spans)
    # only the spans no entity is named exactly are searched, so only those are embedded (with the question)
    unmatched = list(dict.fromkeys(q.text for q in qstep.entities if not q.entity_id))
    t_embed = time.perf_counter()
    vecs = embed_queries(embedder, [question] + unmatched)
    embed_ms = ms_since(t_embed)
    qvec = vecs[0]
    ent_hits = (
        [[(h.record, h.score) for h in row] for row in search(graph, "entities", vecs[1:], params.entity_top_k, scope)]
        if unmatched
        else []
    )
    rel_found = search(graph, "relations", qvec[None, :], params.relation_top_k, scope, with_vectors=True)[0]
    rel_hits = [(h.record, h.score) for h in rel_found]
    span_hits = dict(zip(unmatched, ent_hits, strict=True))
    seeds = build_seeds(qstep, span_hits, rel_hits, params, round(ms_since(t0) - embed_ms, 2))

    cand = _Candidates()
    for e in exact:
        cand.names[e.id] = e.name
    for hits in ent_hits:
        for e, _ in hits:
            cand.names.setdefault(e.id, e.name)
    rel_score = {s.id: s.score for s in seeds.relation_hits}
    for h in rel_found:
        if h.record.id in rel_score:
            cand.add(h.record, h.vector, qvec)  # type: ignore[arg-type]
    ent_score = {s.id: s.score for s in seeds.entity_hits}
    start = set(ent_score) | {x for rid in rel_score for x in (cand.rels[rid].subject_id, cand.rels[rid].object_id)}
    hops = _expand(graph, cand, qvec, start, max(0, min(2, params.hops)), scope)
    eviction = _evict(cand, set(rel_score), params.eviction_cap)

    personal = dict(ent_score)
    for rid, s in rel_score.items():  # a seed relation's evidence is shared by its two endpoints
        for e in (cand.rels[rid].subject_id, cand.rels[rid].object_id):
            personal[e] = max(personal.get(e, 0.0), s / 2)
    rin = RerankInput(question, dict(cand.rels), dict(cand.sims), personal, params)
    if params.rerank in ("llm", "auto") and llm_rerank is not None:
        rstep = llm_rerank(rin)
    elif params.rerank == "similarity":
        rstep = rerank_similarity(rin)
    else:
        rstep = rerank_graph(rin)
        if params.rerank == "llm":
            rstep = replace(rstep, error="no LLM configured: used the offline graph rerank")
    chosen = set(rstep.selected)
    selected = [c for c in rstep.candidates if c.id in chosen]
    named_ids = {entity_id(g) for g in grams}
    pstep = rank_passages(graph, embedder, question, qvec, selected, cand.rels, params, scope, named_ids)

    views = tuple(
        RelationView(
            r.id, r.subject, r.predicate, r.object, r.subject_id, r.object_id, r.passage_ids, round(cand.sims[r.id], 4)
        )
        for r in cand.rels.values()
    )
    entities = tuple(EntityView(i, n) for i, n in sorted(cand.names.items()))
    ms = ms_since(t_all)
    return QueryTrace(
        question=question,
        method="graph",
        params=params,
        query_entities=qstep,
        seeds=seeds,
        hops=tuple(hops),
        eviction=eviction,
        rerank=rstep,
        passages=pstep,
        entities=entities,
        relations=views,
        total_ms=ms,
        retrieval_ms=ms,
        state=QueryState(question, qvec, dict(cand.vecs), scope),
    )

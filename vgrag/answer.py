"""Answers: reasoning paths over the selected relations, and the offline extractive answer with citations."""

from __future__ import annotations

import time
from collections import defaultdict


from .embed import Embedder
from .text import split_sentences
from .trace import AnswerStep, Citation, QueryTrace, RelationView


def reasoning_paths(trace: QueryTrace, max_len: int = 3, limit: int = 5) -> tuple[tuple[str, ...], ...]:
    """Chains of selected relations starting at seed entities, best first (chains joining two seeds win)."""
    if trace.rerank is None or trace.seeds is None:
        return ()
    score = {c.id: c.score for c in trace.rerank.candidates}
    rels: list[RelationView] = [r for r in (trace.relation(i) for i in trace.rerank.selected) if r is not None]
    adj: dict[str, list[tuple[str, RelationView]]] = defaultdict(list)
    for r in rels:
        adj[r.subject_id].append((r.object_id, r))
        adj[r.object_id].append((r.subject_id, r))
    seeds = [s.id for s in trace.seeds.entity_hits]
    for s in trace.seeds.relation_hits:
        r = trace.relation(s.id)
        if r is not None:
            seeds.append(r.subject_id)
    seed_set = set(seeds)
    found: dict[tuple[str, ...], float] = {}

    def walk(node: str, path: list[RelationView], visited: set[str]) -> None:
        if path:
            key = tuple(r.id for r in path)
            joins = node in seed_set and len(path) > 1
            found[key] = sum(score.get(r.id, 0.0) for r in path) / len(path) + (0.5 if joins else 0.0) + 0.1 * len(path)
        if len(path) >= max_len:
            return
        for nxt, r in adj.get(node, []):
            if nxt not in visited and r not in path:
                walk(nxt, path + [r], visited | {nxt})

    for s in dict.fromkeys(seeds):
        walk(s, [], {s})
    best = sorted(found.items(), key=lambda kv: -kv[1])
    out: list[tuple[str, ...]] = []
    for path, _ in best:
        if not any(set(path) <= set(p) for p in out):
            out.append(path)
        if len(out) >= limit:
            break
    return tuple(out)


def extractive_answer(trace: QueryTrace, embedder: Embedder, n_passages: int = 3, n_sentences: int = 2) -> AnswerStep:
    """The sentences of the top passages closest to the question (and to the reasoning path), with citations."""
    t0 = time.perf_counter()
    paths = reasoning_paths(trace)
    passages = trace.passages.passages[:n_passages] if trace.passages else ()
    if not passages:
        return AnswerStep("No passage in the graph matches this question.", (), paths, "extractive",
                          round((time.perf_counter() - t0) * 1000, 2))
    names: set[str] = set()
    for path in paths[:2]:
        for rid in path:
            r = trace.relation(rid)
            if r is not None:
                names.update((r.subject.casefold(), r.object.casefold()))
    sents = [(n, s) for n, p in enumerate(passages) for s in split_sentences(p.text)]
    vecs = embedder.embed([trace.question] + [s for _, s in sents])
    sims = vecs[1:] @ vecs[0]
    scored = []
    for (n, s), sim in zip(sents, sims):
        bonus = 0.05 * sum(1 for name in names if name and name in s.casefold())
        scored.append((float(sim) + min(bonus, 0.15) - 0.02 * n, n, s))
    picked = sorted(sorted(scored, key=lambda x: -x[0])[:n_sentences], key=lambda x: (x[1], sents.index((x[1], x[2]))))
    used = sorted({n for _, n, _ in picked})
    number = {n: i + 1 for i, n in enumerate(used)}
    text = " ".join(f"{s} [{number[n]}]" for _, n, s in picked)
    cites = tuple(Citation(number[n], passages[n].id, passages[n].title) for n in used)
    return AnswerStep(text, cites, paths, "extractive", round((time.perf_counter() - t0) * 1000, 2))



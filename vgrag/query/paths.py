"""The reasoning paths an answer shows: chains of the reranked relations from the question's entities, scored against
the question (answer.py draws on them for the offline answer and the chain a reader follows)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import numpy as np

from ..embed import Embedder, embed_queries
from ..storage.store import Graph
from ..nlp import Lemmas
from .trace import QueryTrace, RelationView

MAX_PATHS = 300  # candidate chains enumerated per query
RESCORE_PATHS = 4  # of those, the best by the cheap score are re-scored as a whole


def _candidate_paths(trace: QueryTrace, max_len: int) -> list[tuple[RelationView, ...]]:
    """Chains of selected relations starting at the question's entities (or at seed relations' subjects)."""
    rels = [r for r in (trace.relation(i) for i in trace.rerank.selected) if r is not None]  # type: ignore[union-attr]
    adj: dict[str, list[tuple[str, RelationView]]] = defaultdict(list)
    for r in rels:
        adj[r.subject_id].append((r.object_id, r))
        adj[r.object_id].append((r.subject_id, r))
    starts = [s.id for s in trace.seeds.entity_hits]  # type: ignore[union-attr]
    if not starts:
        starts = [r.subject_id for r in (trace.relation(s.id) for s in trace.seeds.relation_hits) if r]  # type: ignore[union-attr]
    found: list[tuple[RelationView, ...]] = []

    def walk(node: str, path: tuple[RelationView, ...], visited: frozenset[str]) -> None:
        if len(found) >= MAX_PATHS:
            return
        if path:
            found.append(path)
        if len(path) >= max_len:
            return
        for nxt, r in adj.get(node, []):
            if nxt not in visited and r not in path:
                walk(nxt, path + (r,), visited | {nxt})

    for s in dict.fromkeys(starts):
        walk(s, (), frozenset({s}))
    return found


def path_score(
    wanted: tuple[frozenset[str], ...], similarity: float, path: Sequence[RelationView], said: dict[str, frozenset[str]]
) -> float:
    """Half similarity, half coverage of the question's content words (lemma sets); a relation adding no covered
    word costs. `said`: the question's lemmas each relation's text has (see Lemmas.found), by relation id."""
    covered: set[int] = set()
    idle = 0
    for r in path:
        have = said[r.id]
        new = {i for i, w in enumerate(wanted) if w & have} - covered
        idle += not new
        covered |= new
    coverage = len(covered) / max(len(wanted), 1)
    return 0.5 * similarity + 0.5 * coverage - 0.05 * idle


def reasoning_paths(
    trace: QueryTrace,
    embedder: Embedder | None = None,
    graph: Graph | None = None,
    max_len: int = 3,
    limit: int = 5,
    lex: Lemmas | None = None,
) -> tuple[tuple[str, ...], ...]:
    """The chains that best explain the question (see path_score): their similarity to the question and how many of
    the question's content words they account for. All chains are first scored with the mean of their relations'
    similarities (computed by retrieval); with retrieval's state (or the embedder and the graph), the best
    RESCORE_PATHS are re-scored by the similarity of the question to the chain as a whole (a chain can match the
    question better than any of its relations): the sum of its relations' stored vectors, so no text is embedded.
    Embedding the chains' texts instead cost ~10 ms a query and gave the same answer metrics on both dev sets."""
    if trace.rerank is None or trace.seeds is None:
        return ()
    paths = _candidate_paths(trace, max_len)
    if not paths:
        return ()
    lex = lex if lex is not None else Lemmas()
    q = lex.content(trace.question)
    every = frozenset().union(*q)
    said = {r.id: lex.found(every, r.text) for p in paths for r in p}
    scores = [path_score(q, sum(r.similarity for r in p) / len(p), p, said) for p in paths]
    if trace.state is not None or (embedder is not None and graph is not None):
        keep = sorted(range(len(paths)), key=lambda i: -scores[i])[:RESCORE_PATHS]
        paths = [paths[i] for i in keep]
        ids = list(dict.fromkeys(r.id for p in paths for r in p))
        if trace.state is not None:  # what retrieval embedded and read (query/state.py)
            question, stored = trace.state.vector, trace.state.relation_vectors
        else:  # a trace rebuilt from JSON
            question = embed_queries(embedder, [trace.question])[0]  # type: ignore[arg-type]
            stored = {rel.id: v for rel, v in graph.get_with_vectors("relations", ids)}  # type: ignore[union-attr]
        scores = [path_score(q, _chain_similarity(question, [stored[r.id] for r in p if r.id in stored]), p, said)
                  for p in paths]  # fmt: skip
    order = sorted(range(len(paths)), key=lambda i: (-scores[i], len(paths[i])))
    out: list[tuple[str, ...]] = []
    for i in order:
        ids = tuple(r.id for r in paths[i])
        if not any(set(ids) <= set(o) for o in out):
            out.append(ids)
        if len(out) >= limit:
            break
    return tuple(out)


def _chain_similarity(question: np.ndarray, vectors: list[np.ndarray]) -> float:
    """Cosine between the question and the sum of a chain's relation vectors (0 without any)."""
    if not vectors:
        return 0.0
    total = np.sum(vectors, axis=0)
    size = float(np.linalg.norm(total) * np.linalg.norm(question))
    return float(total @ question) / size if size else 0.0

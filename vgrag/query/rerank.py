"""The rerank step: candidate relations ordered by similarity, by personalised PageRank over the subgraph
(offline), or by one LLM call that picks the useful facts by short numeric ids (falling back to the graph rerank)."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, replace

import numpy as np

from ..config import QueryParams
from ..extraction.parse import parse_json_loose
from ..llm import NO_DEADLINE, Deadline, LLMError, OpenAILLM, call_record
from ..models import Relation
from .trace import RerankStep, ScoredId, ms_since

MAX_LLM_CANDIDATES = 60  # relations shown to the model, pre-ordered by the offline graph rerank


@dataclass(frozen=True)
class RerankInput:
    question: str
    rels: dict[str, Relation]
    sims: dict[str, float]  # cosine similarity of each relation to the question
    personalization: dict[str, float]  # seed entity → seed score
    params: QueryParams


def _step(method: str, scores: dict[str, float], keep: int, t0: float, error: str | None = None) -> RerankStep:
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    cands = tuple(ScoredId(rid, round(s, 5), method) for rid, s in ranked)
    return RerankStep(method, cands, tuple(rid for rid, _ in ranked[:keep]), ms_since(t0), error=error)


def rerank_similarity(inp: RerankInput) -> RerankStep:
    """Relations ordered by cosine similarity to the question."""
    t0 = time.perf_counter()
    return _step("similarity", {r: inp.sims.get(r, 0.0) for r in inp.rels}, inp.params.rerank_keep, t0)


def entity_ppr(inp: RerankInput) -> dict[str, float]:
    """Personalised PageRank over the candidate subgraph: undirected edges weighted by relation similarity
    (floored at 0.01, summed over parallel relations), restarts at the seeds.

    Power iteration on edge arrays (the same fixed point and stopping rule as networkx's pagerank, which built a
    graph object and a sparse matrix per query: ~4 of the ~5 ms of this step at 9k passages). Every node has an
    edge, so no mass dangles; a run that has not converged after 200 steps returns its last iterate.
    """
    index: dict[str, int] = {}
    weight: dict[tuple[int, int], float] = {}
    for rid, r in inp.rels.items():
        u, v = index.setdefault(r.subject_id, len(index)), index.setdefault(r.object_id, len(index))
        key = (u, v) if u <= v else (v, u)
        weight[key] = weight.get(key, 0.0) + max(inp.sims.get(rid, 0.0), 0.01)
    n = len(index)
    p = np.zeros(n)
    for e, s in inp.personalization.items():
        if e in index and s > 0:
            p[index[e]] = s
    if not weight or p.sum() == 0:
        return {}
    p /= p.sum()
    pairs = np.array(list(weight), dtype=np.int64).reshape(-1, 2)
    w = np.fromiter(weight.values(), dtype=float, count=len(weight))
    loop = pairs[:, 0] == pairs[:, 1]  # a self-loop is one edge, not two directions
    src = np.concatenate([pairs[:, 0], pairs[~loop, 1]])
    dst = np.concatenate([pairs[:, 1], pairs[~loop, 0]])
    ew = np.concatenate([w, w[~loop]])
    strength = np.bincount(src, weights=ew, minlength=n)
    share = ew / strength[src]  # the fraction of a node's mass each of its edges carries
    alpha = inp.params.ppr_damping
    x = np.full(n, 1.0 / n)
    for _ in range(200):
        last = x
        x = alpha * np.bincount(dst, weights=last[src] * share, minlength=n) + (1 - alpha) * p
        if np.abs(x - last).sum() < n * 1e-8:
            break
    names = list(index)
    return {names[i]: float(x[i]) for i in range(n)}


def rerank_graph(inp: RerankInput) -> RerankStep:
    """Relations scored by their similarity and by the PageRank mass of the entities they join.

    Both parts are scaled to [0, 1] by their maximum and averaged, so a relation that bridges two
    strongly reached entities can outrank a lexically closer relation that leads nowhere.
    """
    t0 = time.perf_counter()
    if not inp.rels:
        return _step("graph", {}, inp.params.rerank_keep, t0)
    ppr = entity_ppr(inp)
    if not ppr:
        return _step(
            "similarity",
            {r: inp.sims.get(r, 0.0) for r in inp.rels},
            inp.params.rerank_keep,
            t0,
            error="no seed entity in the subgraph: ranked by similarity",
        )
    pair = {rid: ppr.get(r.subject_id, 0.0) + ppr.get(r.object_id, 0.0) for rid, r in inp.rels.items()}
    top_pair = max(pair.values()) or 1.0
    top_sim = max(max(inp.sims.get(r, 0.0) for r in inp.rels), 1e-9)
    scores = {rid: 0.5 * max(inp.sims.get(rid, 0.0), 0.0) / top_sim + 0.5 * pair[rid] / top_pair for rid in inp.rels}
    return _step("graph", scores, inp.params.rerank_keep, t0)


def parse_selected_ids(raw: str, n: int) -> tuple[list[int], int]:
    """Chosen 1-based ids in order from a reply ({"selected": [...]}, a list, or bare numbers); invalid ones counted."""
    data = parse_json_loose(raw)
    if isinstance(data, dict):
        data = data.get("selected") or data.get("ids") or data.get("relations") or []
    items = data if isinstance(data, list) else re.findall(r"\d+", raw)
    out: list[int] = []
    bad = 0
    for x in items:
        try:
            i = int(str(x).strip().strip("[]#"))
        except ValueError:
            bad += 1
            continue
        if 1 <= i <= n and i not in out:
            out.append(i)
        else:
            bad += 1
    return out, bad


def rerank_messages(question: str, facts: list[str]) -> list[dict]:
    lines = "\n".join(f"{n}. {text}" for n, text in enumerate(facts, 1))
    return [
        {
            "role": "system",
            "content": "You select the facts needed to answer a multi-hop question. Reply with JSON "
            '{"selected": [ids]} listing the ids of the useful facts, most useful first, '
            "including the bridge facts that connect the question to the answer.",
        },
        {"role": "user", "content": f"Question: {question}\n\nFacts:\n{lines}\n\nReply with JSON only."},
    ]


def rerank_llm(llm: OpenAILLM, inp: RerankInput, deadline: Deadline = NO_DEADLINE) -> RerankStep:
    """One bounded call: the model picks the relations that answer the question, by short numeric ids. A failed
    call, a reply cut at its token cap or one with no valid id falls back to the graph rerank, saying why."""
    t0 = time.perf_counter()
    offline = rerank_graph(inp)
    shown = [c.id for c in offline.candidates[:MAX_LLM_CANDIDATES]]
    messages = rerank_messages(inp.question, [inp.rels[rid].text for rid in shown])
    try:
        r = llm.complete("rerank", messages, use_cache=False, deadline=deadline)
    except LLMError as e:
        call = call_record(llm, "rerank", messages, failure=e)
        return replace(offline, llm=call, error=f"LLM rerank failed ({e}); used the offline graph rerank")
    if r.truncated:
        call = call_record(llm, "rerank", messages, r)
        return replace(offline, llm=call, error=f"{call.error}: not parsed; used the offline graph rerank")
    picked, bad = parse_selected_ids(r.text, len(shown))
    call = call_record(llm, "rerank", messages, r, note=f"{bad} invalid id(s) ignored" if bad else None)
    if not picked:
        return replace(offline, llm=call, error="the LLM selected no valid relation; used the offline graph rerank")
    chosen = [shown[i - 1] for i in picked][: inp.params.rerank_keep]
    scores = {rid: 1.0 - n / (len(chosen) + 1) for n, rid in enumerate(chosen)}
    rest = [c for c in offline.candidates if c.id not in scores]
    cands = tuple(ScoredId(rid, round(s, 4), "llm") for rid, s in scores.items()) + tuple(
        ScoredId(c.id, 0.0, "not selected") for c in rest
    )
    return RerankStep("llm", cands, tuple(chosen), ms_since(t0), llm=call)

"""The passage step's next hops from its evidence passages (the passages carrying the top selected relations):
passages titled by a name an evidence passage mentions, and passages that share an entity with the best one.

A multi-hop question's last passage names the bridge entity its first passage (the best fact's) ends at ("… the
Bubye River … in southern Zimbabwe" → "Victoria Falls … on the border of Zambia and Zimbabwe"), rarely by title
and rarely in words the question uses, so neither the title links nor dense search rank it. A passage sharing a
graph entity with the passage of the best selected relation is that passage's next hop (only the best: the second
and third facts are often a look-alike's, and their links spread to its look-alikes). How strongly depends on how
many passages share that entity: an entity a few passages name links them, one hundreds name (a country, "film")
links nothing in particular. Its graph evidence is the evidence passage's score divided by the number of passages
naming the entity (besides the evidence passages), so no threshold or weight is added. The question's own names are
not bridges: every passage about them is already a candidate by similarity and through the relations.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

import numpy as np

from ..models import Passage, Relation
from ..storage.store import Graph
from .scope import EVERYTHING, Scope
from .trace import ScoredId

Pool = dict[str, tuple[Passage, np.ndarray]]


def evidence_scores(top: Sequence[ScoredId], rels: Mapping[str, Relation]) -> dict[str, float]:
    """The evidence passages (those carrying one of the top relations), each with its best top-relation score."""
    evidence: dict[str, float] = {}
    for s in top:
        for pid in rels[s.id].passage_ids if s.id in rels else ():
            evidence[pid] = max(evidence.get(pid, 0.0), s.score)
    return evidence


def named_passages(
    graph: Graph, pool: Pool, evidence: Mapping[str, float], scope: Scope = EVERYTHING
) -> dict[str, tuple[str, float]]:
    """Passages titled by a name that an evidence passage mentions, each with the evidence passage that names it and
    that passage's score."""
    ids = [pid for pid in evidence if pid in pool]
    named: dict[str, tuple[str, float]] = {}
    for src, found in zip(ids, graph.passages_named_in([pool[pid][0].text for pid in ids]), strict=True):
        for pid in scope.passages(sorted(found - {src})):
            if evidence[src] > named.get(pid, ("", -1.0))[1]:
                named[pid] = (src, evidence[src])
    return named


def linked_passages(
    graph: Graph,
    pool: Pool,
    evidence: Mapping[str, float],
    question_entities: Collection[str],
    scope: Scope = EVERYTHING,
) -> dict[str, tuple[str, float]]:
    """Passages sharing a graph entity (not one the question names) with an evidence passage, each with the evidence
    passage and its score divided by the number of other passages that name the entity (the best such link)."""
    shared: dict[str, list[str]] = {}
    for src in evidence:
        if src in pool:
            for e in pool[src][0].entity_ids:
                if e not in question_entities:
                    shared.setdefault(e, []).append(src)
    linked: dict[str, tuple[str, float]] = {}
    for ent in graph.get_entities(sorted(shared)):
        others = scope.passages([pid for pid in dict.fromkeys(ent.passage_ids) if pid not in evidence])
        if not others:
            continue
        src = max(shared[ent.id], key=lambda s: (evidence[s], s))
        score = evidence[src] / len(others)
        for pid in others:
            if score > linked.get(pid, ("", -1.0))[1]:
                linked[pid] = (src, score)
    return linked

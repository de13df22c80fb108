"""Two runs of one question side by side — "what if two hops?", "graph or plain vector search?": per step, what the
new run found that the pinned one did not (gained), what it no longer found (lost) and what both found (kept); the
final passages with their ranks in each run; the evidence; and the graph of a step with the difference coloured.
Pure functions over two QueryTraces: the Ask page only draws what they return."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields

from ..config import QueryParams
from ..query.trace import QueryTrace, Step
from .chain import answer_chain
from .explain import steps_for
from .layout import layout
from .viz import VizEdge, VizGraph, VizNode

DIFF_ROLES = ("lost", "gained", "both")  # the drawing's roles: only the pinned run (A), only the new run (B), both
# in every label, so the difference reads without colour too
MARK = {"gained": "+ ", "lost": "− ", "both": "", "path": "", "context": ""}


@dataclass(frozen=True)
class IdDiff:
    """Ids in both runs (kept), in the new run only (gained) and in the pinned run only (lost), each in run order."""

    kept: tuple[str, ...] = ()
    gained: tuple[str, ...] = ()
    lost: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        return bool(self.gained or self.lost)


def id_diff(a: Iterable[str], b: Iterable[str]) -> IdDiff:
    a, b = list(dict.fromkeys(a)), list(dict.fromkeys(b))
    sa, sb = set(a), set(b)
    return IdDiff(
        tuple(x for x in a if x in sb), tuple(x for x in b if x not in sa), tuple(x for x in a if x not in sb)
    )


@dataclass(frozen=True)
class KnobChange:
    """A setting that differs between the runs: the knob's QueryParams field (or "method"), its two values."""

    name: str
    a: str
    b: str


@dataclass(frozen=True)
class PassageMove:
    """A passage in either run's final list, with its rank (1-based) in each; None where it is not in the list."""

    id: str
    title: str
    rank_a: int | None
    rank_b: int | None

    @property
    def status(self) -> str:
        if self.rank_a is None:
            return "gained"
        return "lost" if self.rank_b is None else "kept"


@dataclass(frozen=True)
class StepDiff:
    """One step: what the step itself produced in each run (`entities`, `relations`: the seeds, a hop's new ids, the
    evicted relations, the rerank's selection, the answer's path) and the subgraph standing after it (`subgraph_*`,
    what the drawing shows)."""

    step: Step
    entities: IdDiff
    relations: IdDiff
    subgraph_entities: IdDiff
    subgraph_relations: IdDiff
    in_a: bool = True  # the step ran in the pinned run (a run with Hops = 1 has no hop 2)
    in_b: bool = True

    @property
    def changed(self) -> bool:
        return self.entities.changed or self.relations.changed


@dataclass(frozen=True)
class RunDiff:
    question_a: str
    question_b: str
    method_a: str
    method_b: str
    knobs: tuple[KnobChange, ...]
    steps: tuple[StepDiff, ...]
    passages: tuple[PassageMove, ...]  # run B's list in its order, then what only run A had, in A's order
    evidence: IdDiff  # the answer's evidence sentences
    answer_a: str
    answer_b: str

    def step(self, step: Step) -> StepDiff:
        return next((s for s in self.steps if s.step is step), self.steps[-1])

    @property
    def step_labels(self) -> tuple[str, ...]:
        return tuple(s.step.label for s in self.steps)


def knob_changes(a: QueryTrace, b: QueryTrace) -> tuple[KnobChange, ...]:
    out = [KnobChange("method", a.method, b.method)] if a.method != b.method else []
    for f in fields(QueryParams):
        va, vb = getattr(a.params, f.name), getattr(b.params, f.name)
        if va != vb:
            out.append(KnobChange(f.name, str(va), str(vb)))
    return tuple(out)


def _own(t: QueryTrace, step: Step) -> tuple[list[str], list[str]]:
    """(entity ids, relation ids) the step itself produced in this run."""
    if step is Step.QUERY_ENTITIES:
        ents = t.query_entities.entities if t.query_entities else ()
        return [e.entity_id for e in ents if e.entity_id], []
    if step is Step.SEEDS:
        return ([s.id for s in t.seeds.entity_hits], [s.id for s in t.seeds.relation_hits]) if t.seeds else ([], [])
    if step.hop_depth is not None:
        hop = next((h for h in t.hops if h.depth == step.hop_depth), None)
        return (list(hop.new_entity_ids), list(hop.new_relation_ids)) if hop else ([], [])
    if step is Step.EVICTION:
        return [], list(t.eviction.evicted) if t.eviction else []
    if step is Step.RERANK:
        return [], list(t.rerank.selected) if t.rerank else []
    return [], list(answer_chain(t))


def _ends(t: QueryTrace, rids: Iterable[str]) -> list[str]:
    return [x for r in (t.relation(i) for i in rids) if r is not None for x in (r.subject_id, r.object_id)]


def _standing(t: QueryTrace, step: Step) -> tuple[list[str], list[str]]:
    """(entity ids, relation ids) of the subgraph standing after the step in this run."""
    named = _own(t, Step.QUERY_ENTITIES)[0]
    if step is Step.QUERY_ENTITIES or t.seeds is None:
        return named, []
    if step.reached(Step.RERANK):
        rels = list(t.rerank.selected) if t.rerank else []
        return named + _ends(t, rels), rels
    rels = [s.id for s in t.seeds.relation_hits]
    ents = named + [s.id for s in t.seeds.entity_hits]
    for h in t.hops:
        if step.reached(Step.EVICTION) or (step.hop_depth or 0) >= h.depth:
            rels += h.new_relation_ids
            ents += h.new_entity_ids
    if step is Step.EVICTION and t.eviction:
        gone = set(t.eviction.evicted)
        rels = [r for r in rels if r not in gone]
    return ents + _ends(t, rels), rels


def _ranks(t: QueryTrace) -> dict[str, int]:
    return {p.id: n for n, p in enumerate(t.passages.passages, 1)} if t.passages else {}


def compare_runs(a: QueryTrace, b: QueryTrace) -> RunDiff:
    """Run A (pinned) against run B (the new run), step by step."""
    ran_a, ran_b = set(steps_for(a)), set(steps_for(b))
    steps = []
    for step in (s for s in Step if s in ran_a or s in ran_b):
        (ea, ra), (eb, rb) = _own(a, step), _own(b, step)
        (sea, sra), (seb, srb) = _standing(a, step), _standing(b, step)
        steps.append(
            StepDiff(step, id_diff(ea, eb), id_diff(ra, rb), id_diff(sea, seb), id_diff(sra, srb), step in ran_a,
                     step in ran_b)
        )  # fmt: skip
    rank_a, rank_b = _ranks(a), _ranks(b)
    titles = {p.id: p.title for t in (a, b) if t.passages for p in t.passages.passages}
    order = list(rank_b) + [p for p in rank_a if p not in rank_b]
    moves = tuple(PassageMove(p, titles[p], rank_a.get(p), rank_b.get(p)) for p in order)
    ev_a = [e.sentence for e in a.answer.evidence] if a.answer else []
    ev_b = [e.sentence for e in b.answer.evidence] if b.answer else []
    return RunDiff(
        a.question, b.question, a.method, b.method, knob_changes(a, b), tuple(steps), moves, id_diff(ev_a, ev_b),
        a.answer.short or a.answer.text if a.answer else "", b.answer.short or b.answer.text if b.answer else "",
    )  # fmt: skip


def _name(a: QueryTrace, b: QueryTrace, eid: str) -> str:
    name = b.entity_name(eid)
    return a.entity_name(eid) if name == eid else name


def _diff_parts(
    a: QueryTrace, b: QueryTrace, d: StepDiff, cap: int | None
) -> tuple[dict[str, str], list[str], list[VizEdge]]:
    """(role per entity, the entities kept under the cap — changed ones first —, the drawable relations)."""
    role_e = {i: r for r, ids in (("both", d.subgraph_entities.kept), ("gained", d.subgraph_entities.gained),
                                  ("lost", d.subgraph_entities.lost)) for i in ids}  # fmt: skip
    role_r = {i: r for r, ids in (("both", d.subgraph_relations.kept), ("gained", d.subgraph_relations.gained),
                                  ("lost", d.subgraph_relations.lost)) for i in ids}  # fmt: skip
    if d.step is Step.ANSWER:
        role_e, role_r = _answer_roles(a, b, role_e, role_r)
    changed_first = sorted(role_e, key=lambda i: (role_e[i] in ("both", "context"), i))
    keep = changed_first[:cap] if cap is not None else changed_first
    kept = set(keep)
    edges = []
    for rid, role in role_r.items():
        r = b.relation(rid) or a.relation(rid)
        if r is None or not {r.subject_id, r.object_id} <= kept:
            continue
        where = WHERE[role]
        edges.append(VizEdge(rid, r.subject_id, r.object_id, MARK[role] + r.predicate, role, f"{r.text}\n{where}"))
    return role_e, keep, edges


WHERE = {"both": "in both runs", "gained": "only in the new run", "lost": "only in the pinned run",
         "path": "on both runs' answer chains", "context": "selected, not on an answer chain"}  # fmt: skip


def _answer_roles(
    a: QueryTrace, b: QueryTrace, role_e: dict[str, str], role_r: dict[str, str]
) -> tuple[dict[str, str], dict[str, str]]:
    """The answer step as the step-through draws it: the chain to the cited passages in colour ("path" when both runs
    draw it, "gained" / "lost" when only the new / the pinned run does), the rest of the selection faded."""
    ca, cb = set(answer_chain(a)), set(answer_chain(b))
    roles = {rid: ("path" if rid in ca and rid in cb else "gained" if rid in cb else "lost") for rid in ca | cb}
    new_r = {rid: roles.get(rid, "context") for rid in role_r} | roles
    new_e = dict.fromkeys(role_e, "context")
    rank = {"path": 0, "gained": 1, "lost": 1, "context": 2}
    for rid, role in roles.items():
        r = b.relation(rid) or a.relation(rid)
        for eid in (r.subject_id, r.object_id) if r else ():
            if rank[role] < rank[new_e.get(eid, "context")]:
                new_e[eid] = role
    return new_e, new_r


def diff_layout(a: QueryTrace, b: QueryTrace, diff: RunDiff, cap: int | None = 60) -> dict[str, tuple[float, float]]:
    """One position per entity any step of the comparison draws (at this cap), computed once for the pair: nothing
    moves while the class steps through, and a step costs no layout."""
    ids: set[str] = set()
    edges: set[tuple[str, str]] = set()
    labels: set[tuple[str, str, str]] = set()
    for d in diff.steps:
        _, keep, es = _diff_parts(a, b, d, cap)
        ids.update(keep)
        edges.update((e.source, e.target) for e in es)
        labels.update((e.source, e.target, e.label.removeprefix("+ ").removeprefix("− ")) for e in es)
    order = tuple(sorted(ids))
    return layout(order, tuple(sorted(edges)), tuple(sorted(labels)), tuple("+ " + _name(a, b, i) for i in order))


def diff_graph(
    a: QueryTrace, b: QueryTrace, d: StepDiff, cap: int | None = 60, pos: dict[str, tuple[float, float]] | None = None
) -> VizGraph:
    """The subgraph standing after the step in either run, each node and relation coloured by the run(s) it is in
    (roles "lost": only the pinned run, "gained": only the new run, "both") and its label marked + or −, at the
    positions of `pos` (diff_layout: shared by every step) or laid out for this step alone. Relations a run evicted
    have no view in either trace and are left out."""
    role_e, keep, edges = _diff_parts(a, b, d, cap)
    ids = tuple(sorted(keep))
    names = tuple(MARK[role_e[i]] + _name(a, b, i) for i in ids)
    if pos is None or any(i not in pos for i in ids):
        pos = layout(ids, tuple(sorted({(e.source, e.target) for e in edges})),
                     tuple(sorted({(e.source, e.target, e.label) for e in edges})), names)  # fmt: skip
    nodes = tuple(
        VizNode(i, n, role_e[i], f"{_name(a, b, i)}\n{role_e[i]}", pos[i][0], pos[i][1])
        for i, n in zip(ids, names, strict=True)
    )
    focus = tuple(i for i in keep if role_e[i] not in ("both", "context")) or ids
    return VizGraph(nodes, tuple(edges), len(role_e) - len(keep), focus)


def run_label(t: QueryTrace, other: QueryTrace | None = None) -> str:
    """A run in a few words: its method and the knobs that differ from `other` ("graph · hops 2 · cap 50")."""
    if other is None:
        return t.method
    diffs = [k for k in knob_changes(other, t) if k.name != "method"]
    return " · ".join([t.method] + [f"{k.name.replace('_', ' ')} {k.b}" for k in diffs])


def counts(diff: IdDiff) -> str:
    """ "+3 −1 (5 kept)" for a table cell."""
    return f"+{len(diff.gained)} −{len(diff.lost)} ({len(diff.kept)} kept)"


def passages_table(diff: RunDiff) -> list[dict]:
    """The final passages as rows for a table: title, rank in A, rank in B, and kept / gained / lost."""
    return [
        {"passage": m.title or m.id, "rank in pinned run": m.rank_a, "rank in new run": m.rank_b, "status": m.status}
        for m in diff.passages
    ]


def step_table(diff: RunDiff) -> list[dict]:
    """Every step as a row: the entities and relations it produced, and the subgraph after it, as counts."""
    return [
        {"step": s.step.label, "entities": counts(s.entities), "relations": counts(s.relations),
         "subgraph relations": counts(s.subgraph_relations)}
        for s in diff.steps
    ]  # fmt: skip

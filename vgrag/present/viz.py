"""What a step's graph shows: the subgraph of a trace (or an entity's neighbourhood) as VizGraph — nodes and edges
coloured by role, each node at its fixed place. drawing.py turns a VizGraph into vis-network data and HTML."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..query.trace import QueryTrace, Step
from ..storage.store import Graph
from .chain import answer_chain
from .diff_palette import DIFF_COLORS, DIFF_LABELS
from .explain import TOP_SELECTED
from .layout import MIN_SCALE as MIN_SCALE  # labels ≥ 12 px: drawing.py, replay.py and tests read it here
from .layout import layout, relation_label

# One palette for Ask, Explore and the replay page: Okabe–Ito, distinguishable with every common colour-vision
# deficiency; "context" (what earlier steps drew) is faded so the current step stands out.
ROLE_COLORS = {
    "query": "#CC79A7",  # entities named in the question
    "seed": "#E69F00",  # seed entities / relations from vector search
    "hop1": "#56B4E9",  # reached by hop 1
    "hop2": "#0072B2",  # reached by hop 2
    "selected": "#009E73",  # chosen by the rerank: its top relations
    "kept": "#9FD8C6",  # chosen by the rerank, lower ranked (drawn light)
    "rejected": "#BBBBBB",  # candidate the rerank did not choose
    "path": "#D55E00",  # on the answer's best reasoning path
    "context": "#DDDDDD",  # drawn by an earlier step
    "centre": "#CC79A7",  # Explore: the entity searched for (as "query")
    "near": "#56B4E9",  # Explore: one hop away (as "hop1")
    "far": "#0072B2",  # Explore: two hops away (as "hop2")
    **DIFF_COLORS,  # a comparison of two runs (compare.py)
}
ROLE_LABELS = {
    "query": "named in the question",
    "seed": "seed (vector search)",
    "hop1": "reached by hop 1",
    "hop2": "reached by hop 2",
    "selected": "top relations selected by rerank",  # how many: the step's text (fewer than TOP_SELECTED may be)
    "kept": "also kept by rerank",
    "rejected": "not selected",
    "path": "on the answer's reasoning path",
    "context": "from earlier steps",
    "centre": "the entity you searched",
    "near": "1 hop away",
    "far": "2 hops away",
    **DIFF_LABELS,
}
FADED = {"context", "rejected", "kept"}
STEPS: tuple[Step, ...] = tuple(Step)


@dataclass(frozen=True)
class VizNode:
    id: str
    label: str
    role: str
    title: str
    x: float | None = None  # fixed position (one layout per trace: nodes never jump between steps)
    y: float | None = None


@dataclass(frozen=True)
class VizEdge:
    id: str
    source: str
    target: str
    label: str
    role: str
    title: str


@dataclass(frozen=True)
class VizGraph:
    nodes: tuple[VizNode, ...]
    edges: tuple[VizEdge, ...]
    hidden_nodes: int = 0
    focus: tuple[str, ...] = ()  # the nodes this view is about: the drawing zooms to them


def _cap(
    nodes: dict[str, VizNode], edges: list[VizEdge], cap: int | None, rank: dict[str, float], lead: str = ""
) -> VizGraph:
    """The nodes kept under the cap, most important first, and the focus the view opens on: the step's own nodes
    (`lead`: the answer's path, the top selected relations' entities …) first, then the question's entities, so
    the view shows what the step did when not everything fits at a readable scale."""
    order = {"query": 0, "centre": 0, "path": 1, "seed": 2, "near": 2, "selected": 3, "hop1": 4, "far": 4}
    order |= {"hop2": 5, "kept": 6, "rejected": 7, "context": 8}
    keep = sorted(nodes, key=lambda i: (order.get(nodes[i].role, 9), -rank.get(i, 0.0), i))
    if cap is not None:
        keep = keep[:cap]
    kept = set(keep)
    es = tuple(e for e in edges if e.source in kept and e.target in kept)
    focus = [i for i in keep if nodes[i].role not in FADED]
    focus.sort(key=lambda i: nodes[i].role != lead)  # stable: within each part, the order above
    return VizGraph(tuple(nodes[i] for i in keep), es, len(nodes) - len(kept), tuple(focus))


def trace_layout(trace: QueryTrace, cap: int | None = 60) -> dict[str, tuple[float, float]]:
    """One position per entity the step-through draws (at this node cap, over all its steps), computed once per
    trace and shared by every step: nothing moves between steps. Laying out only what is drawn, not every entity
    the query touched (up to 3× more on a large graph), keeps a step's nodes close enough to read together. Each
    node's wave is the step that first draws it (the question's entities count with the seeds): the seeds fit the
    smallest frame, and each hop's nodes go around what the class has already seen."""
    first: dict[str, int] = {}
    for step in STEPS:
        for n in _trace_graph(trace, step, cap).nodes:
            first.setdefault(n.id, max(step.index, Step.SEEDS.index))
    drawn = sorted(first)
    keep = set(drawn)
    rels = [r for r in trace.relations if {r.subject_id, r.object_id} <= keep]
    edges = tuple(sorted({(r.subject_id, r.object_id) for r in rels}))
    labels = tuple(sorted({(r.subject_id, r.object_id, relation_label(r)) for r in rels}))
    names = tuple(trace.entity_name(i) for i in drawn)
    return layout(tuple(drawn), edges, labels, names, tuple(first[i] for i in drawn))


def trace_graph(trace: QueryTrace, step: Step, cap: int | None = 60) -> VizGraph:
    """The subgraph as it stands after `step`, coloured by role, every node at its place in the trace's layout."""
    return _placed(_trace_graph(trace, step, cap), trace_layout(trace, cap))


def _placed(g: VizGraph, pos: dict[str, tuple[float, float]]) -> VizGraph:
    nodes = tuple(replace(n, x=pos[n.id][0], y=pos[n.id][1]) if n.id in pos else n for n in g.nodes)
    return replace(g, nodes=nodes)


def _trace_graph(trace: QueryTrace, step: Step, cap: int | None) -> VizGraph:
    """Roles per step: the step's own nodes and edges in their colour, what earlier steps drew faded as context."""
    name = trace.entity_name
    nodes: dict[str, VizNode] = {}
    rank: dict[str, float] = {}
    edges: list[VizEdge] = []
    strength = {"path": 7, "query": 6, "seed": 5, "selected": 4, "hop1": 3, "hop2": 3, "kept": 2, "rejected": 1}

    def node(eid: str, role: str, why: str) -> None:
        old = nodes.get(eid)
        if old is None or strength.get(role, 0) > strength.get(old.role, 0):
            nodes[eid] = VizNode(eid, name(eid), role, f"{name(eid)}\n{why}" if old is None else old.title)

    named = {q.entity_id for q in trace.query_entities.entities if q.entity_id} if trace.query_entities else set()
    for eid in named:
        node(eid, "query", "named in the question")
    if not step.reached(Step.SEEDS) or trace.seeds is None:
        return _cap(nodes, edges, cap, rank)
    seeds_lead = step in (Step.SEEDS, Step.HOP_1, Step.HOP_2)  # the hops start from the seeds: keep them lit
    for s in trace.seeds.entity_hits:
        node(s.id, "seed" if seeds_lead else "context", f"seed entity, similarity {s.score:.3f}")
        rank[s.id] = s.score
    origin: dict[str, str] = {s.id: "seed" for s in trace.seeds.relation_hits}
    for h in trace.hops:
        for rid in h.new_relation_ids:
            origin.setdefault(rid, f"hop{h.depth}")
    current = {Step.SEEDS: "seed", Step.HOP_1: "hop1", Step.HOP_2: "hop2"}.get(step)
    shown = {"seed"} | {f"hop{d}" for d, st in ((1, Step.HOP_1), (2, Step.HOP_2)) if step.reached(st)}
    selected = set(trace.rerank.selected) if trace.rerank and step.reached(Step.RERANK) else set()
    top = set(trace.rerank.selected[:TOP_SELECTED]) if trace.rerank else set()
    on_path = set(answer_chain(trace)) if step is Step.ANSWER else set()
    for r in trace.relations:
        where = origin.get(r.id)
        if where not in shown:
            continue
        if step is Step.ANSWER and on_path:
            role = "path" if r.id in on_path else "context"
        elif step.reached(Step.RERANK):
            role = ("selected" if r.id in top else "kept") if r.id in selected else "rejected"
        elif step is Step.EVICTION:
            role = where  # every surviving candidate, coloured by the step that found it
        else:
            role = where if where == current else "context"
        why = f"similarity {r.similarity:.3f}, " + ("seed relation" if where == "seed" else f"found by hop {where[-1]}")
        edges.append(VizEdge(r.id, r.subject_id, r.object_id, relation_label(r), role, f"{r.text}\n{why}"))
        for eid in (r.subject_id, r.object_id):
            node(eid, "query" if eid in named and role not in FADED else role, f"reached via “{r.text}”")
            rank[eid] = max(rank.get(eid, 0.0), r.similarity)
    lead = {Step.SEEDS: "seed", Step.HOP_1: "hop1", Step.HOP_2: "hop2", Step.RERANK: "selected"}.get(step, "")
    return _cap(nodes, edges, cap, rank, "path" if on_path else lead)


def neighbourhood(graph: Graph, entity_id: str, depth: int = 1, cap: int | None = 60) -> VizGraph:
    """An entity's neighbourhood at depth 1 or 2 by primary-key look-ups."""
    centre = graph.get_entities([entity_id])
    if not centre:
        return VizGraph((), ())
    nodes = {entity_id: VizNode(entity_id, centre[0].name, "centre", f"{centre[0].name}\n(centre)")}
    edges: list[VizEdge] = []
    frontier = [centre[0]]
    seen_rel: set[str] = set()
    for d in range(1, max(1, min(2, depth)) + 1):
        rel_ids = [r for e in frontier for r in e.relation_ids if r not in seen_rel]
        rels = graph.get_relations(rel_ids[: 4 * (cap or 500)])
        new_ids = []
        for r in rels:
            seen_rel.add(r.id)
            edges.append(
                VizEdge(
                    r.id,
                    r.subject_id,
                    r.object_id,
                    relation_label(r),
                    "far" if d > 1 else "near",
                    f"{r.text}\nfrom {len(r.passage_ids)} passage(s)",
                )
            )
            for eid, nm in ((r.subject_id, r.subject), (r.object_id, r.object)):
                if eid not in nodes:
                    nodes[eid] = VizNode(eid, nm, "near" if d == 1 else "far", f"{nm}\n{d} hop(s) away")
                    new_ids.append(eid)
        frontier = graph.get_entities(new_ids) if d < depth else []
    shown = _cap(nodes, edges, cap, {})
    # laid out here, not by the browser's physics: the drawing is the same on every visit and appears at once,
    # zoomed when drawn (no wait for a stabilisation event a slow or hidden tab may deliver late). With the names and
    # predicates, so each label has room, and in waves (the centre and its neighbours first, fitting the smallest
    # frame; then the second hop around them): depth 2 drew the centre's own neighbours off the frame's edge
    ids = tuple(sorted(n.id for n in shown.nodes))
    role = {n.id: n.role for n in shown.nodes}
    pos = layout(
        ids,
        tuple(sorted((e.source, e.target) for e in shown.edges)),
        tuple(sorted((e.source, e.target, e.label) for e in shown.edges)),
        tuple(nodes[i].label for i in ids),
        tuple(int(role[i] == "far") for i in ids),
    )
    return replace(shown, nodes=tuple(replace(n, x=pos[n.id][0], y=pos[n.id][1]) for n in shown.nodes))


def legend(roles: Sequence[str]) -> list[tuple[str, str, str]]:
    """(role, colour, meaning) for the roles shown."""
    return [(r, ROLE_COLORS[r], ROLE_LABELS[r]) for r in roles if r in ROLE_COLORS]

"""Subgraphs → self-contained pyvis HTML (no network requests; text from documents is never markup).

Safety: vis-network 9 renders string tooltips with innerText and draws labels on a canvas; pyvis embeds
node/edge data through Jinja's `tojson`, which escapes `<`, `>` and `&`. We never enable pyvis's
`tooltip_link` popup (it uses innerHTML), and we strip every remote <link>/<script src> pyvis adds.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from .store import Graph
from .trace import QueryTrace, Step

ROLE_COLORS = {
    "query": "#7b2cbf",  # entities named in the question
    "seed": "#f4a261",  # seed entities / relations from vector search
    "expanded": "#66a182",  # reached by a hop
    "selected": "#2a9d8f",  # chosen by the rerank
    "rejected": "#c9c9c9",  # candidate not chosen
    "path": "#d62828",  # on the answer's best reasoning path
    "entity": "#8d99ae",  # plain node
    "centre": "#7b2cbf",  # Explore: the entity searched for
    "near": "#f4a261",  # Explore: one hop away
    "far": "#8d99ae",  # Explore: two hops away
}
ROLE_LABELS = {
    "query": "named in the question",
    "seed": "seed (vector search)",
    "expanded": "reached by a hop",
    "selected": "selected by rerank",
    "rejected": "not selected",
    "path": "on the answer's reasoning path",
    "entity": "entity",
    "centre": "the entity you searched",
    "near": "1 hop away",
    "far": "2 hops away",
}
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


# pyvis's in_line page still links Bootstrap from a CDN and a non-existent ../node_modules copy of vis: drop both
_EXTERNAL = re.compile(
    r"<link[^>]+href=\"(?:https?:)?(?://|\.\./)[^\"]*\"[^>]*>"
    r"|<script[^>]+src=\"(?:https?:)?(?://|\.\./)[^\"]*\"[^>]*>\s*</script>",
    re.I | re.S,
)
VIS_JS, VIS_CSS = "vis-network.min.js", "vis-network.css"


@functools.lru_cache(maxsize=2)
def vis_asset(name: str) -> str:
    """vis-network's JS or CSS as shipped inside the installed pyvis package (read once per process)."""
    import pyvis

    return (Path(pyvis.__file__).parent / "templates/lib/vis-9.1.2" / name).read_text(encoding="utf-8")


def _short(s: str, n: int = 40) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"


def render_html(g: VizGraph, height_px: int = 560, assets_url: str | None = None) -> str:
    """An HTML page drawing the graph with zero external requests: vis-network inlined (standalone), or, with
    `assets_url`, loaded from that same-origin folder so a browser fetches and parses it once, not per draw."""
    from pyvis.network import Network

    net = Network(height=f"{height_px}px", width="100%", directed=True, cdn_resources="in_line", bgcolor="#ffffff")
    fixed = bool(g.nodes) and all(n.x is not None for n in g.nodes)
    for n in g.nodes:
        color = ROLE_COLORS.get(n.role, ROLE_COLORS["entity"])
        pos = {"x": n.x, "y": n.y, "physics": False} if fixed else {}
        net.add_node(
            n.id,
            label=_short(n.label),
            title=n.title,
            color=color,
            shape="dot",
            size=18 if n.role in ("query", "seed", "centre") else 12,
            **pos,
        )
    for e in g.edges:
        color = ROLE_COLORS.get(e.role, ROLE_COLORS["entity"])
        net.add_edge(
            e.source,
            e.target,
            label=_short(e.label, 28),
            title=e.title,
            color=color,
            width=3 if e.role in ("selected", "path", "seed", "near") else 1,
        )
    physics = (
        '{"enabled": false}' if fixed else '{"stabilization": {"iterations": 80}, "barnesHut": {"springLength": 140}}'
    )
    net.set_options(
        '{"physics": ' + physics + ', "nodes": {"font": {"size": 16}},'
        ' "edges": {"font": {"size": 13, "align": "middle"}, "smooth": false},'
        ' "interaction": {"hover": true, "tooltipDelay": 120}}'
    )
    html = _EXTERNAL.sub("", net.generate_html(notebook=False))
    if assets_url:
        js, css = vis_asset(VIS_JS), vis_asset(VIS_CSS)
        html = html.replace(f"<script>{js}</script>", f'<script src="{assets_url}/{VIS_JS}"></script>', 1)
        html = html.replace(css, "", 1).replace(
            "</head>", f'<link rel="stylesheet" href="{assets_url}/{VIS_CSS}"></head>', 1
        )
    return html


def _cap(nodes: dict[str, VizNode], edges: list[VizEdge], cap: int | None, rank: dict[str, float]) -> VizGraph:
    order = {
        "query": 0,
        "centre": 0,
        "path": 1,
        "seed": 2,
        "near": 2,
        "selected": 3,
        "expanded": 4,
        "far": 4,
        "entity": 5,
        "rejected": 6,
    }
    keep = sorted(nodes, key=lambda i: (order.get(nodes[i].role, 9), -rank.get(i, 0.0), i))
    if cap is not None:
        keep = keep[:cap]
    kept = set(keep)
    es = tuple(e for e in edges if e.source in kept and e.target in kept)
    return VizGraph(tuple(nodes[i] for i in keep), es, len(nodes) - len(kept))


@functools.lru_cache(maxsize=16)
def _layout(nodes: tuple[str, ...], edges: tuple[tuple[str, str], ...]) -> dict[str, tuple[float, float]]:
    """Deterministic spring layout (fixed seed), spread so labels have room: ~180 px between neighbours."""
    import networkx as nx

    g = nx.Graph()
    g.add_nodes_from(nodes)
    g.add_edges_from(edges)
    pos = nx.spring_layout(g, seed=7, iterations=60)
    scale = 180.0 * max(1.0, len(nodes) ** 0.5)
    return {n: (round(float(x) * scale, 1), round(float(y) * scale, 1)) for n, (x, y) in pos.items()}


def trace_layout(trace: QueryTrace) -> dict[str, tuple[float, float]]:
    """One position per entity the query touched, computed once per trace and shared by every step."""
    nodes = tuple(
        sorted({e.id for e in trace.entities} | {x for r in trace.relations for x in (r.subject_id, r.object_id)})
    )
    edges = tuple(sorted((r.subject_id, r.object_id) for r in trace.relations))
    return _layout(nodes, edges)


def trace_graph(trace: QueryTrace, step: Step, cap: int | None = 60) -> VizGraph:
    """The subgraph as it stands after `step`, coloured by role, every node at its place in the trace's layout."""
    return _placed(_trace_graph(trace, step, cap), trace_layout(trace))


def _placed(g: VizGraph, pos: dict[str, tuple[float, float]]) -> VizGraph:
    nodes = tuple(replace(n, x=pos[n.id][0], y=pos[n.id][1]) if n.id in pos else n for n in g.nodes)
    return replace(g, nodes=nodes)


def _trace_graph(trace: QueryTrace, step: Step, cap: int | None) -> VizGraph:
    name = trace.entity_name
    nodes: dict[str, VizNode] = {}
    rank: dict[str, float] = {}
    edges: list[VizEdge] = []

    def node(eid: str, role: str, why: str) -> None:
        if eid not in nodes:
            nodes[eid] = VizNode(eid, name(eid), role, f"{name(eid)}\n{why}")

    if trace.query_entities:
        for q in trace.query_entities.entities:
            if q.entity_id:
                node(q.entity_id, "query", f"named in the question ({q.method})")
    if not step.reached(Step.SEEDS) or trace.seeds is None:
        return _cap(nodes, edges, cap, rank)
    for s in trace.seeds.entity_hits:
        node(s.id, "seed", f"seed entity, similarity {s.score:.3f} to “{s.via}”")
        rank[s.id] = s.score
    edge_role: dict[str, str] = {s.id: "seed" for s in trace.seeds.relation_hits}
    hop_of: dict[str, int] = {}
    for h in trace.hops:
        for rid in h.new_relation_ids:
            hop_of[rid] = h.depth
    visible = set(edge_role)
    for depth, hop_step in ((1, Step.HOP_1), (2, Step.HOP_2)):
        if step.reached(hop_step):
            visible |= {r for r, d in hop_of.items() if d == depth}
    if step.reached(Step.EVICTION):  # after eviction only the surviving candidates remain
        visible &= {r.id for r in trace.relations}
    selected = set(trace.rerank.selected) if trace.rerank and step.reached(Step.RERANK) else set()
    reached_answer = step.reached(Step.ANSWER)
    on_path = set(trace.answer.paths[0]) if trace.answer and trace.answer.paths and reached_answer else set()
    for r in trace.relations:
        if r.id not in visible:
            continue
        role = edge_role.get(r.id, "expanded")
        if step.reached(Step.RERANK):
            role = "selected" if r.id in selected else "rejected"
        if reached_answer and on_path:
            role = "path" if r.id in on_path else "rejected"
        why = f"similarity {r.similarity:.3f}" + (f", hop {hop_of[r.id]}" if r.id in hop_of else ", seed relation")
        edges.append(VizEdge(r.id, r.subject_id, r.object_id, r.predicate, role, f"{r.text}\n{why}"))
        for eid in (r.subject_id, r.object_id):
            node_role = "path" if role == "path" else ("selected" if role == "selected" else "expanded")
            if eid not in nodes:
                node(eid, node_role, f"reached via “{r.text}”")
            elif role in ("selected", "path") and nodes[eid].role in ("expanded", "rejected"):
                nodes[eid] = VizNode(eid, nodes[eid].label, node_role, nodes[eid].title)
            rank[eid] = max(rank.get(eid, 0.0), r.similarity)
    return _cap(nodes, edges, cap, rank)


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
                    r.predicate,
                    "far" if d > 1 else "near",
                    f"{r.text}\nfrom {len(r.passage_ids)} passage(s)",
                )
            )
            for eid, nm in ((r.subject_id, r.subject), (r.object_id, r.object)):
                if eid not in nodes:
                    nodes[eid] = VizNode(eid, nm, "near" if d == 1 else "far", f"{nm}\n{d} hop(s) away")
                    new_ids.append(eid)
        frontier = graph.get_entities(new_ids) if d < depth else []
    return _cap(nodes, edges, cap, {})


def legend(roles: Sequence[str]) -> list[tuple[str, str, str]]:
    """(role, colour, meaning) for the roles shown."""
    return [(r, ROLE_COLORS[r], ROLE_LABELS[r]) for r in roles if r in ROLE_COLORS]


def replay_html(trace: QueryTrace, cap: int | None = 80) -> str:
    """One self-contained HTML page that replays every step of a query offline (vis-network inlined), with the
    legend, the same fixed layout as the app, and passages numbered as the answer cites them."""
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    steps, roles = [], set()
    for st in STEPS:
        g = trace_graph(trace, st, cap)
        roles |= {n.role for n in g.nodes} | {e.role for e in g.edges}
        nodes = [
            {
                "id": n.id,
                "label": _short(n.label),
                "title": n.title,
                "color": ROLE_COLORS.get(n.role),
                "x": n.x,
                "y": n.y,
            }
            for n in g.nodes
        ]
        edges = [
            {"from": e.source, "to": e.target, "label": _short(e.label, 28), "title": e.title,
             "color": ROLE_COLORS.get(e.role), "arrows": "to"}
            for e in g.edges
        ]  # fmt: skip
        steps.append({"name": st.label, "explain": "", "nodes": nodes, "edges": edges})
    env = Environment(
        loader=FileSystemLoader(Path(__file__).parent / "templates"), autoescape=select_autoescape(["j2", "html"])
    )
    return env.get_template("replay.html.j2").render(
        question=trace.question,
        answer=trace.answer.text if trace.answer else "",
        passages=numbered_passages(trace),
        legend=legend(sorted(roles)),
        steps=steps,
        vis_js=vis_asset(VIS_JS),
    )


def numbered_passages(trace: QueryTrace) -> list[dict]:
    """The retrieved passages numbered 1…k as the answer cites them, then any cited passage outside the top k."""
    ranked = trace.passages.passages if trace.passages else ()
    cited = {c.passage_id for c in trace.answer.citations} if trace.answer else set()
    out = [{"n": n, "title": p.title, "text": p.text, "cited": p.id in cited} for n, p in enumerate(ranked, 1)]
    listed = {p.id for p in ranked}
    for c in trace.answer.citations if trace.answer else ():
        if c.passage_id not in listed:
            out.append({"n": c.n, "title": c.title, "text": c.text, "cited": True})
    return out

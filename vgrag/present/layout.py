"""Where a drawn graph's nodes go: a seeded spring layout, then spread so every label can be read — no two dots
closer than SPACING, every labelled edge long enough for its label, and no other node's dot or label line on an
edge's label. Computed here, not by the browser's physics, so a drawing is the same on every visit and every step."""

from __future__ import annotations

import functools

import numpy as np

EDGE_LABEL_CHARS = 28  # an edge's label as drawn (viz, replay) and as the layout makes room for it


def short_label(s: str, n: int = 40) -> str:
    """A label as drawn: at most n characters, cut with an ellipsis."""
    return s if len(s) <= n else s[: n - 1] + "…"


def relation_label(r: object) -> str:
    """An edge's label: the predicate, and the relation's date when it has one ("founded (in 1989)")."""
    when = getattr(r, "when", "")
    return f"{r.predicate} ({when})" if when else r.predicate  # type: ignore[attr-defined]


@functools.lru_cache(maxsize=16)
def layout(
    nodes: tuple[str, ...],
    edges: tuple[tuple[str, str], ...],
    labels: tuple[tuple[str, str, str], ...] = (),
    names: tuple[str, ...] = (),
) -> dict[str, tuple[float, float]]:
    """Deterministic spring layout (fixed seed), spread so labels have room: ~130 px between neighbours, then no
    two nodes closer than SPACING (a hub's neighbours were packed so close their labels overlapped). With `labels`
    ((source, target, label) of the drawn edges) and `names` (each node's label), also every labelled edge long
    enough for its label to show between its dots, and no node with its dot or label on another edge's label (the
    answer step drew "escalation contact for" under its own nodes and "Platform team" over "depends on")."""
    import networkx as nx

    g = nx.Graph()
    g.add_nodes_from(nodes)
    g.add_edges_from(edges)
    pos = nx.spring_layout(g, seed=7, iterations=60)
    scale = 130.0 * max(1.0, len(nodes) ** 0.5)
    xy = np.array([pos[n] for n in nodes], dtype=float).reshape(-1, 2) * scale
    if len(nodes) <= SPREAD_MAX:  # "Show all" on a large graph is an overview: its pairs would cost seconds
        at = {n: i for i, n in enumerate(nodes)}
        need: dict[tuple[int, int], float] = {}
        for a, b, label in labels:
            if a in at and b in at and a != b and label:
                pair = (min(at[a], at[b]), max(at[a], at[b]))
                need[pair] = max(need.get(pair, 0.0), len(short_label(label, EDGE_LABEL_CHARS)) * CHAR_PX)
        widths = np.array([len(short_label(x)) * CHAR_PX for x in names] if names else [0.0] * len(nodes))
        xy = _spread(xy, SPACING, need, widths)
    return {n: (round(float(x), 1), round(float(y), 1)) for n, (x, y) in zip(nodes, xy, strict=True)}


SPACING = 110.0  # px between node centres: a 16 px label line and its dot clear their neighbours'
SPREAD_MAX = 200  # nodes (~150 ms here); the capped views draw ≤ 60 a step, ≤ ~70 over all steps
CHAR_PX = 8.5  # a 16 px sans-serif label, per character on average
DOTS_PX = 56.0  # an edge's two dots (radius ≤ 20 each) and a little air: its label is drawn between them
BELOW_PX = 32.0  # a node's label line is centred this far below its dot's centre
HALF_LINE_PX = 10.0  # half a label line's height
DOT_PX = 20.0  # the largest dot's radius
BOX_GAP_PX = 6.0  # air kept between two nodes' dots and label lines
LINE_POINTS = np.linspace(-0.5, 0.5, 7)  # where a node's label line is checked, as fractions of its width


def _spread(
    xy: np.ndarray,
    gap: float,
    need: dict[tuple[int, int], float] | None = None,
    widths: np.ndarray | None = None,
    rounds: int = 60,
) -> np.ndarray:
    """Push apart every pair of points closer than `gap`, and the ends of every edge (i, j) in `need` (its label's
    length) too close for the label, each by half the shortfall along the line between them; move a node off any
    such label its dot or its label line (`widths`) sits on, square to that edge. Until nothing moves by a pixel
    (or `rounds` passes): the layout's shape stays, only crowded spots open up."""
    xy = xy.copy()
    n = len(xy)
    if n < 2:
        return xy
    jitter = np.random.default_rng(7).normal(scale=1e-3, size=xy.shape)  # points on top of each other part too
    xy += jitter
    pairs = np.array(list(need or {}), dtype=int).reshape(-1, 2)
    lengths = np.array(list((need or {}).values()), dtype=float)
    widths = np.zeros(n) if widths is None else widths
    for _ in range(rounds):
        d = xy[:, None, :] - xy[None, :, :]
        dist = np.sqrt((d**2).sum(-1)) + np.eye(n) * gap * 10
        short = np.clip(gap - dist, 0.0, None)
        step = np.zeros_like(xy)
        if len(pairs):
            i, j = pairs[:, 0], pairs[:, 1]
            short[i, j] = np.maximum(short[i, j], lengths + DOTS_PX - dist[i, j])
            short[j, i] = short[i, j]
            step = _off_labels(xy, pairs, lengths, widths)
        step += ((d / dist[..., None]) * (short / 2)[..., None]).sum(axis=1)
        if widths.any():
            step += _off_boxes(xy, widths)
        if np.abs(step).max() < 1.0:
            break
        xy += step
    return xy


def _off_boxes(xy: np.ndarray, widths: np.ndarray) -> np.ndarray:
    """Per node, the move that takes its box (its dot and the label line below it) off every other node's box: each
    overlapping pair parts along the axis where it overlaps least, half each (labels side by side on one row
    overlapped however far apart the dots were kept). One box per node: parting dots and labels separately pulled
    a node's label below a neighbour's dot while pushing it off that neighbour's label."""
    n = len(xy)
    half_w = np.maximum(widths / 2, DOT_PX)
    top, bottom = -DOT_PX, BELOW_PX + HALF_LINE_PX  # below the dot's centre: y grows downwards
    dx = xy[:, None, 0] - xy[None, :, 0]
    dy = xy[:, None, 1] - xy[None, :, 1]
    over_x = half_w[:, None] + half_w[None, :] + BOX_GAP_PX - np.abs(dx)
    over_y = (bottom - top) + BOX_GAP_PX - np.abs(dy)
    hit = (over_x > 0) & (over_y > 0) & ~np.eye(n, dtype=bool)
    along_y = hit & (over_y <= over_x)
    out = np.zeros_like(xy)
    out[:, 0] = np.where(hit & ~along_y, np.where(dx >= 0, 1.0, -1.0) * over_x / 2, 0.0).sum(axis=1)
    out[:, 1] = np.where(along_y, np.where(dy >= 0, 1.0, -1.0) * over_y / 2, 0.0).sum(axis=1)
    return out


def _off_labels(xy: np.ndarray, pairs: np.ndarray, lengths: np.ndarray, widths: np.ndarray) -> np.ndarray:
    """Per node, the move square to an edge that takes its dot and its label line off that edge's label (the middle
    stretch of the edge, `lengths` long, a line high), for the edges it sits on, other than its own."""
    a, b = xy[pairs[:, 0]], xy[pairs[:, 1]]
    ab = b - a
    length = np.linalg.norm(ab, axis=1)
    unit = ab / np.where(length > 0, length, 1.0)[:, None]
    normal = np.stack([-unit[:, 1], unit[:, 0]], axis=1)
    mid = (a + b) / 2
    # only (edge, node) pairs near enough to touch are measured: the rest cost most of the time
    reach = lengths[:, None] / 2 + widths[None, :] / 2 + BELOW_PX + 2 * HALF_LINE_PX + 20.0
    gap = xy[None, :, :] - mid[:, None, :]
    near = (np.einsum("enk,enk->en", gap, gap) < reach * reach) & (length[:, None] > 0)
    near[np.arange(len(pairs)), pairs[:, 0]] = False  # its own ends: moving them square to it only turns it
    near[np.arange(len(pairs)), pairs[:, 1]] = False  # (tried: no layout settled)
    e, k = np.nonzero(near)
    out = np.zeros_like(xy)
    if not len(e):
        return out
    # each node as points: its dot, and its label line below it every sixth of its width (an edge crossing the
    # line between two points further apart was missed)
    px = xy[k, 0:1] + np.concatenate([[0.0], LINE_POINTS])[None, :] * widths[k, None]  # pairs × points
    py = xy[k, 1:2] + np.where(np.arange(px.shape[1]) == 0, 0.0, BELOW_PX)[None, :]
    clear = np.where(np.arange(px.shape[1]) == 0, 20.0 + HALF_LINE_PX, 2 * HALF_LINE_PX)
    rx, ry = px - mid[e, 0:1], py - mid[e, 1:2]
    along = rx * unit[e, 0:1] + ry * unit[e, 1:2]
    across = rx * normal[e, 0:1] + ry * normal[e, 1:2]
    side = np.where(across[:, 0] >= 0, 1.0, -1.0)  # the dot's side of the edge: moved further that way
    hit = (np.abs(along) < lengths[e, None] / 2) & (np.abs(across) < clear)
    shift = np.where(hit, clear - side[:, None] * across, 0.0).max(axis=1)
    np.add.at(out, k, (shift * side)[:, None] * normal[e])
    return out

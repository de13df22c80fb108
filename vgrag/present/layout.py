"""Where a drawn graph's nodes go: a seeded spring layout, then spread so every label can be read — no two dots
closer than SPACING, every labelled edge long enough for its label, and no other node's dot or label line on an
edge's label — inside the smallest graph frame the app draws, at the readable scale, when they fit there. Computed
here, not by the browser's physics, so a drawing is the same on every visit and every step."""

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
    waves: tuple[int, ...] = (),
) -> dict[str, tuple[float, float]]:
    """Deterministic spring layout (fixed seed), spread so labels have room: ~130 px between neighbours, then no
    two nodes closer than SPACING (a hub's neighbours were packed so close their labels overlapped). With `labels`
    ((source, target, label) of the drawn edges) and `names` (each node's label), also every labelled edge long
    enough for its label to show between its dots, and no node with its dot or label on another edge's label (the
    answer step drew "escalation contact for" under its own nodes and "Platform team" over "depends on").
    `waves` (one number per node: the step that first draws it) lays the graph out as a step-through grows it: the
    first wave fits BOX, the smallest frame, and each later wave is placed around the ones before, which stay put —
    the seeds step of a 32-node trace drew 3 of its 13 nodes at 1280×720 when all were laid out at once."""
    import networkx as nx

    g = nx.Graph()
    g.add_nodes_from(nodes)
    g.add_edges_from(edges)
    pos = nx.spring_layout(g, seed=7, iterations=60)
    scale = 130.0 * max(1.0, len(nodes) ** 0.5)
    xy = _level(np.array([pos[n] for n in nodes], dtype=float).reshape(-1, 2) * scale)
    if len(nodes) <= SPREAD_MAX:  # "Show all" on a large graph is an overview: its pairs would cost seconds
        at = {n: i for i, n in enumerate(nodes)}
        need: dict[tuple[int, int], float] = {}
        for a, b, label in labels:
            if a in at and b in at and a != b and label:
                pair = (min(at[a], at[b]), max(at[a], at[b]))
                need[pair] = max(need.get(pair, 0.0), len(short_label(label, EDGE_LABEL_CHARS)) * CHAR_PX)
        widths = np.array([len(short_label(x)) * CHAR_PX for x in names] if names else [0.0] * len(nodes))
        xy = _waves(g, nodes, xy, need, widths, np.array(waves or [0] * len(nodes)))
    return {n: (round(float(x), 1), round(float(y), 1)) for n, (x, y) in zip(nodes, xy, strict=True)}


def _waves(g, nodes: tuple[str, ...], xy: np.ndarray, need: dict, widths: np.ndarray, wave: np.ndarray) -> np.ndarray:
    """The first wave framed in BOX (_framed); each later one started just outside the nodes placed before
    (_beside) and spread within the boxes of LATER, those nodes held where they are."""
    out = xy.copy()
    placed = np.zeros(len(nodes), dtype=bool)
    for w in sorted(set(wave.tolist())):
        idx = np.nonzero(placed | (wave == w))[0]
        local = {int(i): k for k, i in enumerate(idx)}
        sub_need = {(local[a], local[b]): v for (a, b), v in need.items() if a in local and b in local}
        if not placed.any():
            part = _level(xy[idx]) if len(idx) < len(nodes) else xy[idx]
            out[idx] = _framed(part, sub_need, widths[idx])
        else:
            start = _beside(g, nodes, out, placed, xy, widths)
            out[idx] = _framed(start[idx], sub_need, widths[idx], LATER, placed[idx])
        placed[idx] = True
    return out


def _beside(g, nodes: tuple[str, ...], out: np.ndarray, placed: np.ndarray, xy: np.ndarray, widths: np.ndarray):
    """Where each new node starts: just outside the placed nodes, on the side of its placed neighbours (else where
    the whole graph's spring layout has it). Started among them, a new node stayed trapped on their labels."""
    at = {n: i for i, n in enumerate(nodes)}
    centre = (out[placed].max(axis=0) + out[placed].min(axis=0)) / 2
    reach = np.abs(out[placed] - centre).max(axis=0) + [widths.max(initial=0.0) / 2 + BOX_GAP_PX, SPACING]
    start = out.copy()
    for i in np.nonzero(~placed)[0]:
        near = [at[m] for m in g.neighbors(nodes[i]) if placed[at[m]]]
        way = out[near].mean(axis=0) - centre if near else xy[i]
        way = way if np.linalg.norm(way) > 1.0 else xy[i] + [1.0, 0.0]
        way = way / np.linalg.norm(way)
        start[i] = centre + way * (reach / np.maximum(np.abs(way), 1e-6)).min()
    return start


SPACING = 110.0  # px between node centres: a 16 px label line and its dot clear their neighbours'
SPREAD_MAX = 200  # nodes (~150 ms here); the capped views draw ≤ 60 a step, ≤ ~70 over all steps
CHAR_PX = 8.5  # a 16 px sans-serif label, per character on average
DOTS_PX = 56.0  # an edge's two dots (radius ≤ 20 each) and a little air: its label is drawn between them
BELOW_PX = 32.0  # a node's label line is centred this far below its dot's centre
HALF_LINE_PX = 10.0  # half a label line's height
DOT_PX = 20.0  # the largest dot's radius
BOX_GAP_PX = 6.0  # air kept between two nodes' dots and label lines
LINE_POINTS = np.linspace(-0.5, 0.5, 7)  # where a node's label line is checked, as fractions of its width
MIN_SCALE = 0.75  # labels are 16 px: never zoomed out below 12 px on screen (view.js fits no further)
# The smallest graph frame a step is drawn in: the Ask page's at 1280×720 with the sidebar open is 818×406 px (a
# step sentence of three lines: 380), and view.js keeps 20 px of air inside each edge. A layout within BOX (its
# nodes' dots and labels) shows whole there at MIN_SCALE — every node of every step, none moving between steps.
FRAME_PX = (818.0, 380.0)
BOX = ((FRAME_PX[0] - 40.0) / MIN_SCALE, (FRAME_PX[1] - 40.0) / MIN_SCALE)
BOX_WIDE = ((1458.0 - 40.0) / MIN_SCALE, (792.0 - 40.0) / MIN_SCALE)  # the frame at 1920×1080: for later waves
# The boxes tried in turn, smallest first, until a wave's nodes fit (no label on another, every labelled edge long
# enough for its label), then no box at all. Starting at the whole box, the seeds filled all of BOX and each later
# wave went around them: the travel guide's hop 1 spread over ~1350×970 px (20 of its 32 nodes in view at 1280×720).
GROW = (0.55, 0.65, 0.75, 0.87, 1.0, 1.1, 1.25, 1.45, 1.7, 2.0)
FIRST = tuple((BOX[0] * g, BOX[1] * g) for g in GROW)
# A later wave is spread first within ROOM, what the step's frame at 1280×720 holds at MIN_SCALE (932×438 px since
# session 23, with a two-line step sentence); then, if it is crowded there, within the 1920×1080 frame's boxes that
# hold ROOM, smallest first (smaller boxes than ROOM, tried first, rarely fitted around the placed nodes and each try
# costs a spread). Spread in the wide box's shape (~1.9:1) the travel guide's
# hop 1 was 1198×652 px and showed 26–28 of its 32 nodes at 1280×720, where the room is 1189×531.
ROOM = ((932.0 - 40.0) / MIN_SCALE, (438.0 - 40.0) / MIN_SCALE)
LATER = (ROOM,) + tuple(
    (BOX_WIDE[0] * g, BOX_WIDE[1] * g) for g in GROW if BOX_WIDE[0] * g >= ROOM[0] and BOX_WIDE[1] * g >= ROOM[1]
)


def _spread(
    xy: np.ndarray,
    gap: float,
    need: dict[tuple[int, int], float] | None = None,
    widths: np.ndarray | None = None,
    rounds: int = 60,
    bounds: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """Push apart every pair of points closer than `gap`, and the ends of every edge (i, j) in `need` (its label's
    length) too close for the label, each by half the shortfall along the line between them; move a node off any
    such label its dot or its label line (`widths`) sits on, square to that edge. Until nothing moves by a pixel
    (or `rounds` passes): the layout's shape stays, only crowded spots open up. With `bounds` (the lowest and highest
    place of each node), nodes stop at those walls."""
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
        dist = np.sqrt((d**2).sum(-1)) + np.eye(n) * gap * 10 + 1e-9  # a wall can stack two on one spot
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
        moved = step if bounds is None else np.clip(xy + step, *bounds) - xy
        if np.abs(moved).max() < 1.0:
            break
        xy += moved
    return xy


def _off_boxes(xy: np.ndarray, widths: np.ndarray, gap: float = BOX_GAP_PX) -> np.ndarray:
    """Per node, the move that takes its box (its dot and the label line below it) off every other node's box: each
    overlapping pair parts along the axis where it overlaps least, half each (labels side by side on one row
    overlapped however far apart the dots were kept). One box per node: parting dots and labels separately pulled
    a node's label below a neighbour's dot while pushing it off that neighbour's label."""
    dx, dy, over_x, over_y, hit = _box_overlaps(xy, widths, gap)
    along_y = hit & (over_y <= over_x)
    out = np.zeros_like(xy)
    out[:, 0] = np.where(hit & ~along_y, np.where(dx >= 0, 1.0, -1.0) * over_x / 2, 0.0).sum(axis=1)
    out[:, 1] = np.where(along_y, np.where(dy >= 0, 1.0, -1.0) * over_y / 2, 0.0).sum(axis=1)
    return out


def _box_overlaps(xy: np.ndarray, widths: np.ndarray, gap: float) -> tuple[np.ndarray, ...]:
    """Per pair of nodes: the offsets between them (x, y), how far their boxes (dot and label line, `gap` apart)
    overlap along each axis, and whether they overlap."""
    half_w = np.maximum(widths / 2, DOT_PX)
    top, bottom = -DOT_PX, BELOW_PX + HALF_LINE_PX  # below the dot's centre: y grows downwards
    dx = xy[:, None, 0] - xy[None, :, 0]
    dy = xy[:, None, 1] - xy[None, :, 1]
    over_x = half_w[:, None] + half_w[None, :] + gap - np.abs(dx)
    over_y = (bottom - top) + gap - np.abs(dy)
    return dx, dy, over_x, over_y, (over_x > 0) & (over_y > 0) & ~np.eye(len(xy), dtype=bool)


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


def _level(xy: np.ndarray) -> np.ndarray:
    """The layout turned so its longest extent lies across: frames are about twice as wide as tall, and a spring
    layout's long axis falls anywhere (a chain drawn upright showed a third of itself). Deterministic: a fixed sign."""
    if len(xy) < 2:
        return xy
    centred = xy - xy.mean(axis=0)
    _, vecs = np.linalg.eigh(np.cov(centred.T) + np.eye(2) * 1e-9)
    major = vecs[:, -1] * (1.0 if vecs[0, -1] >= 0 else -1.0)  # the largest eigenvalue's direction, made +x
    turn = np.array([[major[0], major[1]], [-major[1], major[0]]])
    return centred @ turn.T


def _framed(
    xy: np.ndarray, need: dict, widths: np.ndarray, boxes: tuple = FIRST, held: np.ndarray | None = None
) -> np.ndarray:
    """Spread inside the first of `boxes` the nodes fit in: squeezed to its shape (unless some are `held` where they
    are), then pushed apart within its walls. If dots or labels still lie on each other (too many nodes, or a hub
    whose edge labels need more room), the next box is tried, and at last the unbounded spread: readable first,
    then whole in the frame."""
    half = np.maximum(widths / 2, DOT_PX)
    held = np.zeros(len(xy), dtype=bool) if held is None else held
    for box in (*boxes, None):
        w, h = (np.inf, np.inf) if box is None else box
        lo = np.stack([-w / 2 + half, np.full(len(xy), -h / 2 + DOT_PX)], axis=1)
        hi = np.stack([w / 2 - half, np.full(len(xy), h / 2 - BELOW_PX - HALF_LINE_PX)], axis=1)
        lo[held], hi[held] = xy[held], xy[held]
        if (lo > hi).any():  # a label wider than the box
            continue
        start = xy
        if not held.any() and box is not None:
            span = np.maximum(xy.max(axis=0) - xy.min(axis=0), 1e-6)
            start = (xy - (xy.max(axis=0) + xy.min(axis=0)) / 2) * np.minimum(1.0, (hi - lo).min(axis=0) / span)
        out = _spread(np.clip(start, lo, hi), SPACING, need, widths, rounds=150, bounds=(lo, hi))
        for _ in range(4):  # a node at the end of an edge too short for its label is turned about its other end
            # (any wave: the demo's seeds then fit 778×340 px, not the whole of BOX); a later wave's node caught on
            # a placed one (hop 1 of the guide, once the seeds were packed closer: between a seed and an edge's
            # label) is moved out, away from the placed nodes; and the wave spread again
            stuck, swung = _stuck(out, widths, held) & held.any(), _swung(out, need, held, lo, hi)
            if not stuck.any() and np.array_equal(swung, out):
                break
            out = swung
            if stuck.any():
                way = out[stuck] - out[held].mean(axis=0)
                way /= np.maximum(np.linalg.norm(way, axis=1, keepdims=True), 1e-6)
                out[stuck] = np.clip(out[stuck] + way * SPACING, lo[stuck], hi[stuck])  # away from the placed ones
            out = _spread(out, SPACING, need, widths, rounds=150, bounds=(lo, hi))
        if box is None or not _crowded(out, widths, need):
            return out
    return out  # not reached: the unbounded spread returns


TURNS = np.radians([a * s for a in range(15, 181, 15) for s in (1, -1)])  # nearest first, either way


def _swung(xy: np.ndarray, need: dict, held: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Each free node at the end of a labelled edge too short for its label is turned about that edge's other end
    to the nearest direction (then a little further out) where all its labelled edges are long enough and it stays
    within its walls. Pushed apart along the edge, a hop's node above a placed seed near the box's top went into the
    wall and stayed there: the guide's hop 1 did not fit the 1280×720 frame's room for three such edges."""
    out = xy.copy()
    ends: dict[int, list[tuple[int, float]]] = {}
    for (i, j), length in need.items():
        ends.setdefault(i, []).append((j, length + DOTS_PX))
        ends.setdefault(j, []).append((i, length + DOTS_PX))
    for b, edges in ends.items():
        short = [(a, r) for a, r in edges if np.linalg.norm(out[b] - out[a]) < r - 5.0]
        if held[b] or not short:
            continue
        a, r = short[0]
        d = out[b] - out[a]
        start = np.arctan2(d[1], d[0])
        for far, turn in ((far, turn) for far in (1.0, 1.2, 1.45) for turn in (0.0, *TURNS)):
            p = out[a] + r * far * np.array([np.cos(start + turn), np.sin(start + turn)])
            if (p >= lo[b]).all() and (p <= hi[b]).all() and all(np.linalg.norm(p - out[k]) >= q for k, q in edges):
                out[b] = p
                break
    return out


def _crowded(xy: np.ndarray, widths: np.ndarray, need: dict | None = None) -> bool:
    """Two nodes' boxes (dot and label line) overlap: a label drawn on another's; or, with `need`, a labelled edge
    too short for its label (by more than a few px: view.js would leave the label out). Without the labels' widths,
    two dots closer than SPACING (less a few px: the unbounded spread too stops within a pixel a pass)."""
    if any(np.linalg.norm(xy[i] - xy[j]) < length + DOTS_PX - 5.0 for (i, j), length in (need or {}).items()):
        return True
    if widths.any():
        return bool(np.abs(_off_boxes(xy, widths, gap=0.0)).max(initial=0.0) > 0.5)
    d = np.sqrt(((xy[:, None, :] - xy[None, :, :]) ** 2).sum(-1)) + np.eye(len(xy)) * SPACING * 10
    return bool(d.min(initial=SPACING) < SPACING - 5.0)


def _stuck(xy: np.ndarray, widths: np.ndarray, held: np.ndarray) -> np.ndarray:
    """The nodes free to move whose box (dot and label line) still lies on another's after a spread: held there
    between a placed node's box and an edge's label, each pushing it onto the other."""
    _, _, over_x, over_y, _ = _box_overlaps(xy, widths, 0.0)
    return ((over_x > 0.5) & (over_y > 0.5) & ~np.eye(len(xy), dtype=bool)).any(axis=1) & ~held

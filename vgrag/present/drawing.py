"""A VizGraph drawn by vis-network: its data (nodes, edges, options and how the view is framed) as plain JSON-able
values, and a self-contained pyvis HTML page of it (no network requests; text from documents is never markup).

Safety: vis-network 9 renders string tooltips with innerText and draws labels on a canvas; pyvis embeds
node/edge data through Jinja's `tojson`, which escapes `<`, `>` and `&`; the app's drawing frame receives the same
data as JSON in a message and hands it to vis as values. We never enable pyvis's `tooltip_link` popup (it uses
innerHTML), and we strip every remote <link>/<script src> pyvis adds.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Sequence
from pathlib import Path

from .layout import EDGE_LABEL_CHARS, short_label
from .viz import FADED, MIN_SCALE, ROLE_COLORS, VizEdge, VizGraph

# pyvis's in_line page still links Bootstrap from a CDN and a non-existent ../node_modules copy of vis: drop both
_EXTERNAL = re.compile(
    r"<link[^>]+href=\"(?:https?:)?(?://|\.\./)[^\"]*\"[^>]*>"
    r"|<script[^>]+src=\"(?:https?:)?(?://|\.\./)[^\"]*\"[^>]*>\s*</script>",
    re.I | re.S,
)
_EMPTY_HEADING = re.compile(r"<center>\s*<h1>\s*</h1>\s*</center>")
VIS_JS, VIS_CSS = "vis-network.min.js", "vis-network.css"
PHYSICS = {"stabilization": {"iterations": 80}, "barnesHut": {"springLength": 160}}  # only for unplaced nodes
OPTIONS = {
    "nodes": {"font": {"size": 16}},
    "edges": {"font": {"size": 16, "align": "horizontal", "strokeWidth": 3}, "smooth": False},
    "interaction": {"hover": True, "tooltipDelay": 120},
}


def parallel_bends(edges: Sequence[VizEdge]) -> dict[str, dict]:
    """Per edge that shares its two nodes with another, a vis `smooth` curve of its own: drawn straight, such edges
    laid their labels on top of each other ("chief tefounded by ficer of"). They bend to alternate sides, a label's
    height apart and no more (the layout keeps the straight line's surroundings clear), further for each further
    pair; vis bends clockwise relative to each edge's own direction, so a reversed edge flips."""
    groups: dict[tuple[str, str], list[VizEdge]] = {}
    for e in edges:
        groups.setdefault((min(e.source, e.target), max(e.source, e.target)), []).append(e)
    out: dict[str, dict] = {}
    for group in groups.values():
        if len(group) > 1:
            for n, e in enumerate(group):
                clockwise = (n % 2 == 0) == (e.source <= e.target)
                kind = "curvedCW" if clockwise else "curvedCCW"
                out[e.id] = {"enabled": True, "type": kind, "roundness": 0.15 + 0.15 * (n // 2)}
    return out


# How the drawing is framed: fit to the focus nodes, edge labels placed off nodes and each other, nothing cut at the
# frame's edge (see view.js). Shared by the app's drawing and the replay file.
FIT_JS = (Path(__file__).parent / "view.js").read_text(encoding="utf-8")
# A label's colour on the white frame: the step's own nodes near black; what earlier steps drew (and what the rerank
# did not put first) grey, yet ≥ 4.5:1 against white (WCAG AA for text) — #9a9a9a (2.8:1) washed out on a projector.
TEXT, FADED_TEXT = "#222222", "#707070"  # 15.9:1 and 4.95:1
EDGE_ORDER = ("path", "selected", "seed", "hop1", "hop2", "near", "far", "kept", "rejected", "context")


def vis_data(g: VizGraph, view: str = "") -> dict:
    """What vis-network draws, as JSON-able values: `nodes` and `edges` (each as vis takes them), `options`, and
    `frame`, how view.js frames it (`vgragStart`): the focus nodes, the edges' label order, the minimum scale,
    whether every node has its place (else physics lays it out), and `view`, the name tests and timings read."""
    fixed = bool(g.nodes) and all(n.x is not None for n in g.nodes)
    nodes = []
    for n in g.nodes:
        faded = n.role in FADED
        nodes.append({
            "id": n.id, "label": short_label(n.label), "shape": "dot", "title": n.title,
            "color": ROLE_COLORS.get(n.role, ROLE_COLORS["context"]),
            "size": 10 if faded else (20 if n.role in ("query", "centre", "path") else 15),
            "font": {"size": 16, "color": FADED_TEXT if faded else TEXT, "strokeWidth": 3,
                     "strokeColor": "#ffffff"},
            **({"x": n.x, "y": n.y, "physics": False} if fixed else {}),
        })  # fmt: skip
    bends = parallel_bends(g.edges)
    edges = []
    for e in g.edges:
        faded = e.role in FADED
        edges.append({
            "from": e.source, "to": e.target, "arrows": "to", "id": e.id,
            "label": "" if faded else short_label(e.label, EDGE_LABEL_CHARS), "title": e.title,
            "color": ROLE_COLORS.get(e.role, ROLE_COLORS["context"]),
            "width": 1 if faded else (4 if e.role == "path" else 2.5),
            **({"smooth": bends[e.id]} if e.id in bends else {}),
        })  # fmt: skip
    order = [e.id for e in sorted(g.edges, key=lambda e: EDGE_ORDER.index(e.role) if e.role in EDGE_ORDER else 99)]
    options = {"physics": {"enabled": False} if fixed else PHYSICS, **OPTIONS}
    frame = {"focus": list(g.focus), "order": order, "min": MIN_SCALE, "fixed": fixed, "view": view}
    return {"nodes": nodes, "edges": edges, "options": options, "frame": frame}


@functools.lru_cache(maxsize=1)
def _pyvis_templates():  # -> jinja2.Environment
    """pyvis's page template, compiled once per process. Each pyvis Network compiles it anew, lexing the 0.7 MB of
    vis-network it includes: ~90 ms of every drawing (most of a step's server time), ~1 ms from this cache."""
    import pyvis
    from jinja2 import Environment, FileSystemLoader

    return Environment(loader=FileSystemLoader(Path(pyvis.__file__).parent / "templates"))


@functools.lru_cache(maxsize=2)
def vis_asset(name: str) -> str:
    """vis-network's JS or CSS as shipped inside the installed pyvis package (read once per process)."""
    import pyvis

    return (Path(pyvis.__file__).parent / "templates/lib/vis-9.1.2" / name).read_text(encoding="utf-8")


def render_html(g: VizGraph, height_px: int | None = 560, assets_url: str | None = None, view: str = "") -> str:
    """An HTML page drawing the graph with zero external requests: vis-network inlined (standalone), or, with
    `assets_url`, loaded from that same-origin folder so a browser fetches and parses it once, not per draw.
    `height_px=None` fills its frame, whatever height the page gives the frame."""
    from pyvis.network import Network

    height = "100vh" if height_px is None else f"{height_px}px"  # the border is inside (box-sizing, below)
    net = Network(height=height, width="100%", directed=True, cdn_resources="in_line", bgcolor="#ffffff")
    net.templateEnv = _pyvis_templates()
    data = vis_data(g, view)
    for n in data["nodes"]:
        net.add_node(n["id"], **{k: v for k, v in n.items() if k != "id"})
    for e in data["edges"]:
        net.add_edge(e["from"], e["to"], **{k: v for k, v in e.items() if k not in ("from", "to", "arrows")})
    net.set_options(json.dumps(data["options"]))
    html = _EXTERNAL.sub("", net.generate_html(notebook=False))
    # pyvis adds two empty <h1> headings (~85 px): below them the drawing's bottom was cut off by the frame
    # and the drawing's border inside its width (width 100% plus a 1 px border each side cut the right border off)
    style = "<style>body{margin:0;overflow:hidden}#mynetwork{box-sizing:border-box}</style>"
    html = _EMPTY_HEADING.sub("", html).replace("</head>", style + "</head>", 1)
    html = html.replace("</body>", _zoom_script(data["frame"]) + "</body>", 1)
    if assets_url:
        js, css = vis_asset(VIS_JS), vis_asset(VIS_CSS)
        html = html.replace(f"<script>{js}</script>", f'<script src="{assets_url}/{VIS_JS}"></script>', 1)
        html = html.replace(css, "", 1).replace(
            "</head>", f'<link rel="stylesheet" href="{assets_url}/{VIS_CSS}"></head>', 1
        )
    return html


def _zoom_script(frame: dict) -> str:
    """Fit the view to the step's focus nodes, never below MIN_SCALE, so labels stay ≥ 12 px on screen; then place
    the edge labels (the step's own edges first) and keep nothing cut at the frame's edge."""
    data = json.dumps(frame)
    return (
        "<script>" + FIT_JS + "\n(function(){var o=" + data.replace("<", "\\u003c") + ";function go(){"
        "if(typeof network==='undefined'){setTimeout(go,50);return;}"
        "if(o.fixed){vgragStart(network,o);}else{network.once('stabilizationIterationsDone',function(){"
        "vgragStart(network,o);});}}go();})();</script>"
    )

"""What a drawn graph shows, read from vis-network inside its frame: every node's dot and label box and every drawn
edge label's box (vis's own sizes after the first draw), in the frame's pixels. Shared by the browser tests and
scripts/ui_drawing.py, which count overlaps and items cut at the frame's edge."""

from __future__ import annotations

from vgrag.present.drawing import FADED_TEXT

# Runs inside the graph's iframe. Boxes are [left, top, right, bottom] in the frame's CSS pixels; "w", "h" the frame.
BOXES_JS = """() => {
  const c = network.body.container, W = c.clientWidth, H = c.clientHeight;
  const dom = (l, t, r, b) => { const a = network.canvasToDOM({x: l, y: t}), z = network.canvasToDOM({x: r, y: b});
    return [a.x, a.y, z.x, z.y]; };
  const out = {w: W, h: H, nodes: [], edges: [], hidden: 0,
    nodes_left_out: network.body.data.nodes.get({filter: (n) => n.hidden}).length};  // cut at the edge (view.js)
  for (const id of network.body.nodeIndices) {
    const n = network.body.nodes[id];
    if (n.options.hidden) continue;
    const r = n.shape.radius || n.options.size, s = n.labelModule.size;
    out.nodes.push({id: id, label: n.options.label || "",
      dot: dom(n.x - r, n.y - r, n.x + r, n.y + r),
      text: s.width ? dom(s.left, s.top, s.left + s.width, s.top + s.height) : null});
  }
  for (const id of network.body.edgeIndices) {
    const e = network.body.edges[id];
    if (e.options.hidden || !e.options.label || !e.connected) continue;
    if (e.options.label === "\u200b") { out.hidden += 1; continue; }  // a label the drawing left out (view.js)
    const s = e.labelModule.size, dy = e.labelModule.fontOptions.vadjust || 0;  // vadjust moves the text only
    if (!s.width) continue;
    out.edges.push({id: id, label: e.options.label,
      text: dom(s.left, s.top + dy, s.left + s.width, s.top + s.height + dy)});
  }
  return out;
}"""


def _overlap(a: list[float], b: list[float], slack: float = 1.0) -> bool:
    """Two boxes share more than `slack` px each way (touching edges are not an overlap)."""
    return min(a[2], b[2]) - max(a[0], b[0]) > slack and min(a[3], b[3]) - max(a[1], b[1]) > slack


def _inside(a: list[float], w: float, h: float) -> bool:
    return a[0] >= -0.5 and a[1] >= -0.5 and a[2] <= w + 0.5 and a[3] <= h + 0.5


def _outside(a: list[float], w: float, h: float) -> bool:
    return a[2] <= 0 or a[3] <= 0 or a[0] >= w or a[1] >= h


def clutter(boxes: dict) -> dict[str, list]:
    """What a reader of the frame would stumble on, among what is in view: edge labels on top of each other, on a
    node's label or dot, nodes whose dots or labels lie on each other, and items cut by the frame's edge."""
    w, h = boxes["w"], boxes["h"]
    # what is (partly) in view; vis draws only those nodes, so another node's label box may be stale
    nodes = [n for n in boxes["nodes"] if not _outside(n["dot"], w, h)]
    edges = [e for e in boxes["edges"] if not _outside(e["text"], w, h)]
    found: dict[str, list] = {"edge_edge": [], "edge_node": [], "node_node": [], "cut": []}
    for i, a in enumerate(edges):
        for b in edges[i + 1 :]:
            if _overlap(a["text"], b["text"]):
                found["edge_edge"].append((a["label"], b["label"]))
        for n in nodes:
            for part in (n["dot"], n["text"]):
                if part and _overlap(a["text"], part):
                    found["edge_node"].append((a["label"], n["label"]))
                    break
    for i, a in enumerate(nodes):
        for b in nodes[i + 1 :]:
            pairs = ((a["text"], b["text"]), (a["text"], b["dot"]), (a["dot"], b["text"]), (a["dot"], b["dot"]))
            if any(x and y and _overlap(x, y) for x, y in pairs):
                found["node_node"].append((a["label"], b["label"]))
    for item in [*nodes, *edges]:
        for part in (item.get("dot"), item["text"]):
            if part and not _inside(part, w, h) and not _outside(part, w, h):
                found["cut"].append(item["label"])
                break
    return found


# Runs inside the graph's iframe: nodes whose dot's centre is in the frame and drawn, every node the step draws (those
# left out at the edge among them), the step's own nodes (not faded: labels dark, not drawing.py's FADED_TEXT),
# and the frame's note on what is out of view with its box in the frame's pixels.
IN_VIEW_JS = """() => { const c = network.body.container, W = c.clientWidth, H = c.clientHeight;
  let seen = 0, ownSeen = 0;
  for (const id of nodes.getIds()) {
    const n = network.body.nodes[id], p = network.canvasToDOM({x: n.x, y: n.y});
    if (!n.options.hidden && p.x >= 0 && p.y >= 0 && p.x <= W && p.y <= H) {
      seen += 1;
      if (nodes.get(id).font.color !== "FADED_TEXT") ownSeen += 1;
    }
  }
  const e = document.getElementById("vgrag-note"), shown = !!e && e.style.display !== "none";
  const r = shown ? e.getBoundingClientRect() : null, o = network.canvas.frame.canvas.getBoundingClientRect();
  return {seen: seen, own_seen: ownSeen, all: nodes.length, note: shown ? e.textContent : "",
          note_box: r ? [r.left - o.left, r.top - o.top, r.right - o.left, r.bottom - o.top] : null,
          own: nodes.get().filter((n) => n.font.color !== "FADED_TEXT").map((n) => n.id)}; }""".replace(
    "FADED_TEXT", FADED_TEXT
)


def under_note(boxes: dict, note_box: list[float] | None) -> list[str]:
    """The drawn nodes (dot or label) and edge labels the note's line lies on."""
    if note_box is None:
        return []
    parts = [(n["label"], n["dot"]) for n in boxes["nodes"]] + [(n["label"], n["text"]) for n in boxes["nodes"]]
    parts += [(e["label"], e["text"]) for e in boxes["edges"]]
    w, h = boxes["w"], boxes["h"]
    return [label for label, box in parts if box and _overlap(box, note_box) and not _outside(box, w, h)]


FRAMED = "(c => document.body.dataset.vgragFrame === `${c.clientWidth}x${c.clientHeight}`)(network.body.container)"


def assert_readable(frame) -> None:
    """The drawing as framed for the frame's current size: no edge label on another or on a node, no node on another,
    nothing cut at the frame's edge (the fitted nodes wholly in view among them)."""
    frame.wait_for_function(FRAMED, timeout=30000)
    boxes = frame.evaluate(BOXES_JS)
    found = {k: v for k, v in clutter(boxes).items() if v}
    assert not found, found
    ids = {n["id"] for n in boxes["nodes"]}
    assert set(frame.evaluate("window.vgragFocus")) <= ids and frame.evaluate("window.vgragFocus.length") >= 1

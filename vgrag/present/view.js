// How a drawn graph is framed (vgrag/present/viz.py inlines this; the replay page too). Boxes are
// [left, top, right, bottom] in the drawing's own coordinates; vis knows each label's size once it has drawn.

// Fit the view to the focus nodes (most important first), labels included, with a margin: vis's own fit sizes to
// the dots and cut long labels at the frame's edge. When they do not all fit at a readable scale, fit the longest
// leading part that does (binary search: halving overshot to a handful of nodes), else the first node at the
// minimum scale. Returns how many of the focus nodes are wholly in view. Fitting them all and clamping the scale
// centred the view between far-apart clusters: an empty frame on a large graph (seen on the HotpotQA graph).
function vgragShow(net, ids) {
  var b = null;
  for (var i = 0; i < ids.length; i++) {
    var r = net.getBoundingBox(ids[i]);
    if (!r) continue;
    b = b ? {left: Math.min(b.left, r.left), right: Math.max(b.right, r.right), top: Math.min(b.top, r.top),
             bottom: Math.max(b.bottom, r.bottom)} : r;
  }
  if (!b) return 0;
  var c = net.body.container;  // a frame under 40 px keeps a positive scale (vis throws on one <= 0)
  var s = Math.min(Math.max(c.clientWidth - 40, 1) / Math.max(b.right - b.left, 1),
                   Math.max(c.clientHeight - 40, 1) / Math.max(b.bottom - b.top, 1), 1);
  net.moveTo({position: {x: (b.left + b.right) / 2, y: (b.top + b.bottom) / 2}, scale: s, animation: false});
  return s;
}

function vgragFit(net, focus, min) {
  var all = Object.keys(net.getPositions());
  if (focus.length < all.length && vgragShow(net, all) >= min) return focus.length;  // the whole step is readable
  var ids = focus.length ? focus : all;
  var s = vgragShow(net, ids), best = ids.length;
  if (s < min) {
    var lo = 1, hi = ids.length - 1;
    best = 1;
    while (lo <= hi) {
      var m = (lo + hi) >> 1;
      if (vgragShow(net, ids.slice(0, m)) >= min) { best = m; lo = m + 1; } else { hi = m - 1; }
    }
    s = vgragShow(net, ids.slice(0, best));
  }
  if (s < min) {
    var p = ids.length ? net.getPositions([ids[0]])[ids[0]] : undefined;
    best = 0;
    net.moveTo(p ? {position: p, scale: min, animation: false} : {scale: min, animation: false});
  }
  return best;
}

// vis keeps an edge's label when updated to "" or null: a zero-width space draws nothing and measures 0 px wide
var NO_LABEL = "\u200b";

function vgragLabelBox(label, dy) {
  var s = label.size;
  return s.width ? [s.left, s.top + dy, s.left + s.width, s.top + s.height + dy] : null;
}

function vgragOverlap(a, b, pad) {
  return Math.min(a[2], b[2]) - Math.max(a[0], b[0]) > -pad && Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > -pad;
}

// Every node's dot and label box, as {id, boxes}.
function vgragNodeBoxes(net) {
  var out = [];
  net.body.nodeIndices.forEach(function (id) {
    var n = net.body.nodes[id];
    if (n.options.hidden) return;
    var r = n.shape.radius || n.options.size || 10, boxes = [[n.x - r, n.y - r, n.x + r, n.y + r]];
    var t = vgragLabelBox(n.labelModule, 0);
    if (t) boxes.push(t);
    out.push({id: id, boxes: boxes});
  });
  return out;
}

// Edge labels never lie on a node (dot or label) or on another edge label: in `order` (the step's most important
// edges first), each label takes its place on the edge's middle, or a line above or below it, else it is not
// drawn (its relation stays in the edge's tooltip). Returns the drawn labels' boxes by edge id.
function vgragPlaceLabels(net, order) {
  // vis measures a label when it draws it, and draws only the nodes in view (and no label below ~5 px): draw every
  // node once at scale 1, so every label's box is known
  net.moveTo({scale: 1, animation: false});
  var ctx = net.canvas.frame.canvas.getContext("2d");
  net.body.nodeIndices.forEach(function (id) {
    var r = net.body.nodes[id].draw(ctx);
    if (r && r.drawExternalLabel) r.drawExternalLabel();
  });
  net.redraw();
  var taken = [], placed = {}, updates = [];
  vgragNodeBoxes(net).forEach(function (n) { taken = taken.concat(n.boxes); });
  order.forEach(function (id) {
    var e = net.body.edges[id];
    if (!e || !e.options.label) return;
    var b = vgragLabelBox(e.labelModule, 0);
    if (!b) return;
    var h = b[3] - b[1], shifts = [0, -h, h], dy = null;
    for (var i = 0; i < shifts.length && dy === null; i++) {
      var c = [b[0], b[1] + shifts[i], b[2], b[3] + shifts[i]];
      if (!taken.some(function (t) { return vgragOverlap(c, t, 4); })) { dy = shifts[i]; taken.push(c); placed[id] = c; }
    }
    if (dy === null) updates.push({id: id, label: NO_LABEL});
    else if (dy !== 0) updates.push({id: id, font: {vadjust: dy}});
  });
  if (updates.length) net.body.data.edges.update(updates);
  return placed;
}

// Nothing cut at the frame's edge: from the fitted view, try nearby views (shifted, or zoomed out down to `min`) and
// keep the closest one with the `keep` nodes wholly in view that shows the most of the step's own nodes (`focus`,
// not faded) whole, then the most nodes whole, and cuts the fewest nodes and drawn edge labels (each wholly in view
// or wholly out of it). What it still cuts, and what the note on the nodes out of view would lie on, is left out
// until a drag or zoom: returns how many nodes, and the function that draws them again.
function vgragUncut(net, placed, keep, min, focus) {
  var c = net.body.container, W = c.clientWidth, H = c.clientHeight;
  var items = vgragNodeBoxes(net), kept = {}, lit = {};
  keep.forEach(function (id) { kept[id] = true; });
  (focus || []).forEach(function (id) { lit[id] = true; });
  Object.keys(placed).forEach(function (id) { items.push({id: id, edge: true, boxes: [placed[id]]}); });
  items.forEach(function (it) { it.kept = !it.edge && kept[it.id] === true; it.lit = !it.edge && lit[it.id] === true; });
  items.sort(function (a, b) { return b.kept - a.kept; });  // the kept first: a view losing one is given up at once
  var p0 = net.getViewPosition(), s0 = net.getScale();
  function state(p, s, x) {  // 0 inside, 1 outside, 2 cut
    var l = (x[0] - p.x) * s + W / 2, t = (x[1] - p.y) * s + H / 2, r = (x[2] - p.x) * s + W / 2,
        b = (x[3] - p.y) * s + H / 2;
    if (l >= 0 && t >= 0 && r <= W && b <= H) return 0;
    return (r <= 0 || b <= 0 || l >= W || t >= H) ? 1 : 2;
  }
  function score(p, s, worst) {  // [kept lost, −own nodes whole, −nodes whole, items cut]; null past `worst` losses
    var cut = 0, lost = 0, seen = 0, own = 0;
    for (var i = 0; i < items.length; i++) {
      var it = items[i], whole = true, gone = true;
      for (var j = 0; j < it.boxes.length; j++) {
        var v = state(p, s, it.boxes[j]);
        if (v !== 0) whole = false;
        if (v !== 1) gone = false;
      }
      if (whole) { if (!it.edge) { seen += 1; if (it.lit) own += 1; } } else if (it.kept) { lost += 1; if (lost > worst) return null; } else if (!gone) cut += 1;
    }
    return [lost, -own, -seen, cut];
  }
  // candidate views nearest first (distance, then smaller zoom-out): the search ends at the first view that loses and
  // cuts nothing with every node in view (usually the fitted view itself); a step larger than its frame is searched
  // through, so the view keeps its leading nodes and shows as many others as a readable scale allows (hop 1 of the
  // travel guide at 1280×720: 13 of 32 nodes at 16 px before, 21 at 12 px)
  var nodesAll = items.filter(function (it) { return !it.edge; }).length;
  var best = null, scales = [s0], views = [];
  for (var k = 1; k <= 6 && s0 * (1 - 0.06 * k) >= min; k++) scales.push(s0 * (1 - 0.06 * k));
  if (scales[scales.length - 1] > min && s0 > min) scales.push(min);  // down to the readable floor itself
  scales.forEach(function (s, si) {
    for (var dx = -W / 2; dx <= W / 2; dx += 20) {
      for (var dy = -H / 2; dy <= H / 2; dy += 20) views.push({dx: dx, dy: dy, s: s, d: Math.abs(dx) + Math.abs(dy) + 40 * si});
    }
  });
  views.sort(function (a, b) { return a.d - b.d; });
  function better(a, b) { for (var j = 0; j < a.length; j++) { if (a[j] !== b[j]) return a[j] < b[j]; } return false; }
  for (var i = 0; i < views.length; i++) {
    var v = views[i], p = {x: p0.x + v.dx / v.s, y: p0.y + v.dy / v.s}, sc = score(p, v.s, best ? best.key[0] : Infinity);
    if (sc && (!best || better(sc, best.key))) best = {key: sc, p: p, s: v.s};
    if (best.key[0] === 0 && best.key[3] === 0 && -best.key[2] === nodesAll) break;
  }
  net.moveTo({position: best.p, scale: best.s, animation: false});
  // what is still cut: an edge label is not drawn; a node is left out of this view (its edges with it) until the
  // user drags or zooms, when everything is drawn again
  var cut = items.filter(function (it) {
    var st = it.boxes.map(function (x) { return state(best.p, best.s, x); });
    return !st.every(function (v) { return v === 0; }) && !st.every(function (v) { return v === 1; });
  });
  var shown = items.filter(function (it) {
    return it.boxes.every(function (x) { return state(best.p, best.s, x) === 0; });
  });
  if (shown.filter(function (it) { return !it.edge; }).length < nodesAll) {  // the note on what is out of view shows
    var dom = function (x) {
      return [(x[0] - best.p.x) * best.s + W / 2, (x[1] - best.p.y) * best.s + H / 2,
              (x[2] - best.p.x) * best.s + W / 2, (x[3] - best.p.y) * best.s + H / 2];
    };
    // placed for its text as it will read once the cut nodes are left out, then again once those it lies on are too
    // (a longer text, placed for the shorter one, lay on an edge label: eviction of the guide at 1280×720)
    var gone = {}, under = [];
    cut.forEach(function (it) { if (!it.edge) gone[it.id] = true; });
    for (var k = 0; k < 2; k++) {
      var left = shown.filter(function (it) { return under.indexOf(it) < 0; });
      var more = vgragNotePlace(net, left, dom, focus || [], gone);
      more.forEach(function (it) { if (!it.edge) gone[it.id] = true; });
      under = under.concat(more);
    }
    cut = cut.concat(under);
  }
  var labels = cut.filter(function (it) { return it.edge; }), nodes = cut.filter(function (it) { return !it.edge; });
  var back = labels.map(function (it) { return {id: it.id, label: net.body.edges[it.id].options.label}; });
  if (labels.length) net.body.data.edges.update(labels.map(function (it) { return {id: it.id, label: NO_LABEL}; }));
  if (nodes.length) net.body.data.nodes.update(nodes.map(function (it) { return {id: it.id, hidden: true}; }));
  function restore() {
    net.off("dragStart", restore);
    net.off("zoom", restore);
    if (back.length) net.body.data.edges.update(back);
    if (nodes.length) net.body.data.nodes.update(nodes.map(function (it) { return {id: it.id, hidden: false}; }));
    back = []; nodes = [];
  }
  net.on("dragStart", restore);
  net.on("zoom", restore);
  function cancel() {  // new data replaces this drawing: nothing to draw again (an update would add stale items)
    net.off("dragStart", restore);
    net.off("zoom", restore);
  }
  return {left: nodes.length, restore: restore, cancel: cancel};
}

// A line in the frame's corner when some nodes are out of view: a class saw part of a step's graph with nothing
// saying more was there. It says how many, how many of them are the step's own (not faded) and on which side they
// lie, and how to see them: "20 of 32 nodes in view — 9 of this step's 31 are off to the right and below: drag to
// see them, or scroll to zoom out". Counted again after a drag or zoom; gone when all are in view.
function vgragNoteText(n) {
  var head = n.seen + " of " + n.all + " nodes in view \u2014 ";
  if (!n.ownOut && n.own) {
    return head + "all " + n.own + " of this step's; the rest, from earlier steps: drag to see them, or scroll to zoom out";
  }
  if (!n.ownOut) return head + "drag to see the rest, or scroll to zoom out";
  var sides = [["left", "to the left"], ["right", "to the right"], ["above", "above"], ["below", "below"]]
    .filter(function (d) { return n.sides[d[0]]; }).map(function (d) { return d[1]; });
  var where = sides.length > 1 ? sides.slice(0, -1).join(", ") + " and " + sides[sides.length - 1] : sides[0];
  return head + n.ownOut + " of this step's " + n.own + (n.ownOut === 1 ? " is" : " are") + " off " + where +
    ": drag to see " + (n.ownOut === 1 ? "it" : "them") + ", or scroll to zoom out";
}

// Which sides of the frame a node out of view lies beyond (its centre's); one left out at the edge (cut), the edge
// nearest to it.
function vgragSides(p, W, H) {
  var out = [];
  if (p.x < 0) out.push("left");
  if (p.x > W) out.push("right");
  if (p.y < 0) out.push("above");
  if (p.y > H) out.push("below");
  if (out.length) return out;
  var d = [[p.x, "left"], [W - p.x, "right"], [p.y, "above"], [H - p.y, "below"]];
  d.sort(function (a, b) { return a[0] - b[0]; });
  return [d[0][1]];
}

// The note's counts for the view as it stands: every node the step draws (nodeIndices lacks those left out at the
// edge), those in view, the step's own (`focus`) and those of them out of view, with their sides.
function vgragNoteCounts(net, focus, gone) {
  var c = net.body.container, W = c.clientWidth, H = c.clientHeight, lit = {};
  var n = {all: 0, seen: 0, own: 0, ownOut: 0, sides: {}};
  focus.forEach(function (id) { lit[id] = true; });
  net.body.data.nodes.getIds().forEach(function (id) {
    var node = net.body.nodes[id], p = net.canvasToDOM({x: node.x, y: node.y});
    n.all += 1;
    if (lit[id]) n.own += 1;
    if (!node.options.hidden && !(gone && gone[id]) && p.x >= 0 && p.y >= 0 && p.x <= W && p.y <= H) { n.seen += 1; return; }
    if (!lit[id]) return;
    n.ownOut += 1;
    vgragSides(p, W, H).forEach(function (s) { n.sides[s] = true; });
  });
  return n;
}

function vgragNoteEl(net) {
  var el = document.getElementById("vgrag-note");
  if (!el) {
    el = document.createElement("div");
    el.id = "vgrag-note";
    el.style.cssText = "position:absolute;left:6px;bottom:4px;z-index:5;pointer-events:none;font:13px sans-serif;" +
      "color:#333;background:rgba(255,255,255,0.9);padding:1px 5px;border-radius:3px;box-sizing:border-box;" +
      "max-width:calc(100% - 12px)";  // a narrow frame (the answer's, beside its evidence) wraps it
    net.body.container.appendChild(el);
  }
  return el;
}

function vgragNote(net, focus) {
  var n = vgragNoteCounts(net, focus || []), el = vgragNoteEl(net);
  el.textContent = n.seen < n.all ? vgragNoteText(n) : "";
  el.style.display = n.seen < n.all ? "block" : "none";
}

// Where the note goes, for a view that leaves nodes out: the frame's corner (bottom-left first) where its line lies
// on none of the `shown` items the view is fitted to keep and on the fewest others; the others it lies on are
// returned, to be left out with the cut ones. At the bottom-left it covered the answer's own last node ("Tressock",
// the travel guide's answer step at 1280×720).
function vgragNotePlace(net, shown, dom, focus, gone) {
  var c = net.body.container, W = c.clientWidth, H = c.clientHeight, el = vgragNoteEl(net);
  el.style.left = "6px";  // measured where it has the frame's width to wrap in, then placed
  el.textContent = vgragNoteText(vgragNoteCounts(net, focus, gone));  // as it will read: `gone` are left out
  el.style.display = "block";
  var w = el.offsetWidth, h = el.offsetHeight, best = null;
  [[6, H - 4 - h], [W - 6 - w, H - 4 - h], [6, 4], [W - 6 - w, 4]].forEach(function (at) {
    var box = [at[0], at[1], at[0] + w, at[1] + h], under = [], kept = 0;
    shown.forEach(function (it) {
      if (!it.boxes.some(function (x) { return vgragOverlap(dom(x), box, 0); })) return;
      if (it.kept) kept += 1; else under.push(it);
    });
    if (!best || kept < best.kept || (kept === best.kept && under.length < best.under.length)) {
      best = {kept: kept, under: under, at: at};
    }
  });
  el.style.left = best.at[0] + "px";
  el.style.top = best.at[1] + "px";
  el.style.bottom = "auto";
  return best.under;
}

// The whole framing of a drawing, once vis has it: labels placed, then the view fitted and uncut — again whenever
// the frame changes size (a window resized, a projector's full screen). Marks the page ready for tests and timings.
// A frame with no size yet (its iframe created at height 0 — the app's frame on a copied link or a reload, before
// Streamlit gives it its height — or hidden) is framed on its first resize to a real size: framing it at 0 px
// threw in vis (a negative scale), which left the graph unframed, its labels unplaced and never framed again.
// Returns the function that stops it, before the same network is given new data (the app's drawing frame).
function vgragStart(net, o) {
  var t0 = performance.now(), placed = null, u = null, timer = null;
  function frame() {
    var c = net.body.container;
    if (c.clientWidth < 1 || c.clientHeight < 1) return;  // nothing to fit yet: the resize that sizes it frames it
    if (!placed) placed = window.vgragPlaced = vgragPlaceLabels(net, o.order);
    if (u) u.restore();
    var n = vgragFit(net, o.focus, o.min);
    window.vgragFocus = o.focus.slice(0, n);
    u = vgragUncut(net, placed, window.vgragFocus, o.min, o.focus);
    window.vgragCut = u.left;
    vgragNote(net, o.focus);
    document.body.setAttribute("data-vgrag-frame", c.clientWidth + "x" + c.clientHeight);
    if (document.body.getAttribute("data-vgrag-ready") !== "1") {
      window.vgragFrameMs = performance.now() - t0;
      window.vgragStartAt = t0;  // for scripts/bench_ui.py --breakdown
      document.body.setAttribute("data-vgrag-view", o.view);
      document.body.setAttribute("data-vgrag-ready", "1");
    }
  }
  function resized() { clearTimeout(timer); timer = setTimeout(frame, 150); }
  function moved() { setTimeout(function () { vgragNote(net, o.focus); }, 0); }  // after the nodes left out are drawn again
  net.on("resize", resized);
  net.on("dragEnd", moved);
  net.on("zoom", moved);
  frame();
  return function stop() {
    clearTimeout(timer);
    net.off("resize", resized);
    net.off("dragEnd", moved);
    net.off("zoom", moved);
    if (u) u.cancel();
  };
}

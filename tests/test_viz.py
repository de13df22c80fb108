from __future__ import annotations

import math
import re

from vgrag.present.replay import replay_html
from vgrag.present.drawing import VIS_JS, render_html
from vgrag.present.viz import VizEdge, VizGraph, VizNode

EVIL = '</script><script>alert(1)</script><img src=x onerror="alert(2)">'
G = VizGraph(
    (VizNode("a", EVIL, "query", EVIL), VizNode("b", "B", "seed", "b")),
    (VizEdge("r", "a", "b", EVIL, "selected", EVIL),),
)


def _fetched(html: str) -> list[str]:
    return re.findall(r'<(?:script|link|img|iframe)[^>]+(?:src|href)="([^"]+)"', html)


def test_standalone_graph_fetches_nothing_and_escapes_text():
    html = render_html(G)
    assert _fetched(html) == []
    assert EVIL not in html and "<script>alert(1)" not in html  # tojson turns < into \\u003c
    assert "\\u003c/script\\u003e" in html
    assert "popup.innerHTML" not in html  # pyvis's tooltip_link popup (innerHTML) stays off


def test_served_assets_variant_is_small_and_same_origin():
    html = render_html(G, assets_url="app/static")
    assert _fetched(html) == [f"app/static/{VIS_JS}", "app/static/vis-network.css"]
    assert len(html) < 30_000 < len(render_html(G))


def test_replay_page_is_self_contained(tmp_path):
    from test_retrieve import Q

    from vgrag.config import QueryParams
    from vgrag.query.trace import QueryTrace

    html = replay_html(QueryTrace(Q + EVIL, "graph", QueryParams()))
    assert _fetched(html) == [] and EVIL not in html and "textContent" in html


def test_one_layout_per_trace_and_citations_numbered_like_the_list(graph, embedder):
    from test_retrieve import FACTS, Q

    from vgrag.config import QueryParams
    from vgrag.present.replay import numbered_passages
    from vgrag.present.viz import STEPS, trace_graph
    from vgrag.query.pipeline import run_query
    from vgrag.query.trace import Step
    from vgrag.storage.writer import SourceChunk, write_chunks

    write_chunks(graph, embedder, [SourceChunk("doc", "facts", t, i, (tr,)) for i, (t, tr) in enumerate(FACTS)])
    tr = run_query(Q, graph, embedder, QueryParams(hops=2, passage_top_k=3))
    seen: dict[str, tuple] = {}
    for step in STEPS:  # every node keeps its place from step to step: nothing jumps
        for n in trace_graph(tr, step).nodes:
            assert n.x is not None and seen.setdefault(n.id, (n.x, n.y)) == (n.x, n.y)
    assert len(seen) >= 3
    listed = {p["n"]: p["title"] for p in numbered_passages(tr)}
    ranked = [p.id for p in tr.passages.passages]
    for c in tr.answer.citations:
        assert listed[c.n] == c.title and (c.passage_id not in ranked or ranked.index(c.passage_id) + 1 == c.n)
        assert f"[{c.n}]" in tr.answer.text
    html = replay_html(tr)
    for c in tr.answer.citations:
        assert f'<li value="{c.n}"><span class="n">[{c.n}] {c.title}</span> (cited)' in html
    assert "not selected" in html or "selected by rerank" in html  # the legend
    from vgrag.present.viz import legend

    rerank = trace_graph(tr, Step.RERANK)
    drawn = sum(e.role == "selected" for e in rerank.edges)
    said = [m for r, _, m in legend([e.role for e in rerank.edges]) if r == "selected"]
    # the legend never claims more selected relations than the step draws (walk22: "top 10" beside 9 drawn)
    assert said and all(int(n) <= drawn for m in said for n in re.findall(r"\d+", m)), (said, drawn)


def test_neighbourhood_is_laid_out_once_and_drawn_without_physics(graph, embedder):
    from test_retrieve import FACTS

    from vgrag.present.viz import neighbourhood
    from vgrag.storage.writer import SourceChunk, write_chunks
    from vgrag.text import entity_id

    write_chunks(graph, embedder, [SourceChunk("doc", "facts", t, i, (tr,)) for i, (t, tr) in enumerate(FACTS)])
    centre = entity_id(FACTS[0][1].subject)
    g = neighbourhood(graph, centre, depth=2, cap=None)
    assert len(g.nodes) >= 3 and all(n.x is not None and n.y is not None for n in g.nodes)
    assert neighbourhood(graph, centre, depth=2, cap=None) == g  # the same drawing on every visit
    assert len({(n.x, n.y) for n in g.nodes}) == len(g.nodes)  # no two nodes on one spot
    html = render_html(g)
    assert '"physics": {"enabled": false}' in html and '"fixed": true' in html  # zoomed as soon as drawn


def test_a_hub_and_its_neighbours_are_laid_out_with_room_for_their_labels():
    """A spring layout packed a hub's 40 neighbours so close their labels overlapped (seen on the HotpotQA graph):
    no two nodes are closer than SPACING now, and the layout is the same on every call."""
    import numpy as np

    from vgrag.present.layout import SPACING, layout

    nodes = ("hub", *(f"leaf{i}" for i in range(40)), "far")
    edges = tuple(("hub", f"leaf{i}") for i in range(40))
    pos = layout(nodes, edges)
    xy = np.array([pos[n] for n in nodes])
    d = np.sqrt(((xy[:, None] - xy[None]) ** 2).sum(-1)) + np.eye(len(nodes)) * 1e9
    assert d.min() >= SPACING * 0.95
    assert layout.__wrapped__(nodes, edges) == pos  # deterministic, not just cached


def test_a_labelled_edge_has_room_for_its_label_and_no_node_sits_on_it():
    """The answer step drew its path's "escalation contact for" under its own two dots, and "Platform team" over
    "depends on": an edge is now long enough for its label, and another node's dot and label line move off it."""
    import numpy as np

    from vgrag.present.layout import CHAR_PX, _spread

    label = "escalation contact for"
    room = len(label) * CHAR_PX
    xy = np.array([[0.0, 0.0], [60.0, 0.0], [200.0, 300.0]])  # a short labelled edge
    out = _spread(xy, 110.0, {(0, 1): room}, np.array([90.0, 90.0, 90.0]))
    assert np.linalg.norm(out[0] - out[1]) >= room + 40  # the label and both dots
    # a third node on the label's stretch of a long edge, a little below it; its label hangs 32 px lower still
    xy = np.array([[0.0, 0.0], [400.0, 0.0], [210.0, 4.0]])
    out = _spread(xy, 110.0, {(0, 1): room}, np.array([100.0, 100.0, 100.0]))
    a, b, c = out
    unit = (b - a) / np.linalg.norm(b - a)
    normal = np.array([-unit[1], unit[0]])
    mid = (a + b) / 2
    for point, clear in ((c, 25.0), (c + [0.0, 32.0], 15.0), (c + [-50.0, 32.0], 15.0), (c + [50.0, 32.0], 15.0)):
        on_stretch = abs((point - mid) @ unit) < room / 2
        assert not on_stretch or abs((point - mid) @ normal) >= clear, point


def test_each_step_opens_on_what_it_did(graph, embedder):
    """The view fits the focus nodes in order and keeps the longest leading part that is readable: the answer step's
    reasoning path and the rerank's top relations come first, before the question's entities."""
    from test_retrieve import FACTS, Q

    from vgrag.config import QueryParams
    from vgrag.present.layout import CHAR_PX, EDGE_LABEL_CHARS, short_label
    from vgrag.present.viz import trace_graph, trace_layout
    from vgrag.query.pipeline import run_query
    from vgrag.query.trace import Step
    from vgrag.storage.writer import SourceChunk, write_chunks

    write_chunks(graph, embedder, [SourceChunk("doc", "facts", t, i, (tr,)) for i, (t, tr) in enumerate(FACTS)])
    tr = run_query(Q, graph, embedder, QueryParams(hops=2, passage_top_k=3))
    for step, lead in ((Step.ANSWER, "path"), (Step.RERANK, "selected"), (Step.SEEDS, "seed")):
        g = trace_graph(tr, step)
        role = {n.id: n.role for n in g.nodes}
        leading = [role[i] for i in g.focus]
        assert lead in leading, (step, leading)
        first_other = next((k for k, r in enumerate(leading) if r != lead), len(leading))
        assert all(r != lead for r in leading[first_other:]), (step, leading)  # the step's own nodes lead
    drawn = {n.id for step in Step for n in trace_graph(tr, step, cap=3).nodes}
    assert set(trace_layout(tr, cap=3)) == drawn  # only what is drawn is laid out
    g = trace_graph(tr, Step.ANSWER)
    at = {n.id: (n.x, n.y) for n in g.nodes}
    for e in g.edges:  # every drawn label fits between its dots
        if e.label and e.source != e.target:
            room = len(short_label(e.label, EDGE_LABEL_CHARS)) * CHAR_PX + 40
            assert math.dist(at[e.source], at[e.target]) >= 0.95 * room, e


def test_the_step_list_follows_the_knobs_and_no_op_steps_say_so(graph, embedder):
    """Hops = 1 has no hop-2 step (it drew an empty graph); an eviction under the cap and a rerank that kept every
    candidate are no-ops, and their sentences begin by saying so."""
    from test_retrieve import FACTS, Q

    from vgrag.config import QueryParams
    from vgrag.present.explain import explain, is_noop, steps_for
    from vgrag.query.pipeline import run_query
    from vgrag.query.trace import Step
    from vgrag.storage.writer import SourceChunk, write_chunks

    write_chunks(graph, embedder, [SourceChunk("doc", "facts", t, i, (tr,)) for i, (t, tr) in enumerate(FACTS)])
    one = run_query(Q, graph, embedder, QueryParams(hops=1, eviction_cap=2000, rerank_keep=200))
    assert Step.HOP_2 not in steps_for(one) and len(steps_for(one)) == 6
    assert is_noop(one, Step.EVICTION) and explain(one, Step.EVICTION).startswith("No change")
    assert is_noop(one, Step.RERANK) and explain(one, Step.RERANK).startswith("No change")
    assert not is_noop(one, Step.SEEDS) and not explain(one, Step.SEEDS).startswith("No change")
    two = run_query(Q, graph, embedder, QueryParams(hops=2, eviction_cap=10, rerank_keep=1))
    assert Step.HOP_2 in steps_for(two) and len(steps_for(two)) == 7
    assert not is_noop(two, Step.RERANK) and not explain(two, Step.RERANK).startswith("No change")
    hop2 = next(h for h in two.hops if h.depth == 2)
    assert is_noop(two, Step.HOP_2) == (not hop2.new_relation_ids)
    assert explain(two, Step.HOP_2).startswith("No change") == (not hop2.new_relation_ids)


def test_edges_between_the_same_two_nodes_bend_apart():
    """Two relations between one pair of entities were drawn on one straight line, labels on top of each other."""
    from vgrag.present.drawing import parallel_bends

    edges = (
        VizEdge("f", "a", "b", "founded by", "seed", ""),
        VizEdge("c", "b", "a", "chief officer of", "seed", ""),  # the other way round
        VizEdge("d", "a", "b", "director of", "seed", ""),
        VizEdge("x", "a", "c", "alone", "seed", ""),
    )
    bends = parallel_bends(edges)
    assert set(bends) == {"f", "c", "d"}  # a lone edge stays straight

    def side(e: VizEdge) -> float:  # +1 / -1: which side of the a→b line the curve takes, times its roundness
        b = bends[e.id]
        cw = b["type"] == "curvedCW"
        return (1 if cw else -1) * (1 if e.source <= e.target else -1) * b["roundness"]

    assert len({side(e) for e in edges[:3]}) == 3  # three distinct curves
    html = render_html(VizGraph((VizNode("a", "A", "seed", ""), VizNode("b", "B", "seed", "")), edges[:2]))
    assert html.count('"smooth": {"enabled": true') == 2 and "<h1>" not in html  # no empty headings pushing it down


def _guide_like() -> tuple[list[str], tuple[str, ...], list[tuple[str, str]], tuple, tuple[int, ...]]:
    """A travel guide's trace as the layout sees it: 13 seed nodes (two hubs), then 20 nodes a hop reached, each
    hung on one of them; (first wave, names, edges, labels, waves)."""
    museum = ["Orla Menzies", "old customs house", "Gull Street", "Tomas Ardley", "Grey Lens"]
    festival = ["paper lanterns", "last weekend of October", "Quillhaven", "Quillhaven Harbour Society"]
    first = ["The Lantern Museum", *museum, "The Lantern Festival", *festival]
    first += ["Tomas Ardley's grandfather", "lamp room"]
    later = [f"{place} {i}" for i, place in enumerate(["Harbour Row", "Copper Quay", "Brindle Isle", "North Quay"] * 5)]
    names = tuple(first + later)
    edges = [("The Lantern Museum", m) for m in museum] + [("The Lantern Festival", f) for f in festival]
    edges += [(first[i % len(first)], place) for i, place in enumerate(later)]
    labels = tuple((a, b, "founded by" if i % 2 else "held in") for i, (a, b) in enumerate(edges))
    return first, names, edges, labels, tuple(int(n in later) for n in names)


def test_a_trace_grows_in_waves_the_first_fitting_the_smallest_frame():
    """The seeds step of a travel guide's trace drew 3 of its 13 nodes at 1280×720: its 32 nodes were laid out at
    once, ~970×1430 px. With waves (the step that first draws each node) the first wave's dots and labels lie
    within BOX, the frame at 1280×720 at the readable scale; the later ones go around it, no label on another."""
    import numpy as np

    from vgrag.present.layout import BELOW_PX, BOX, CHAR_PX, DOT_PX, HALF_LINE_PX, _crowded, layout

    first, names, edges, labels, waves = _guide_like()
    pos = layout(names, tuple(edges), labels, names, waves)
    half = np.maximum(np.array([len(n) * CHAR_PX / 2 for n in names]), DOT_PX)
    seeds = np.arange(len(first))

    def first_wave_extent(pos: dict) -> tuple[float, float]:
        xy = np.array([pos[n] for n in names])[seeds]
        width = (xy[:, 0] + half[seeds]).max() - (xy[:, 0] - half[seeds]).min()
        return width, (xy[:, 1] + BELOW_PX + HALF_LINE_PX).max() - (xy[:, 1] - DOT_PX).min()

    width, height = first_wave_extent(pos)
    assert width <= BOX[0] + 1 and height <= BOX[1] + 1, (width, height, BOX)
    assert not _crowded(np.array([pos[n] for n in names]), 2 * half)
    assert layout.__wrapped__(names, tuple(edges), labels, names, waves) == pos  # deterministic
    width, height = first_wave_extent(layout(names, tuple(edges), labels, names))  # all at once: the seeds spread
    assert width > BOX[0] or height > BOX[1], (width, height)  # over the whole drawing (the premise)


def test_each_wave_takes_the_smallest_box_it_fits():
    """Each wave is spread in the smallest box where no label lies on another and every labelled edge is long enough
    for its label. From the whole of BOX, the seeds filled it and a hop's nodes went around them: the guide's hop 1
    spread over ~1350×970 px and showed 20 of its 32 nodes at 1280×720 (walk22); here 1262×801 px before, ~1056×743
    after, and the seeds 965×442 → ~674×295."""
    import numpy as np

    from vgrag.present.layout import BELOW_PX, CHAR_PX, DOT_PX, DOTS_PX, EDGE_LABEL_CHARS, HALF_LINE_PX, _crowded
    from vgrag.present.layout import layout, short_label

    first, names, edges, labels, waves = _guide_like()
    pos = layout(names, tuple(edges), labels, names, waves)
    half = np.maximum(np.array([len(n) * CHAR_PX / 2 for n in names]), DOT_PX)

    def extent(part: list[str]) -> tuple[float, float]:
        i = [names.index(n) for n in part]
        xy = np.array([pos[n] for n in part])
        return (xy[:, 0] + half[i]).max() - (xy[:, 0] - half[i]).min(), (
            (xy[:, 1] + BELOW_PX + HALF_LINE_PX).max() - (xy[:, 1] - DOT_PX).min()
        )

    w, h = extent(list(names))
    assert w * h < 900 * 1000, (w, h)  # 1262×801 before
    w, h = extent(first)
    assert w * h < 800 * 400, (w, h)  # 965×442 before
    assert not _crowded(np.array([pos[n] for n in names]), 2 * half)  # no label on another
    for a, b, label in labels:  # every edge long enough for its label (view.js leaves out one that is not)
        room = len(short_label(label, EDGE_LABEL_CHARS)) * CHAR_PX + DOTS_PX - 5
        assert np.linalg.norm(np.subtract(pos[a], pos[b])) >= room, (a, b, label)

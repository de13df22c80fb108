"""A step's drawing as a class sees it projected from a 1280×720 screen: every node of the travel guide's hop 1
inside the room the Ask page's frame has there at the readable scale (session 24: 26–28 of its 32 nodes were in
view), the demo's seeds packed so its hop 1 has room, and every label's colour readable against the white frame
(the faded grey was 2.8:1)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

from vgrag.present.layout import BELOW_PX, BOX, CHAR_PX, DOT_PX, DOTS_PX, EDGE_LABEL_CHARS, HALF_LINE_PX, ROOM, _crowded
from vgrag.present.layout import layout, short_label

FIXTURES = Path(__file__).parent / "fixtures"


def _extent(pos: dict, names: list[str]) -> tuple[float, float]:
    """Width and height of the drawing's dots and label lines (layout px, scale 1)."""
    xy = np.array([pos[n] for n in names])
    half = np.maximum(np.array([len(short_label(n)) * CHAR_PX / 2 for n in names]), DOT_PX)
    return (xy[:, 0] + half).max() - (xy[:, 0] - half).min(), (
        (xy[:, 1] + BELOW_PX + HALF_LINE_PX).max() - (xy[:, 1] - DOT_PX).min()
    )


def _laid_out(name: str) -> tuple[dict, list[str], list[str], tuple]:
    """A fixture's layout: positions, all names, the seeds' names (wave 1) and the labelled edges."""
    data = json.loads((FIXTURES / f"{name}_hop1_layout.json").read_text(encoding="utf-8"))
    names = tuple(n for n, _ in data["nodes"])
    waves = tuple(w for _, w in data["nodes"])
    edges = tuple(sorted({(a, b) for a, b, _ in data["edges"]}))
    labels = tuple(sorted((a, b, label) for a, b, label in data["edges"]))
    pos = layout(names, edges, labels, names, waves)
    return pos, list(names), [n for n, w in data["nodes"] if w == 1], labels


def _readable(pos: dict, names: list[str], labels: tuple) -> None:
    """No label on another, and every labelled edge long enough for its label (view.js leaves out one that is not)."""
    half = np.maximum(np.array([len(short_label(n)) * CHAR_PX / 2 for n in names]), DOT_PX)
    assert not _crowded(np.array([pos[n] for n in names]), 2 * half)
    for a, b, label in labels:
        room = len(short_label(label, EDGE_LABEL_CHARS)) * CHAR_PX + DOTS_PX - 5
        assert np.linalg.norm(np.subtract(pos[a], pos[b])) >= room, (a, b, label)


def test_a_hops_wave_fits_the_room_of_the_frame_at_1280x720():
    """The guide's 32 nodes (13 seeds, 19 reached by hop 1) lie within ROOM, what the 932×438 px frame holds at 12 px
    labels, readable. Before, a later wave was spread in the 1920×1080 frame's shape and its nodes pushed along a
    too-short edge stayed against the box's wall: 1198×652 px, taller than the frame's room (531 px), so a few nodes
    were always out of view (27 of 32)."""
    pos, names, seeds, labels = _laid_out("guide")
    width, height = _extent(pos, names)
    assert width <= ROOM[0] + 2 and height <= ROOM[1] + 2, (round(width), round(height), ROOM)
    w1, h1 = _extent(pos, seeds)
    assert w1 <= BOX[0] + 1 and h1 <= BOX[1] + 1, (w1, h1)  # the seeds in the smallest frame's box
    _readable(pos, names, labels)


def test_the_seeds_wave_packs_when_its_nodes_are_turned_off_the_walls():
    """The demo's seeds (the README's question) filled the whole of BOX, 1037×453 px: pushed apart along an edge too
    short for its label, a node went into the box's wall and every smaller box was "crowded". Turned about the
    edge's other end (_swung, for every wave now), they fit ~674×295, and hop 1 around them ~1141×652 (1486×874
    before: 19–22 of its 33 nodes in view at 1280×720, 27–28 after)."""
    pos, names, seeds, labels = _laid_out("demo")
    w1, h1 = _extent(pos, seeds)
    assert w1 * h1 <= 0.6 * BOX[0] * BOX[1], (w1, h1, BOX)
    width, height = _extent(pos, names)
    assert width <= ROOM[0] + 2 and height <= 700, (width, height)
    _readable(pos, names, labels)


def _contrast(colour: str, background: str = "#ffffff") -> float:
    """WCAG 2 contrast ratio of two #rrggbb (or #rgb) colours."""

    def luminance(c: str) -> float:
        c = c if len(c) == 7 else "#" + "".join(x * 2 for x in c[1:])  # #888 → #888888
        rgb = [int(c[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((luminance(colour), luminance(background)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_every_label_reads_against_the_frame():
    """Every node label of a drawn step — the step's own and the faded ones of earlier steps or not chosen by the
    rerank — is ≥ 4.5:1 against the white frame (WCAG AA for text); the faded ones stay lighter than the step's own,
    so the step still stands out. The faded grey #9a9a9a was 2.8:1: hard to read projected."""
    from vgrag.present.drawing import vis_data
    from vgrag.present.viz import FADED, ROLE_COLORS, VizEdge, VizGraph, VizNode

    roles = [r for r in ROLE_COLORS if r not in ("lost", "gained", "both")]
    nodes = tuple(VizNode(f"n{i}", f"Node {i}", role, "") for i, role in enumerate(roles))
    edges = tuple(VizEdge(f"e{i}", f"n{i}", f"n{i + 1}", "links", roles[i], "") for i in range(len(roles) - 1))
    data = vis_data(VizGraph(nodes, edges))
    colours = {n["id"]: n["font"]["color"] for n in data["nodes"]}
    assert min(_contrast(c) for c in colours.values()) >= 4.5, colours
    faded = {colours[n.id] for n in nodes if n.role in FADED}
    own = {colours[n.id] for n in nodes if n.role not in FADED}
    assert faded and own and min(_contrast(c) for c in own) > max(_contrast(c) for c in faded) + 5, (own, faded)
    from ui.render import legend_html  # the legend's grey line under the cap ("3 more node(s) hidden …"): #888, 3.5:1

    line = re.search(r"color:(#[0-9a-fA-F]{3,6})'>3 more node", legend_html(VizGraph(nodes, edges, hidden_nodes=3)))
    assert line and _contrast(line[1]) >= 4.5, line

"""A dense step's drawing in headless Chromium, read back from vis-network: no edge label on another or on a node,
no node on another, and nothing cut at the frame's edge — at the frame sizes of 1280×720, 1400×1000 and 1920×1080
(and Present mode), and again after the window is resized."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from canvas import BOXES_JS, clutter

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
playwright = pytest.importorskip("playwright.sync_api", reason="pip install playwright (see .ci/run)")
if not Path(CHROMIUM).exists():
    pytest.skip("Debian chromium not installed (apt-get install chromium; see .ci/run)", allow_module_level=True)

# the graph frame's size on the Ask page: 1280×720 (sidebar open, and Present), 1400×1000, 1920×1080
FRAMES = ((900, 420), (1120, 505), (1000, 700), (1500, 780))
WORDS = "river county composer treaty union festival railway district council bank album label".split()
PREDICATES = ("is in", "composed", "was signed in", "borders", "is the capital of", "performed at", "owns", "led")


def dense_graph():
    """60 entities with names of every length and ~90 labelled relations, laid out as the step-through does."""
    from vgrag.present.layout import layout
    from vgrag.present.viz import VizEdge, VizGraph, VizNode

    rnd = random.Random(3)
    names = [" ".join(rnd.choice(WORDS).title() for _ in range(rnd.randint(1, 6))) + f" {i}" for i in range(60)]
    pairs = sorted({tuple(sorted(rnd.sample(range(60), 2))) for _ in range(90)})
    ids = [f"n{i}" for i in range(60)]
    labels = tuple((ids[a], ids[b], PREDICATES[(a + b) % len(PREDICATES)]) for a, b in pairs)
    pos = layout(tuple(ids), tuple((a, b) for a, b, _ in labels), labels, tuple(names))
    roles = ("selected", "hop1", "seed", "kept")
    nodes = tuple(VizNode(ids[i], names[i], roles[i % 4], names[i], *pos[ids[i]]) for i in range(60))
    edges = tuple(VizEdge(f"e{k}", a, b, p, roles[k % 4], p) for k, (a, b, p) in enumerate(labels))
    return VizGraph(nodes, edges, 0, tuple(ids[:12]))


def test_a_dense_step_has_no_label_on_another_and_nothing_cut_at_the_frames_edge(tmp_path, browser):
    from vgrag.present.drawing import render_html

    page_file = tmp_path / "g.html"
    page_file.write_text(render_html(dense_graph(), None), encoding="utf-8")
    found = {}
    for w, h in FRAMES:
        page = browser.new_page(viewport={"width": w, "height": h})
        page.goto(page_file.as_uri())
        page.wait_for_function("document.body.getAttribute('data-vgrag-ready') === '1'", timeout=60000)
        boxes = page.evaluate(BOXES_JS)
        assert len(boxes["nodes"]) >= 12 and boxes["edges"], (w, h)  # a real view, not an empty frame
        found[(w, h)] = {k: v for k, v in clutter(boxes).items() if v}
        if (w, h) == FRAMES[0]:  # a projector's full screen: the frame grows and the view is framed again
            page.set_viewport_size({"width": 1500, "height": 780})
            try:
                page.wait_for_function("document.body.dataset.vgragFrame === '1498x778'", timeout=30000)
                found["resized"] = {k: v for k, v in clutter(page.evaluate(BOXES_JS)).items() if v}
            except playwright.TimeoutError:
                found["resized"] = "not framed again after the resize"
        page.close()
    assert all(not v for v in found.values()), found


def test_the_drawing_and_its_border_fit_the_frame(tmp_path, browser):
    """The drawing was 100 % wide plus a 1 px border each side: 2 px wider than its frame, so the right border was cut
    off on every graph."""
    from vgrag.present.drawing import render_html

    page_file = tmp_path / "g.html"
    page_file.write_text(render_html(dense_graph(), None), encoding="utf-8")
    page = browser.new_page(viewport={"width": 900, "height": 420})
    page.goto(page_file.as_uri())
    page.wait_for_function("document.body.getAttribute('data-vgrag-ready') === '1'", timeout=60000)
    box = page.evaluate(
        "(() => { const r = document.getElementById('mynetwork').getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom, innerWidth, innerHeight]; })()"
    )
    left, top, right, bottom, width, height = box
    assert left >= 0 and top >= 0 and right <= width and bottom <= height, box


def test_a_frame_created_at_height_0_is_framed_once_it_gets_its_height(tmp_path, browser):
    """The app's frame on a copied link: Streamlit creates the component's iframe at height 0 and gives it its height
    a moment later. Framing at 0 px asked vis for a negative scale, which threw: the graph stayed unframed, its labels
    unplaced, the page never marked ready, and no later resize framed it (the compare test's flake)."""
    from vgrag.present.drawing import render_html

    (tmp_path / "g.html").write_text(render_html(dense_graph(), None), encoding="utf-8")
    (tmp_path / "outer.html").write_text(
        "<!DOCTYPE html><body style='margin:0'><iframe id='g' src='g.html' style='border:0;width:900px;height:0'>"
        "</iframe></body>",
        encoding="utf-8",
    )
    errors: list[str] = []
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((tmp_path / "outer.html").as_uri())
    frame = page.locator("#g").element_handle().content_frame()
    frame.wait_for_function("typeof network !== 'undefined'", timeout=60000)
    page.wait_for_timeout(500)  # the page's script frames its fixed layout as soon as the network exists
    assert frame.evaluate("document.body.getAttribute('data-vgrag-ready')") != "1"  # no size: not framed yet
    page.evaluate("document.getElementById('g').style.height = '420px'")
    frame.wait_for_function("document.body.getAttribute('data-vgrag-ready') === '1'", timeout=30000)
    boxes = frame.evaluate(BOXES_JS)
    assert not errors, errors
    assert len(boxes["nodes"]) >= 12 and not any(clutter(boxes).values()), clutter(boxes)

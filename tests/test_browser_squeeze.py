"""Every node of a step's graph fits its frame once the drawing is framed (vgrag/present/view.js: vgragSqueeze).
A layout wider and taller than the frame at the readable scale showed only its leading part: at 1280×720 the Ask
seeds step of a new user's travel-guide graph drew 3 of its 13 seed nodes in the 818×406 frame, the others off its
top and left edge (docs/ui.md, session 20). The nodes now come closer together (labels keep their size) until all
fit. Drawn as the app draws it (render_html), in the frame sizes the app gives at 1280×720 and 1920×1080."""

from __future__ import annotations

import pytest
from test_browser import CHROMIUM

from vgrag.present.drawing import render_html
from vgrag.present.viz import MIN_SCALE, VizEdge, VizGraph, VizNode

pytestmark = pytest.mark.flaky(reruns=1)

# the seeds step's places as laid out (trace_layout) for "In which village was the founder of the Lantern Museum
# born?" on that graph: two stars far apart and one lone node high above them
PLACES = {
    "The Lantern Museum": (-254, 120), "Orla Menzies": (-560, -60), "old customs house": (-760, -30),
    "Gull Street": (-700, -230), "Tomas Ardley": (-380, -270), "Grey Lens": (-700, 150),
    "The Lantern Festival": (600, 40), "paper lanterns": (430, -350), "last weekend of October": (820, 50),
    "Quillhaven": (470, -150), "Quillhaven Harbour Society": (320, 120), "Tomas Ardley's grandfather": (760, -250),
    "lamp room": (420, -700),
}  # fmt: skip
STARS = {"The Lantern Museum": ["Orla Menzies", "old customs house", "Gull Street", "Tomas Ardley", "Grey Lens"]}
STARS["The Lantern Festival"] = ["paper lanterns", "last weekend of October", "Quillhaven"]

OUT_JS = """() => { const c = network.body.container, W = c.clientWidth, H = c.clientHeight, out = [];
  for (const id of network.body.nodeIndices) {
    const n = network.body.nodes[id], p = network.canvasToDOM({x: n.x, y: n.y});
    if (n.options.hidden || p.x < 0 || p.y < 0 || p.x > W || p.y > H) out.push(id);
  }
  return {out: out, scale: network.getScale()}; }"""


def _graph() -> VizGraph:
    nodes = tuple(VizNode(name, name, "seed", name, float(x), float(y)) for name, (x, y) in PLACES.items())
    pairs = [(hub, leaf) for hub, leaves in STARS.items() for leaf in leaves]
    edges = tuple(VizEdge(f"{a}>{b}", a, b, "related to", "seed", "") for a, b in pairs)
    return VizGraph(nodes, edges, 0, tuple(PLACES))


@pytest.mark.parametrize("window,frame", [((1280, 720), 406), ((1920, 1080), 792)])
def test_every_node_of_a_wide_layout_fits_the_frame(tmp_path, window, frame):
    from playwright.sync_api import sync_playwright

    page_file = tmp_path / "g.html"
    page_file.write_text(render_html(_graph(), frame), encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": window[0] - 462, "height": window[1]})  # the main column's width
        page.goto(page_file.as_uri())
        page.wait_for_function("document.body.getAttribute('data-vgrag-ready') === '1'", timeout=60000)
        seen = page.evaluate(OUT_JS)
        browser.close()
    assert seen["out"] == [], seen  # every node drawn and inside the frame
    assert seen["scale"] >= 0.8 * MIN_SCALE - 1e-6, seen  # at a readable scale: labels ≥ 9.6 px

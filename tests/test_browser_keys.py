"""← / → step the Ask run after a click inside the graph's frame (walk20 finding 13): the click gave the frame the
keyboard and the page's Previous / Next shortcuts no longer heard the keys. The frame passes them on
(ui/graph_frame.html). The app, the browser and the helpers are tests/test_browser.py's."""

from __future__ import annotations

import pytest
from test_browser import EXAMPLE, N, STEP_LABELS, _ask_the_example, _graph_frame

pytestmark = pytest.mark.flaky(reruns=1)  # as tests/test_browser.py: a rerun can outlast a wait under load


def test_arrow_keys_step_after_a_click_inside_the_graph(demo_app, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    _ask_the_example(page, demo_app)
    _graph_frame(page, f"{EXAMPLE} · {STEP_LABELS[0]}")
    page.locator(".st-key-graph_frame iframe").click(position={"x": 30, "y": 30})  # the frame has the keys
    page.keyboard.press("ArrowRight")
    page.get_by_text(f"Step 2/{N} · {STEP_LABELS[1]}").wait_for(timeout=60000)
    _graph_frame(page, f"{EXAMPLE} · {STEP_LABELS[1]}")
    page.locator(".st-key-graph_frame iframe").click(position={"x": 30, "y": 30})
    page.keyboard.press("ArrowLeft")
    page.get_by_text(f"Step 1/{N} · {STEP_LABELS[0]}").wait_for(timeout=60000)

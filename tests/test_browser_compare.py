"""A comparison in headless Chromium at 1280×720, as a class meets it: ask, pin, change Hops, ask again, step to the
hop-2 step, reload — both runs come back at the same step; the difference graph is readable (no label on another,
nothing cut) and its legend is on screen in large type. Screenshots: VGRAG_SAVE_SCREENSHOTS=1 writes them to
docs/screenshots/compare_*.png."""

from __future__ import annotations

import pytest
from canvas import assert_readable
from test_browser import screenshot, _ask_the_example, _graph_frame, after_rerun

pytestmark = pytest.mark.flaky(reruns=1)  # as tests/test_browser.py: a rerun can outlast a wait under load

STEPS = ("query entities", "seeds", "hop 1", "hop 2", "eviction", "rerank", "answer")  # both runs' steps


def set_hops(page, hops: int) -> None:
    page.get_by_role("button", name="Knobs").click()
    after_rerun(page, page.locator(".st-key-hops").get_by_text(str(hops), exact=True).click)  # the knob is set
    page.keyboard.press("Escape")


def compare_two_hops(page, url: str) -> None:
    """Ask the example (Hops = 1), pin it, set Hops = 2, ask again: the comparison's first step is drawn."""
    _ask_the_example(page, url)
    page.get_by_role("button", name="Pin", exact=True).click()
    page.get_by_role("button", name="Unpin", exact=True).wait_for(timeout=60000)
    set_hops(page, 2)
    page.get_by_text("Stale: Hops 1 → 2").wait_for(timeout=60000)  # the shown run no longer matches the knobs
    page.get_by_role("button", name="Ask", exact=True).click()
    page.get_by_text(f"Step 1/{len(STEPS)}").wait_for(timeout=60000)
    _graph_frame(page, "compare · query entities")


def test_compare_step_and_reload_restores_both_runs_at_1280x720(demo_app, browser):
    url = demo_app  # the demo graph, only read: pinning and Hops live in this browser's session (tests/conftest.py)
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    compare_two_hops(page, url)
    assert page.get_by_text("Pinned run").first.is_visible() and page.get_by_text("New run").first.is_visible()
    _graph_frame(page, "compare · query entities").evaluate("window.vgragPageOfStep1 = true")
    for n in range(2, 5):
        page.get_by_role("button", name="Next ▶").click()
        page.get_by_text(f"Step {n}/{len(STEPS)} · {STEPS[n - 1]}").wait_for(timeout=60000)
    frame = _graph_frame(page, "compare · hop 2")
    assert frame.evaluate("window.vgragPageOfStep1 === true")  # one page redrawn, not a new page per step
    assert_readable(frame)
    labels = {n["label"] for n in frame.evaluate("Object.values(network.body.data.nodes.get())")}
    assert any(lb.startswith("+ ") for lb in labels), labels  # hop 2 reached entities only the new run has
    legend = page.get_by_text("+ only in the new run").first
    box, size = legend.bounding_box(), legend.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert box["y"] + box["height"] <= 720 and size >= 16, (box, size)  # on screen, readable from the back
    graph = page.locator(".st-key-graph_frame iframe").bounding_box()
    assert graph["height"] >= 300, graph
    screenshot(page, "compare_1280x720.png")
    link = page.url
    assert "a_hops=1" in link and "hops=2" in link and "step=hop+2" in link, link
    page.reload(wait_until="networkidle")
    page.get_by_text(f"Step 4/{len(STEPS)} · hop 2").wait_for(timeout=60000)
    page.get_by_text("Pinned run").first.wait_for(timeout=60000)
    assert_readable(_graph_frame(page, "compare · hop 2"))
    other = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()  # the link, elsewhere
    other.goto(link, wait_until="networkidle")
    other.get_by_text(f"Step 4/{len(STEPS)} · hop 2").wait_for(timeout=60000)
    _graph_frame(other, "compare · hop 2")
    other.get_by_role("button", name="Next ▶").click()
    other.get_by_text(f"Step 5/{len(STEPS)} · eviction").wait_for(timeout=60000)
    other.get_by_role("button", name="Next ▶").click()
    other.get_by_text(f"Step 6/{len(STEPS)} · rerank").wait_for(timeout=60000)
    other.get_by_role("button", name="Next ▶").click()
    other.get_by_text(f"Step 7/{len(STEPS)} · answer").wait_for(timeout=60000)
    _graph_frame(other, "compare · answer")
    other.get_by_text("Final passages").first.scroll_into_view_if_needed()
    screenshot(other, "compare_answer_1280x720.png", full_page=False)

"""The drawn graph fits its frame and the frame fits the window, on every step and in a comparison, at a small
projector width (1152×720: the legend takes two lines) and at 1920×1080. The frame's height was the window's less a
fixed 300 px: a legend on two lines pushed its bottom, and the nodes drawn there, below the window (a new-user probe
at 1280×720). It is now measured in the browser from where the frame starts (ui/graph_frame.html)."""

from __future__ import annotations

import os

import pytest
from canvas import assert_readable
from test_browser import (
    EXAMPLE,
    FIT_WATCH_JS,
    N,
    STEP_LABELS,
    _ask_the_example,
    _graph_frame,
    fits_settled,
)
from test_browser_compare import STEPS, set_hops

pytestmark = pytest.mark.flaky(reruns=1)  # as tests/test_browser.py: a rerun can outlast a wait under load
SHOTS = "/tmp/hui"


def _in_view(page, h: int, least: int, where: str) -> None:
    box = page.locator(".st-key-graph_frame iframe").bounding_box()
    assert box["y"] + box["height"] <= h + 0.5, (where, box)  # the whole frame on screen, no scrolling
    assert box["height"] >= least - 0.5, (where, box)


def _shot(page, name: str) -> None:
    if os.environ.get("VGRAG_SAVE_SCREENSHOTS") == "1":
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png")


@pytest.mark.parametrize("w, h", [(1152, 720), (1920, 1080)])  # two tests: xdist runs them on both workers, and
def test_every_step_and_the_comparison_fit_the_window(demo_app, w, h, browser):  # a rerun repeats one window, not both
    url = demo_app
    page = browser.new_page(viewport={"width": w, "height": h})
    page.add_init_script(FIT_WATCH_JS)  # to wait for the frame's own re-measurements (tests/test_browser.py)
    _ask_the_example(page, url)
    for n in range(1, N + 1):
        if n > 1:
            page.get_by_role("button", name="Next ▶").click()
            page.get_by_text(f"Step {n}/{N} · {STEP_LABELS[n - 1]}").wait_for(timeout=60000)
        frame = _graph_frame(page, f"{EXAMPLE} · {STEP_LABELS[n - 1]}")
        fits_settled(frame)  # the frame measures itself again as the page above settles
        answer = STEP_LABELS[n - 1] == "answer"
        _in_view(page, h, 160 if answer else 360, f"{w}x{h} {STEP_LABELS[n - 1]}")
        assert_readable(frame)
        _shot(page, f"fit_ask_{w}x{h}_{n}")
    for button in ("Present", "Leave Present"):  # the frame moves up, then down again: no new data
        done = fits_settled(frame)
        page.get_by_role("button", name=button, exact=True).click()
        page.get_by_role("button", name="Leave Present" if button == "Present" else "Present").wait_for()
        fits_settled(frame, after=done)  # measured again after the move, then quiet
        _in_view(page, h, 160, f"{w}x{h} after {button}")
    page.get_by_role("button", name="Pin", exact=True).click()
    page.get_by_role("button", name="Unpin", exact=True).wait_for(timeout=60000)
    set_hops(page, 2)
    page.get_by_role("button", name="Ask", exact=True).click()
    page.get_by_text(f"Step 1/{len(STEPS)}").wait_for(timeout=60000)
    for n in range(1, len(STEPS) + 1):
        if n > 1:
            page.get_by_role("button", name="Next ▶").click()
            page.get_by_text(f"Step {n}/{len(STEPS)} · {STEPS[n - 1]}").wait_for(timeout=60000)
        frame = _graph_frame(page, f"compare · {STEPS[n - 1]}")
        fits_settled(frame)
        _in_view(page, h, 360, f"{w}x{h} compare {STEPS[n - 1]}")
        assert_readable(frame)
        _shot(page, f"fit_compare_{w}x{h}_{n}")
    colours = set(frame.evaluate("edges.get().map(e => e.color)"))
    assert "#D55E00" in colours, colours  # the answer's chain, as on the step-through (it was all grey)
    page.close()

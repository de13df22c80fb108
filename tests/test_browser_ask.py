"""The Ask page in headless Chromium as a class or a demo meets it: a run projected at 1280×720 (and larger), kept
by a reload and a shared link, stepped in Present mode with the keyboard; the knobs keep their values. The app,
the browser and the helpers are tests/test_browser.py's."""

from __future__ import annotations

import os
import re

import pytest
from canvas import IN_VIEW_JS, assert_readable
from helpers import running_app
from test_browser import EXAMPLE, N, screenshot, STEP_LABELS, _ask_the_example, _graph_frame, playwright

pytestmark = pytest.mark.flaky(reruns=1)  # as tests/test_browser.py: a rerun can outlast a wait under load


SIZES = ((1280, 720), (1400, 1000), (1920, 1080))


def test_a_class_projects_a_run_at_1280x720_and_a_reload_keeps_it(tmp_path, browser):
    """On a fresh database, opening Build first leaves the demo one click away; at 1280×720 the Next button and the
    whole graph (≥ 360 px tall) fit in 680 px, hop 1 with ≥ 26 of its 33 nodes in view (22 before session 24), with
    no label on another and nothing cut at the frame's edge (also at 1400×1000, 1920×1080 and in Present mode); a
    step that changed nothing is marked; a reload and a copied link reopen the same question at the same step;
    Present mode steps with the → key."""
    with running_app({**os.environ, "VGRAG_MILVUS_URI": str(tmp_path / "class.db")}) as url:
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(url + "/build", wait_until="networkidle")  # Build first: it created an empty "demo"
        page.get_by_text("There is no graph in this database yet").wait_for(timeout=60000)
        page.goto(url + "/ask", wait_until="networkidle")
        page.get_by_role("button", name="Load the demo graph").click()  # still offered, one click
        page.get_by_text("Demo graph ready").first.wait_for(timeout=120000)
        _ask_the_example(page, url)
        for n in (2, 3):
            _graph_frame(page, f"{EXAMPLE} · {STEP_LABELS[n - 2]}")  # the page has settled
            page.get_by_role("button", name="Next ▶").click()
            page.get_by_text(f"Step {n}/{N} · {STEP_LABELS[n - 1]}").wait_for(timeout=60000)
        frame = _graph_frame(page, f"{EXAMPLE} · hop 1")
        nxt = page.get_by_role("button", name="Next ▶").bounding_box()
        box = page.locator(".st-key-graph_frame iframe").bounding_box()
        assert box["height"] >= 360 and box["y"] + box["height"] - nxt["y"] <= 680, (nxt, box)
        assert box["y"] + box["height"] <= 720, box  # on one screen, no scrolling
        assert_readable(frame)
        view = frame.evaluate(IN_VIEW_JS)  # the demo's seeds packed (layout.py's _swung): 22 of 33 before
        assert view["seen"] >= 26 and view["all"] >= 30, view
        screenshot(page, "ask_1280x720.png")
        link = page.url
        assert "step=hop+1" in link or "step=hop%201" in link, link
        page.reload(wait_until="networkidle")  # the run survives a reload, at the same step
        page.get_by_text(f"Step 3/{N} · hop 1").wait_for(timeout=60000)
        playwright.expect(page.get_by_label("Question", exact=True)).to_have_value(EXAMPLE, timeout=60000)
        other = browser.new_context().new_page()  # a copied link, in another browser
        other.goto(link, wait_until="networkidle")
        other.get_by_text(f"Step 3/{N} · hop 1").wait_for(timeout=60000)
        _graph_frame(other, f"{EXAMPLE} · hop 1")
        shared = other.locator(".st-key-graph_frame iframe").bounding_box()  # reopened in the compact layout:
        assert shared["y"] + shared["height"] <= 720, shared  # the whole graph on one 1280×720 screen
        other.close()
        page.get_by_role("button", name="Next ▶").click()  # eviction: nothing to evict on the demo
        page.get_by_text(f"Step 4/{N} · eviction").wait_for(timeout=60000)
        marked = page.locator(".st-key-step_sentence")  # the orange badge, then "No change: …"
        assert marked.inner_text().count("No change") == 2, marked.inner_text()
        for w, h in SIZES[1:]:
            page.set_viewport_size({"width": w, "height": h})
            page.wait_for_timeout(1500)
            box = page.locator(".st-key-graph_frame iframe").bounding_box()
            assert box["y"] + box["height"] <= h and box["height"] >= 360, (w, h, box)
            below = page.get_by_text(re.compile(r"^eviction: [0-9.]+ ms$")).bounding_box()
            assert below["y"] >= box["y"] + box["height"], (below, box)  # the graph never covers what follows
            assert_readable(_graph_frame(page, f"{EXAMPLE} · eviction"))  # framed again for the new size
            screenshot(page, f"ask_{w}x{h}.png")
        page.set_viewport_size({"width": 1280, "height": 720})
        page.get_by_role("button", name="Present", exact=True).click()
        page.locator("[data-testid=stSidebar]").wait_for(state="hidden", timeout=30000)
        _graph_frame(page, f"{EXAMPLE} · eviction")
        page.keyboard.press("ArrowRight")  # at once: the toggle just clicked no longer holds the keyboard
        page.get_by_text(f"Step 5/{N} · rerank").wait_for(timeout=60000)
        assert_readable(_graph_frame(page, f"{EXAMPLE} · rerank"))
        box = page.locator(".st-key-graph_frame iframe").bounding_box()
        assert box["width"] >= 1000 and box["y"] + box["height"] <= 720, box  # full width, still one screen
        screenshot(page, "ask_present_1280x720.png")


def test_the_knobs_keep_their_values_when_opened_after_a_run(demo_app, browser):
    """The knobs live in a closed popover: opened after any rerun, every one showed its minimum (entity top-k 0,
    passages 1…), and the next Ask ran with those. The popover shows the values the run used, and they stay."""
    from vgrag.config import QueryParams

    q = QueryParams()
    url = demo_app  # the demo graph, loaded (tests/conftest.py)
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    _ask_the_example(page, url)  # a rerun (two, with the Ask) before the popover is ever opened
    page.get_by_role("button", name="Knobs").click()
    box = page.get_by_label("Entity top-k")
    box.wait_for(timeout=30000)
    page.wait_for_timeout(1000)  # a widget mounted with a wrong value sends it back at once: let it
    shown = {n: page.get_by_label(n).input_value() for n in ("Entity top-k", "Passages", "Eviction cap")}
    page.keyboard.press("Escape")
    page.get_by_role("button", name="Ask", exact=True).click()
    page.get_by_text(f"Step 1/{N}").wait_for(timeout=60000)
    page.wait_for_url(re.compile(r"[?&]k_ent=.*[?&]k_psg=|[?&]k_psg=.*[?&]k_ent="), timeout=30000)  # the run's link
    link = page.url
    assert shown == {"Entity top-k": str(q.entity_top_k), "Passages": str(q.passage_top_k),
                     "Eviction cap": str(q.eviction_cap)}, shown  # fmt: skip
    assert f"k_ent={q.entity_top_k}" in link and f"k_psg={q.passage_top_k}" in link, link

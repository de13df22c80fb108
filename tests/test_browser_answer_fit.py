"""The Ask page's later steps in their frames at 1280×720 and 1920×1080, in headless Chromium, on a new user's travel
guide (conftest.py's guide_app). The answer step drew its graph in a 160 px frame under the evidence: at 1280×720 one
of the answer's 4 nodes in view, 4 of the 32 drawn (walk21). Now the evidence is beside the graph in a window under
900 px tall (ui/answer_view.py) and the graph has the height every step has. A step larger than its frame shows the
most nodes a readable scale allows, not its leading part alone at 16 px (view.js: hop 1 at 1280×720, 13 → 20 of 32);
a step that fits whole at 12 px or more is shown whole (the answer at 1920×1080 kept 27 of 32 at 15 px).
Session 23 (walk22): at 1280×720 the frame is larger (820×408 → 932×440 px: 1.5rem at the page's sides, half gaps
above it), each wave of the layout is packed in the smallest box it fits (vgrag/present/layout.py), the view keeps the
most of the step's own (not faded) nodes whole, and the note says how many of the step's own nodes are out and on
which side; hop 1 20 → 28 of 32 in view, eviction 20 → 26. Session 24: every node of hop 1, eviction and rerank in
view at 1280×720 (27 of 32 before): the layout spreads a hop's wave in that frame's room first. The answer's
evidence panel says how many sentences are below its fold ("▼ 2 more sentences below — scroll"), gone once scrolled
to its end."""

from __future__ import annotations

from urllib.parse import urlencode

import re

import pytest
from canvas import BOXES_JS, FRAMED, IN_VIEW_JS, clutter, under_note
from test_browser import FIT_WATCH_JS, _graph_frame, fits_settled
from test_browser_seeds_fit import _within

pytestmark = pytest.mark.flaky(reruns=1)  # as tests/test_browser.py: a rerun can outlast a wait under load
QUESTION = "In which village was the founder of the Lantern Museum born?"
# fewest nodes in view per step (of 32): before → after this change, at 1280×720 | 1920×1080
LEAST = {
    # eviction at 1280: 19 → 22 on h-answerfit's branch, 20 with the merged extraction of session 22 (the guide's
    # graph changed under it); still above the 19 before
    # session 23 (a larger frame, the layout's waves packed, the step's own nodes first): 1280×720 hop 1 20 → 28,
    # eviction 20 → 26, answer 13 → 14; 1920×1080 answer 30 → 32 (and every step at 16 px labels, not 12.3–13)
    # session 24 (a later wave spread first in the 1280×720 frame's room, vgrag/present/layout.py): 1280×720 hop 1,
    # eviction and rerank 27 → 32, all of them (the answer beside its evidence 19 → 16, its own 4 whole)
    (1280, 720): {"hop 1": 32, "eviction": 32, "rerank": 32, "answer": 12},  # 13 → 20, 19 → 22, 4 → 13 in s. 22
    (1920, 1080): {"hop 1": 32, "eviction": 32, "answer": 31},  # 32, 32, 27 → 30 in session 22
}
SIDES = r"(to the left|to the right|above|below)"
# the note: how many nodes are in view, then how many of the step's own are out and where, or that all of them are in
NOTE = re.compile(rf"(\d+) of (\d+) nodes in view — (?:(\d+) of this step's (\d+) (?:is|are) off {SIDES}(?:(?:, | and )"
                  rf"{SIDES})*: drag to see (?:it|them), or scroll to zoom out|all (\d+) of this step's; the rest, "
                  r"from earlier steps: drag to see them, or scroll to zoom out)$")  # fmt: skip


def note_says(view: dict) -> None:
    """The note is empty when every node is in view; else it gives the counts as drawn: all nodes, and the step's
    own (not faded) out of view, or that all of them are in view."""
    if view["seen"] == view["all"]:
        assert view["note"] == "", view
        return
    m = NOTE.match(view["note"])
    assert m, view["note"]
    assert (int(m[1]), int(m[2])) == (view["seen"], view["all"]), view
    own, out = len(view["own"]), len(view["own"]) - view["own_seen"]
    assert (int(m[3]), int(m[4])) == (out, own) if out else int(m[7]) == own, (view["note"], out, own)


def _judge(page, step: str, least: int) -> dict:
    """The step's drawing as framed: its own nodes (not faded) whole in the frame, dot and label; at least `least`
    of its nodes in view, the rest said by the note, which lies on no node or label; labels ≥ 12 px; no clutter."""
    frame = _graph_frame(page, f"{QUESTION} · {step}")
    fits_settled(frame)  # the frame measures itself again as the page above settles, then frames the drawing again
    frame.wait_for_function(FRAMED, timeout=30000)
    view, boxes = frame.evaluate(IN_VIEW_JS), frame.evaluate(BOXES_JS)
    whole = {n["id"] for n in boxes["nodes"] if _within(n["dot"], boxes["w"], boxes["h"])
             and _within(n["text"], boxes["w"], boxes["h"])}  # fmt: skip
    if step == "answer":  # the answer's chain and the question's names: every one whole
        assert set(view["own"]) <= whole, (step, len(set(view["own"]) & whole), len(view["own"]))
    assert view["seen"] >= least, (step, view["seen"], view["all"])
    note_says(view)
    assert not under_note(boxes, view["note_box"]), (step, under_note(boxes, view["note_box"]))
    assert 16 * frame.evaluate("network.getScale()") >= 12 - 1e-6, step  # labels readable on screen
    assert not any(clutter(boxes).values()), (step, clutter(boxes))
    return view


@pytest.mark.parametrize("window", [(1280, 720), (1920, 1080)])
def test_the_answer_steps_graph_shows_whole_beside_its_evidence(guide_app, window, browser):
    w, h = window
    page = browser.new_page(viewport={"width": w, "height": h})
    page.add_init_script(FIT_WATCH_JS)
    page.goto(f"{guide_app}/ask?{urlencode({'graph': 'guide', 'q': QUESTION, 'step': 'hop 1'})}")
    for n, step in ((3, "hop 1"), (4, "eviction"), (5, "rerank"), (6, "answer")):
        if n > 3:
            page.get_by_role("button", name="Next ▶").click()
        page.get_by_text(f"Step {n}/6 · {step}").wait_for(timeout=60000)
        if step in LEAST[window]:
            _judge(page, step, LEAST[window][step])
        if step == "hop 1" and w == 1280:  # the frame takes the room the page leaves (820×408 before)
            box = page.locator(".st-key-graph_frame iframe").bounding_box()
            assert box["width"] >= 900 and box["height"] >= 430, box
    graph = page.locator(".st-key-graph_frame iframe").bounding_box()
    side = page.locator(".st-key-answer_side").bounding_box()
    assert graph["height"] >= 360 and graph["y"] + graph["height"] <= h, graph  # as tall as any step's
    page.locator(".st-key-answer_side").get_by_text("Partly found").wait_for(timeout=30000)  # the verdict
    evidence = page.locator(".st-key-answer_side p").filter(has_text="Tressock").first.bounding_box()
    assert side["y"] >= 0 and side["y"] + side["height"] <= h and evidence["y"] + evidence["height"] <= h, side
    if h < 900:  # beside the graph, as tall as it, scrolling within (its five sentences are longer)
        assert side["x"] >= graph["x"] + graph["width"] and abs(side["y"] - graph["y"]) <= 1, (side, graph)
        assert abs(side["y"] + side["height"] - graph["y"] - graph["height"]) <= 2, (side, graph)
    else:  # above the graph, at most a third of the window
        assert side["y"] + side["height"] <= graph["y"] and side["height"] <= h / 3 + 1, (side, graph)


CUE_JS = """() => { const c = document.querySelector(".st-key-answer_side .vgrag-more");
  if (!c) return null;
  const p = c.closest(".st-key-answer_side"), bottom = p.getBoundingClientRect().bottom;
  const r = c.getBoundingClientRect(), shown = getComputedStyle(c).display !== "none";
  const fold = shown ? r.top : bottom;  // what the cue's line covers is below the fold too
  const below = [...p.querySelectorAll(".vgrag-evidence>p")].filter((x) => x.getBoundingClientRect().bottom > fold + 1);
  return {text: shown ? c.textContent : "", below: below.length, cue: [r.top, r.bottom],
          panel: [p.getBoundingClientRect().top, bottom]}; }"""


def test_the_evidence_panel_says_how_many_sentences_are_below_its_fold(guide_app, browser):
    """A window where the answer's five evidence sentences do not fit the panel beside the graph (1024×720): a line
    at the panel's bottom says how many are below, in words a projector's audience reads; scrolled to the end, it
    goes. Only the scrollbar said so before (walk22)."""
    page = browser.new_page(viewport={"width": 1024, "height": 720})
    page.add_init_script(FIT_WATCH_JS)
    page.goto(f"{guide_app}/ask?{urlencode({'graph': 'guide', 'q': QUESTION, 'step': 'answer'})}")
    frame = _graph_frame(page, f"{QUESTION} · answer")
    fits_settled(frame)
    page.wait_for_function("document.querySelector('.vgrag-more')?.textContent !== ''", timeout=30000)
    cue = page.evaluate(CUE_JS)
    assert cue and cue["below"] >= 1, cue  # the premise: some sentences are below the fold
    n = cue["below"]
    assert cue["text"] == f"▼ {n} more sentence{'s' if n > 1 else ''} below — scroll", cue
    assert cue["panel"][0] < cue["cue"][0] and cue["cue"][1] <= cue["panel"][1] + 1 <= 720, cue  # in view
    page.locator(".st-key-answer_side").evaluate("(p) => p.scrollTo(0, p.scrollHeight)")
    page.wait_for_function("getComputedStyle(document.querySelector('.vgrag-more')).display === 'none'",
                           timeout=10000)  # fmt: skip
    cue = page.evaluate(CUE_JS)
    assert cue["text"] == "" and cue["below"] == 0, cue

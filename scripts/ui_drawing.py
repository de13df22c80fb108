"""Count what makes a step's graph hard to read in a real browser: edge labels on each other or on a node, node
labels on each other, and nodes or labels cut by the frame's edge — every step of a question, at 1280×720,
1400×1000 and 1920×1080, in the normal layout and in Present mode.

Usage:
  python scripts/ui_drawing.py                       # the demo graph (ingested into a temp file), two demo questions
  python scripts/ui_drawing.py --standalone          # each step drawn alone at the graph frame's sizes (fast)
  python scripts/ui_drawing.py --db /tmp/x/mus.db --graph bench_musique_train --question "Who …?"
Needs Debian chromium and `pip install playwright`. Prints one line per view and a JSON summary.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
from bench_ui import demo_env  # noqa: E402
from canvas import BOXES_JS, clutter  # noqa: E402
from helpers import running_app  # noqa: E402

SIZES = ((1280, 720), (1400, 1000), (1920, 1080))
FRAMES = ((900, 420), (1120, 505), (1000, 700), (1500, 780))  # the graph's frame at those (1280×720: and Present)
DEMO_QUESTIONS = (
    "Who is the escalation contact for the service that Beacon depends on?",
    "Who leads the team that owns Tollgate?",
)


def frame_for(page, view: str, timeout_s: float = 120):
    """The graph iframe drawn for `view`, once zoomed into place."""
    check = "typeof network !== 'undefined' && document.body.getAttribute('data-vgrag-ready') === '1'"
    end = time.time() + timeout_s
    while time.time() < end:
        for f in page.frames:
            try:
                if f.evaluate(check) and f.evaluate("document.body.dataset.vgragView") == view:
                    return f
            except Exception:  # noqa: BLE001 - frames come and go while Streamlit re-renders
                continue
        page.wait_for_timeout(100)
    raise TimeoutError(view)


def row(size: str, present: bool | None, step: str, boxes: dict) -> dict:
    """One view's counts (and a few examples of each)."""
    found = clutter(boxes)
    return (
        {"size": size, "present": present, "step": step, "frame": [boxes["w"], boxes["h"]]}
        | {k: len(v) for k, v in found.items()}
        | {"nodes": len(boxes["nodes"]), "edge_labels": len(boxes["edges"]), "labels_left_out": boxes["hidden"]}
        | {"nodes_left_out": boxes["nodes_left_out"], "examples": {k: v[:3] for k, v in found.items() if v}}
    )


def standalone(db: str, graph: str, questions: list[str], browser) -> list[dict]:
    """Each step's drawing rendered alone at the Ask page's frame sizes: no app, the same drawing code, fast."""
    from vgrag import Settings, Workspace
    from vgrag.config import QueryParams
    from vgrag.present.explain import steps_for
    from vgrag.present.drawing import render_html
    from vgrag.present.viz import trace_graph

    ws = Workspace.open(Settings(milvus_uri=db))
    rows = []
    for q in questions:
        trace = ws.answer(ws.retrieve(q, graph, QueryParams()), graph, None)
        for w, h in FRAMES:
            page = browser.new_page(viewport={"width": w, "height": h})
            for step in steps_for(trace):
                g = trace_graph(trace, step, 60)
                if g.nodes:
                    page.set_content(render_html(g, None, None, step.label))
                    page.wait_for_function("document.body.dataset.vgragReady === '1'", timeout=60000)
                    rows.append(row(f"{w}x{h}", None, step.label, page.evaluate(BOXES_JS)))
            page.close()
    ws.close()
    return rows


def measure(url: str, graph: str, question: str, size: tuple[int, int], present: bool, browser) -> list[dict]:
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    page.goto(f"{url}/ask?{urlencode({'graph': graph, 'q': question})}", wait_until="networkidle")
    page.get_by_text(re.compile(r"Step 1/\d+")).first.wait_for(timeout=180000)
    n = int(re.search(r"Step 1/(\d+)", page.locator("[data-testid=stMain]").inner_text()).group(1))
    if present:
        page.get_by_role("button", name="Present", exact=True).click()
        page.locator("[data-testid=stSidebar]").wait_for(state="hidden", timeout=60000)
    rows = []
    for k in range(1, n + 1):
        if k > 1:
            page.get_by_role("button", name="Next ▶").click()
        head = page.get_by_text(re.compile(rf"Step {k}/{n} · ")).first
        head.wait_for(timeout=120000)
        sentence = page.locator(".st-key-step_sentence").first.inner_text()
        label = re.search(rf"Step {k}/{n} · (.+?) —", sentence).group(1)
        if page.get_by_text("Nothing to draw at this step.").count():
            continue
        f = frame_for(page, f"{question} · {label}")
        rows.append(row(f"{size[0]}x{size[1]}", present, label, f.evaluate(BOXES_JS)))
    page.close()
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", help="a Milvus Lite file (default: a temp file with the demo graph)")
    ap.add_argument("--graph", default="demo")
    ap.add_argument("--question", action="append", help="repeatable; default: two demo questions")
    ap.add_argument("--size", action="append", help="WxH, repeatable; default: 1280x720, 1400x1000, 1920x1080")
    ap.add_argument("--mode", choices=("normal", "present", "both"), default="both")
    ap.add_argument("--standalone", action="store_true", help="each step drawn alone at the frame sizes: no app")
    a = ap.parse_args()
    from playwright.sync_api import sync_playwright

    env = {**os.environ, "VGRAG_MILVUS_URI": a.db, "VGRAG_GRAPH": a.graph} if a.db else demo_env()
    rows: list[dict] = []
    if a.standalone:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox"])
            rows = standalone(env["VGRAG_MILVUS_URI"], a.graph, a.question or list(DEMO_QUESTIONS), browser)
            browser.close()
        for r in rows:
            print(json.dumps(r, ensure_ascii=False))
    else:
        rows = in_the_app(env, a)
    keys = ("edge_edge", "edge_node", "node_node", "cut")
    total = {k: sum(r[k] for r in rows) for k in (*keys, "edge_labels", "labels_left_out", "nodes_left_out")}
    views_clean = sum(all(r[k] == 0 for k in keys) for r in rows)
    print(json.dumps({"views": len(rows), "views_clean": views_clean} | total))


def in_the_app(env: dict, a: argparse.Namespace) -> list[dict]:
    """Every step of each question in the running app, at each window size and mode."""
    from playwright.sync_api import sync_playwright

    rows: list[dict] = []
    with running_app(env) as url, sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        for q in a.question or DEMO_QUESTIONS:
            for size in [tuple(map(int, x.split("x"))) for x in a.size] if a.size else SIZES:
                for present in {"normal": (False,), "present": (True,), "both": (False, True)}[a.mode]:
                    for r in measure(url, a.graph, q, size, present, browser):
                        rows.append(r)
                        print(json.dumps(r, ensure_ascii=False), flush=True)
        browser.close()
    return rows


if __name__ == "__main__":
    main()

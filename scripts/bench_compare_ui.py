"""How long a comparison takes to draw in a real browser (demo graph, offline): for every demo question, Ask at
Hops = 1, pin, set Hops = 2, Ask again — the time from that click to the comparison's first graph drawn — then Next
through the seven steps of both runs, each timed from the click to its difference graph drawn. Prints JSON.
"step_breakdown_ms" splits a comparison step (medians, ms after the click, from the app's websocket messages and
the graph frame's own clock): the click leaves the browser, the script run starts and ends on the server, the
graph's element arrives, the framing starts (vis has drawn) and ends; "step_bytes" is what the server sent per step.

Usage: python scripts/bench_compare_ui.py [--questions N]   (needs Debian chromium and playwright, as bench_ui.py)
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from urllib.parse import urlencode
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "scripts"))
from bench_ui import LONG_TASKS, Wire, _drawn, _medians, demo_env  # noqa: E402
from helpers import running_app  # noqa: E402

STEPS = ("query entities", "seeds", "hop 1", "hop 2", "eviction", "rerank", "answer")


def _hops(page, n: int) -> None:
    """Set Hops in the Knobs popover, and wait until the page says the run on screen is stale (the change took; on
    a loaded machine a click in a popover that is still opening can be lost: tried up to three times)."""
    for attempt in range(3):
        page.get_by_role("button", name="Knobs").click()
        page.locator(".st-key-hops").get_by_text(str(n), exact=True).click()
        page.wait_for_timeout(500)
        page.keyboard.press("Escape")
        try:
            page.get_by_text(f"Stale: Hops {3 - n} → {n}").wait_for(timeout=20000)
            return
        except Exception:  # noqa: BLE001 - try again, then give up with a screenshot
            page.screenshot(path=f"/tmp/hc_hops_{attempt}.png")
    raise TimeoutError(f"Hops {n} did not take")


def main() -> None:
    from playwright.sync_api import sync_playwright

    ap = argparse.ArgumentParser()
    ap.add_argument("--questions", type=int, default=0, help="only the first N demo questions (0: all)")
    a = ap.parse_args()
    questions = json.loads((ROOT / "data/demo/questions.json").read_text())
    questions = questions[: a.questions] if a.questions else questions
    phases: dict[str, list[float]] = {}
    plain_phases: dict[str, list[float]] = {}
    compare_ms: list[float] = []
    step_ms: dict[str, list[float]] = {}
    plain_ms: list[float] = []
    with running_app(demo_env()) as url:
        with sync_playwright() as p:
            b = p.chromium.launch(
                executable_path="/usr/bin/chromium",
                args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            )
            page = b.new_page(viewport={"width": 1280, "height": 720})
            wire = Wire(page)
            page.add_init_script(LONG_TASKS)
            page.goto(url + "/ask", wait_until="networkidle")
            page.get_by_label("Question", exact=True).wait_for(timeout=180000)  # the first page loads the models
            for q in questions:
                box = page.get_by_label("Question", exact=True)
                box.fill(q)
                box.press("Enter")
                page.wait_for_timeout(300)
                page.get_by_role("button", name="Ask", exact=True).click()
                asked = urlencode({"q": q})  # this question's run is on screen (not the last one's "Nothing to draw")
                page.wait_for_url(lambda u, asked=asked: asked in u and "a_q=" not in u, timeout=60000)
                _drawn(page, f"{q} · query entities")
                page.get_by_role("button", name="Pin", exact=True).click()
                page.get_by_role("button", name="Unpin", exact=True).wait_for(timeout=60000)
                _hops(page, 2)
                t0 = time.time()
                page.get_by_role("button", name="Ask", exact=True).click()
                page.get_by_text(f"Step 1/{len(STEPS)}").wait_for(timeout=60000)
                _drawn(page, "compare · query entities")
                page.get_by_text("Stale:").wait_for(state="detached", timeout=60000)
                compare_ms.append((time.time() - t0) * 1000)
                for n in range(2, len(STEPS) + 1):
                    since, t0 = len(wire.log), time.time()
                    page.get_by_role("button", name="Next ▶").click()
                    page.get_by_text(f"Step {n}/{len(STEPS)} · {STEPS[n - 1]}").wait_for(timeout=60000)
                    try:
                        frame = _drawn(page, f"compare · {STEPS[n - 1]}")
                    except TimeoutError:
                        page.screenshot(path="/tmp/hc_timeout.png")
                        print("timeout", q, STEPS[n - 1], file=sys.stderr)
                        raise
                    step_ms.setdefault(STEPS[n - 1], []).append((time.time() - t0) * 1000)
                    page.wait_for_timeout(300)  # the run's last messages (below the graph) are in the log
                    for k, v in wire.breakdown(since, t0, frame, page).items():
                        phases.setdefault(k, []).append(v)
                page.get_by_role("button", name="Unpin", exact=True).click()
                page.get_by_role("button", name="Pin", exact=True).wait_for(timeout=60000)
                _drawn(page, f"{q} · answer")
                for n in range(len(STEPS) - 1, 0, -1):  # the new run alone, back to its first step: the baseline
                    since, t0 = len(wire.log), time.time()
                    page.get_by_role("button", name="◀ Previous").click()
                    page.get_by_text(f"Step {n}/{len(STEPS)} · {STEPS[n - 1]}").wait_for(timeout=60000)
                    frame = _drawn(page, f"{q} · {STEPS[n - 1]}")
                    plain_ms.append((time.time() - t0) * 1000)
                    page.wait_for_timeout(300)
                    for k, v in wire.breakdown(since, t0, frame, page).items():
                        plain_phases.setdefault(k, []).append(v)
                _hops(page, 1)
            b.close()
    every = [x for v in step_ms.values() for x in v]
    print(json.dumps({
        "questions": len(questions),
        "second_ask_to_comparison_ms": {"median": round(statistics.median(compare_ms)), "max": round(max(compare_ms)),
                                        "each": [round(x) for x in compare_ms]},
        "step_ms": {"median": round(statistics.median(every)), "max": round(max(every))},
        "plain_step_ms (one run alone, same session)": {"median": round(statistics.median(plain_ms)),
                                                       "max": round(max(plain_ms))},
        "per_step_median_ms": {k: round(statistics.median(v)) for k, v in step_ms.items()},
        "step_breakdown_ms": _medians({k: v for k, v in phases.items() if "bytes" not in k}),
        "step_bytes": _medians({k: v for k, v in phases.items() if "bytes" in k}),
        "plain_step_breakdown_ms": _medians({k: v for k, v in plain_phases.items() if "bytes" not in k}),
        "plain_step_bytes": _medians({k: v for k, v in plain_phases.items() if "bytes" in k}),
    }, indent=1))  # fmt: skip


if __name__ == "__main__":
    main()

"""How long each step of the Ask page takes to render in a real browser (demo graph, offline, no LLM).

Usage: python scripts/bench_ui.py [--runs 3]   (needs Debian chromium and `pip install playwright`)
Starts `streamlit run app.py` on a temp Milvus Lite file with the demo graph, asks every demo question, clicks
through the steps and times click → the step's label and its timing caption are drawn. Prints JSON.
"ask_breakdown_ms" splits Ask → first step drawn (medians, ms after the click): the click's message leaves the
browser, the script run starts and ends on the server, the graph's element arrives, the framing starts (vis has
drawn) and ends (view.js: labels placed, view chosen), with the bytes the server sent and the browser's long tasks;
"next_breakdown_ms" the same for every Next. (The graph is a component whose page stays loaded: no page parse.)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
from helpers import running_app  # noqa: E402

from vgrag.config import QueryParams  # noqa: E402
from vgrag.query.trace import Step  # noqa: E402

# the steps the page shows at the default knobs (no hop-2 step at Hops = 1)
STEPS = tuple(s for s in Step if s.hop_depth is None or s.hop_depth <= QueryParams().hops)


def _drawn(page, view: str):
    """Wait until the step's graph iframe has drawn and zoomed (the view the user sees); returns that frame."""
    check = "document.body.getAttribute('data-vgrag-ready') === '1' && document.body.dataset.vgragView"
    for _ in range(2400):
        if page.get_by_text("Nothing to draw at this step.").count():
            return None
        for f in page.frames:
            try:
                if f.evaluate(check) == view:
                    return f
            except Exception:  # noqa: BLE001 - frames come and go while Streamlit re-renders
                continue
        page.wait_for_timeout(25)
    raise TimeoutError(view)


FRAME_JS = "() => ({origin: performance.timeOrigin, start: window.vgragStartAt, framing: window.vgragFrameMs})"
# the browser's main thread: every task over 50 ms (the page's and its same-origin frames'), as [start, length]
LONG_TASKS = """window.vgragLong = [];
new PerformanceObserver(function (l) { l.getEntries().forEach(function (e) {
  window.vgragLong.push([performance.timeOrigin + e.startTime, e.duration]); });
}).observe({entryTypes: ["longtask"]});"""


class Wire:
    """The app's websocket messages with their arrival times: when a click left and each script run began and
    ended, and when the graph's iframe arrived."""

    def __init__(self, page) -> None:
        self.log: list[tuple[float, str, bytes]] = []
        page.on("websocket", self._watch)

    def _watch(self, ws) -> None:
        ws.on("framereceived", lambda data: self.log.append((time.time(), "in", data)))
        ws.on("framesent", lambda data: self.log.append((time.time(), "out", data)))

    def breakdown(self, since: int, t0: float, frame, page) -> dict[str, float]:
        """One step's phases in ms after the click (see the module's docstring), the bytes the server sent, and the ms
        the browser's main thread spent in long tasks (> 50 ms) from the click to the drawing framed."""
        from streamlit.proto.BackMsg_pb2 import BackMsg
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        out: dict[str, float] = {"bytes_in": 0.0}
        for t, way, data in self.log[since:]:
            if isinstance(data, str):
                continue
            if way == "out":
                m = BackMsg()
                m.ParseFromString(data)
                if m.WhichOneof("type") == "rerun_script":
                    out.setdefault("click_sent", (t - t0) * 1000)
                continue
            out["bytes_in"] += len(data)
            m = ForwardMsg()
            m.ParseFromString(data)
            kind = m.WhichOneof("type")
            if kind == "new_session":
                out.setdefault("run_start", (t - t0) * 1000)
            elif kind == "script_finished":
                out["run_end"] = (t - t0) * 1000
            elif kind == "delta" and m.delta.WhichOneof("type") == "new_element":
                if m.delta.new_element.WhichOneof("type") in ("iframe", "component_instance"):
                    out["graph_arrived"] = (t - t0) * 1000
                    out["graph_bytes"] = float(len(data))
        if frame is not None:
            nav = frame.evaluate(FRAME_JS)
            at = nav["origin"] / 1000 - t0
            out["framing_start"] = (at + nav["start"] / 1000) * 1000
            out["drawn"] = (at + (nav["start"] + nav["framing"]) / 1000) * 1000
            end = t0 * 1000 + out["drawn"]
            tasks = page.evaluate("window.vgragLong || []")
            start = t0 * 1000
            out["long_tasks_busy"] = sum(min(s + d, end) - max(s, start) for s, d in tasks if s + d > start and s < end)
        return out


def _medians(phases: dict[str, list[float]]) -> dict[str, int]:
    """Each phase's median, in the order they happen."""
    return {k: round(statistics.median(v)) for k, v in sorted(phases.items(), key=lambda kv: statistics.median(kv[1]))}


def demo_env() -> dict[str, str]:
    """The environment of an app on a temp Milvus Lite file holding the demo graph (through the CLI, as a user)."""
    env = {**os.environ, "VGRAG_MILVUS_URI": str(Path(tempfile.mkdtemp()) / "ui.db")}
    subprocess.run(
        [sys.executable, "-m", "vgrag", "ingest", "--triples", str(ROOT / "data/demo/northwind.jsonl")],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    return env


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=1)
    a = ap.parse_args()
    from playwright.sync_api import sync_playwright

    env = demo_env()
    questions = json.loads((ROOT / "data/demo/questions.json").read_text())
    per_step: dict[str, list[float]] = {}
    ask_ms: list[float] = []
    phases: dict[str, list[float]] = {}
    next_phases: dict[str, list[float]] = {}
    with running_app(env) as url:
        with sync_playwright() as p:
            b = p.chromium.launch(
                executable_path="/usr/bin/chromium",
                args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            )
            page = b.new_page(viewport={"width": 1400, "height": 1000})
            wire = Wire(page)
            page.add_init_script(LONG_TASKS)
            page.goto(url + "/ask", wait_until="networkidle")
            page.get_by_label("Question", exact=True).wait_for(timeout=180000)  # the first page loads the models
            for _ in range(a.runs):
                for q in questions:
                    box = page.get_by_label("Question", exact=True)
                    box.fill(q)
                    box.press("Enter")
                    page.wait_for_timeout(300)  # the Enter's run is over
                    since, t0 = len(wire.log), time.time()
                    page.get_by_role("button", name="Ask", exact=True).click()
                    asked = urlencode({"q": q})  # this question's run is on screen
                    page.wait_for_url(lambda u, asked=asked: asked in u and "a_q=" not in u, timeout=60000)
                    frame = _drawn(page, f"{q} · {STEPS[0].label}")
                    ask_ms.append((time.time() - t0) * 1000)
                    page.wait_for_timeout(300)  # the run's last messages are in the log
                    if frame is not None:
                        for k, v in wire.breakdown(since, t0, frame, page).items():
                            phases.setdefault(k, []).append(v)
                    for n in range(2, len(STEPS) + 1):
                        since, t0 = len(wire.log), time.time()
                        page.get_by_role("button", name="Next ▶").click()
                        page.get_by_text(f"Step {n}/{len(STEPS)} · {STEPS[n - 1].label}").wait_for(timeout=60000)
                        frame = _drawn(page, f"{q} · {STEPS[n - 1].label}")
                        per_step.setdefault(STEPS[n - 1].label, []).append((time.time() - t0) * 1000)
                        page.wait_for_timeout(300)
                        if frame is not None:
                            for k, v in wire.breakdown(since, t0, frame, page).items():
                                next_phases.setdefault(k, []).append(v)
            b.close()
    out = {
        "questions": len(questions) * a.runs,
        "ask_to_first_step_ms": {"median": round(statistics.median(ask_ms)), "max": round(max(ask_ms))},
        "ask_each_ms": [round(x) for x in ask_ms],  # in the order asked: the first Ask of a session shows here
        "ask_breakdown_ms": _medians({k: v for k, v in phases.items() if "bytes" not in k}),
        "ask_bytes": _medians({k: v for k, v in phases.items() if "bytes" in k}),
        "next_step_ms": {k: {"median": round(statistics.median(v)), "max": round(max(v))} for k, v in per_step.items()},
        "next_breakdown_ms": _medians({k: v for k, v in next_phases.items() if "bytes" not in k}),
        "next_bytes": _medians({k: v for k, v in next_phases.items() if "bytes" in k}),
    }
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()

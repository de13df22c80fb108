"""How long each step of the Ask page takes to render in a real browser (demo graph, offline, no LLM).

Usage: python scripts/bench_ui.py [--runs 3]   (needs Debian chromium and `pip install playwright`)
Starts `streamlit run app.py` on a temp Milvus Lite file with the demo graph, asks every demo question, clicks
through the steps and times click → the step's label and its timing caption are drawn. Prints JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
from helpers import running_app  # noqa: E402

from vgrag.config import QueryParams  # noqa: E402
from vgrag.query.trace import Step  # noqa: E402

# the steps the page shows at the default knobs (no hop-2 step at Hops = 1)
STEPS = tuple(s for s in Step if s.hop_depth is None or s.hop_depth <= QueryParams().hops)


def _drawn(page, view: str) -> None:
    """Wait until the step's graph iframe has drawn and zoomed (the view the user sees)."""
    check = "document.body.getAttribute('data-vgrag-ready') === '1' && document.body.dataset.vgragView"
    for _ in range(2400):
        if page.get_by_text("Nothing to draw at this step.").count():
            return
        for f in page.frames:
            try:
                if f.evaluate(check) == view:
                    return
            except Exception:  # noqa: BLE001 - frames come and go while Streamlit re-renders
                continue
        page.wait_for_timeout(25)
    raise TimeoutError(view)


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
    with running_app(env) as url:
        with sync_playwright() as p:
            b = p.chromium.launch(
                executable_path="/usr/bin/chromium",
                args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            )
            page = b.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(url + "/ask", wait_until="networkidle")
            for _ in range(a.runs):
                for q in questions:
                    box = page.get_by_label("Question", exact=True)
                    box.fill(q)
                    box.press("Enter")
                    t0 = time.perf_counter()
                    page.get_by_role("button", name="Ask", exact=True).click()
                    page.get_by_text(f"Step 1/{len(STEPS)}").wait_for(timeout=60000)
                    page.get_by_text(re.compile(r"^query entities: [0-9.]+ ms$")).wait_for(timeout=60000)
                    _drawn(page, f"{q} · query entities")
                    ask_ms.append((time.perf_counter() - t0) * 1000)
                    for n in range(2, len(STEPS) + 1):
                        t0 = time.perf_counter()
                        page.get_by_role("button", name="Next ▶").click()
                        page.get_by_text(f"Step {n}/{len(STEPS)}").wait_for(timeout=60000)
                        page.get_by_text(re.compile(f"^{STEPS[n - 1].label}: [0-9.]+ ms$")).wait_for(timeout=60000)
                        _drawn(page, f"{q} · {STEPS[n - 1].label}")
                        per_step.setdefault(str(n), []).append((time.perf_counter() - t0) * 1000)
            b.close()
    out = {
        "questions": len(questions) * a.runs,
        "ask_to_first_step_ms": {"median": round(statistics.median(ask_ms)), "max": round(max(ask_ms))},
        "next_step_ms": {k: {"median": round(statistics.median(v)), "max": round(max(v))} for k, v in per_step.items()},
    }
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()

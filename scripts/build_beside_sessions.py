"""How the real app serves others while one session builds (#34): session A uploads a Markdown file of `_a _a …` on
Build (offline extractor, graph "demo"); meanwhile the health check is called every 0.5 s and, 3 s into the build, a
new session B loads Ask. Prints Ask's load time before the build (3 warm-ups) and during it, the health latencies
and the build's time. Needs playwright and /usr/bin/chromium; DB must hold a "demo" graph.

    python scripts/build_beside_sessions.py DB [WORDS]      # WORDS of "_a " (33,000 = 99 KB)
"""

from __future__ import annotations

import os
import statistics
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from helpers import running_app  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu"]


def main(db: str, words: int) -> None:
    data = ("_a " * words).encode()
    latencies: list[tuple[float, bool]] = []
    stop = threading.Event()

    def poll(url: str) -> None:
        while not stop.is_set():
            t = time.perf_counter()
            try:
                ok = urllib.request.urlopen(url + "/_stcore/health", timeout=60).read() == b"ok"
            except OSError:
                ok = False
            latencies.append((time.perf_counter() - t, ok))
            time.sleep(0.5)

    env = {**os.environ, "VGRAG_MILVUS_URI": db, "VGRAG_GRAPH": "demo"}
    with running_app(env) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)

        def ask_load() -> float:
            page, t = browser.new_context().new_page(), time.perf_counter()
            page.goto(url + "/ask", wait_until="networkidle")
            page.get_by_label("Question", exact=True).wait_for(timeout=300000)
            return time.perf_counter() - t

        warm = [ask_load() for _ in range(3)]
        a = browser.new_page()
        a.goto(url + "/build", wait_until="networkidle")
        a.locator("input[type=file]").nth(0).set_input_files(
            [{"name": "hostile.md", "mimeType": "text/markdown", "buffer": data}]
        )
        a.get_by_text("hostile.md").first.wait_for(timeout=60000)
        t0 = time.perf_counter()
        a.get_by_role("button", name="Build").click()
        poller = threading.Thread(target=poll, args=(url,))
        poller.start()
        time.sleep(3)
        during = ask_load()
        a.get_by_text("Stored ").first.wait_for(timeout=600000)
        build_s = time.perf_counter() - t0
        stop.set()
        poller.join()
        browser.close()
    xs = [x for x, _ in latencies]
    print("Ask loads before the build (s):", [round(x, 1) for x in warm])
    print(
        f"build {build_s:.1f} s; second session's Ask loaded in {during:.1f} s (started 3 s into the build); "
        f"health checks {len(xs)}, ok {sum(ok for _, ok in latencies)}, median {statistics.median(xs):.3f} s, "
        f"max {max(xs):.3f} s"
    )


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 33000)

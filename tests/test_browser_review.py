"""Review → merge → ask again, in headless Chromium at 1280×720: the Review page shows a passage's sentences with
their triples, a merge picked there goes through, and the Ask page answers on the merged graph. Screenshots in
docs/screenshots/ (with VGRAG_SAVE_SCREENSHOTS=1)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from helpers import running_app
from test_browser import screenshot, after_rerun, playwright, run_finished

from vgrag.text import entity_id

pytestmark = pytest.mark.flaky(reruns=1)  # as tests/test_browser.py: a rerun can outlast a wait under load

PEOPLE = [
    {"title": "Platform team › Leadership", "passage": "Dr. Raman leads the Platform team and reviews every Beacon "
     "release.", "triples": [["Dr. Raman", "leads", "Platform team"], ["Dr. Raman", "reviews", "Beacon"]]},
    {"title": "Priya Raman", "passage": "Priya Raman was born in Pune. Priya Raman studied at IIT Bombay.",
     "triples": [["Priya Raman", "born in", "Pune"], ["Priya Raman", "studied at", "IIT Bombay"]]},
]  # fmt: skip
QUESTION = "Where was the leader of the Platform team born?"


def _database(path: str, demo: Path, minilm) -> None:  # noqa: ANN001 - the session's MiniLMEmbedder
    """A copy of the demo graph imported by the library (tests/apptest.py's template), then PEOPLE imported into it."""
    from milvus_lite.server_manager import server_manager_instance

    from vgrag import Settings, Workspace

    shutil.copytree(demo, path)
    ws = Workspace.open(Settings(milvus_uri=path), minilm)
    ws.import_triples(("people.jsonl", "\n".join(json.dumps(r) for r in PEOPLE).encode()), "demo")
    ws.close()
    server_manager_instance.release_server(path)


def test_review_merge_then_ask_again_at_1280x720(tmp_path, app_demo_template, minilm, browser):
    path = str(tmp_path / "review.db")
    _database(path, app_demo_template, minilm)
    with running_app({**os.environ, "VGRAG_MILVUS_URI": path}) as url:
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(url + "/review?graph=demo&entity=Dr.+Raman", wait_until="networkidle")
        page.get_by_text("Dr. Raman | leads | Platform team").wait_for(timeout=120000)
        page.evaluate("document.fonts.ready.then(() => document.fonts.status)")  # the icons' font
        screenshot(page, "review_1280x720.png")
        page.get_by_text("Entity: Dr. Raman").click()
        page.get_by_label("Merge into (search a name)").fill("Priya Raman")
        search = page.get_by_label("Merge into (search a name)")
        after_rerun(page, lambda: search.press("Enter"))  # the search reruns the page; the picker then lists
        option = page.get_by_role("option", name="Priya Raman", exact=True)  # the matches (once the page has
        for _ in range(20):  # settled: a picker opened by an earlier run lists the earlier matches)
            page.get_by_label("Merge into", exact=True).click()
            try:
                option.wait_for(timeout=3000)
                break
            except playwright.Error:
                page.keyboard.press("Escape")
        after_rerun(page, option.click)
        screenshot(page, "review_merge_1280x720.png")
        page.get_by_role("button", name="Merge", exact=True).click()
        page.get_by_text("Merged “Dr. Raman” into “Priya Raman”").wait_for(timeout=60000)
        page.goto(url + "/review?graph=demo&entity=Priya+Raman", wait_until="networkidle")
        page.get_by_text("Priya Raman | leads | Platform team").wait_for(timeout=120000)
        page.get_by_text("Undo and the edit log").click()
        page.get_by_role("button", name="Undo the last edit").wait_for(timeout=60000)  # the log is a data grid
        run_finished(page)
        screenshot(page, "review_after_merge_1280x720.png")
        page.goto(url + "/ask?graph=demo", wait_until="networkidle")
        page.get_by_label("Question", exact=True).fill(QUESTION)
        page.get_by_role("button", name="Ask", exact=True).click()
        page.get_by_text("Step 1/").first.wait_for(timeout=120000)
        steps = int(page.get_by_text("Step 1/").first.inner_text().split("/")[1].split(" ")[0])
        for n in range(2, steps + 1):  # through to the answer, on the merged graph
            page.get_by_role("button", name="Next ▶").click()
            page.get_by_text(f"Step {n}/{steps}").first.wait_for(timeout=60000)
        run_finished(page)
        screenshot(page, "ask_after_merge_1280x720.png")
    from vgrag import Settings, Workspace

    ws = Workspace.open(Settings(milvus_uri=path))
    trace = ws.query(QUESTION, graph="demo", use_llm=False)  # what the page asked: one seed for the person
    seeds = {h.id for h in trace.seeds.entity_hits} | {e.id for e in trace.entities}
    assert entity_id("Dr. Raman") not in seeds and entity_id("Priya Raman") in seeds
    ws.close()

"""One upload limit (#probe: Build said 50 MB, Evaluate and the triple files 200 MB): every file chooser's drop zone
states the same limit, the server's maxUploadSize is that limit, and a file over it is named with the reason in view
(Streamlit kept the reason in a screen-reader line, shown on hover only)."""

from __future__ import annotations

import os
import tomllib

from helpers import ROOT

from ui.uploads import UPLOAD_MB
from vgrag.documents.sources import MAX_FILE_MB


def test_the_server_limit_is_the_apps_limit():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["server"]["maxUploadSize"] == UPLOAD_MB == MAX_FILE_MB


def test_every_file_chooser_states_one_limit_and_names_a_file_over_it(demo_app, tmp_path, browser):
    big = tmp_path / "big_report.txt"
    with big.open("wb") as f:
        f.truncate((UPLOAD_MB + 1) * 2**20)  # sparse: no 51 MB written
    limit = f"{UPLOAD_MB}MB per file"
    url = demo_app
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.goto(url + "/evaluate", wait_until="networkidle")
    zones = page.locator("[data-testid=stFileUploaderDropzone]")
    zones.first.wait_for(timeout=60000)
    said = [z.inner_text() for z in zones.all()]
    assert said and all(limit in z for z in said), said  # was "200MB per file"
    page.goto(url + "/build", wait_until="networkidle")
    page.get_by_role("tab", name="Pre-extracted triples").click()
    triples = page.locator("[data-testid=stFileUploaderDropzone]").nth(1)
    assert limit in triples.inner_text(), triples.inner_text()  # was 200 MB
    page.get_by_role("tab", name="Documents", exact=True).click()
    docs = page.locator("[data-testid=stFileUploaderDropzone]").first
    assert limit in docs.inner_text(), docs.inner_text()
    label = page.locator("[data-testid=stFileUploader]").first.locator("[data-testid=stWidgetLabel]").inner_text()
    assert "MB" not in label, label  # stated once: the drop zone's line, not the label as well
    page.locator("input[type=file]").first.set_input_files(str(big))
    chip = page.locator("[data-testid=stFileChip][aria-invalid=true]").first
    chip.wait_for(timeout=60000)
    reason = chip.locator("[role=alert]")
    box = reason.bounding_box()
    assert "big_report.txt" in chip.inner_text()
    assert f"{UPLOAD_MB}.0MB or smaller" in reason.inner_text()
    assert box and box["width"] > 100 and box["height"] > 8, box  # in view, not a 1 px screen-reader line
    if os.environ.get("VGRAG_SAVE_SCREENSHOTS") == "1":
        page.screenshot(path="/tmp/hui/upload_refused.png")

"""One upload freezes no one (#34), in the real app: while a Build runs (its extractor, an LLM endpoint, holds every
reply until the test lets it go), the server answers its health check, a second browser session loads Ask, and the
uploading session itself goes to Ask and back to Build, where its build's progress is shown again; then the report
comes and the document is complete. Measured by ordering (all of it happened while no extraction had been answered),
not by a wall-clock threshold."""

from __future__ import annotations

import json
import os
import shutil
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from helpers import running_app
from llm_http import serving
from llm_server import completion

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
playwright = pytest.importorskip("playwright.sync_api", reason="pip install playwright (see .ci/run)")
pytestmark = pytest.mark.flaky(reruns=1)  # a Streamlit rerun can outlast a wait when the machine is loaded
if not Path(CHROMIUM).exists():
    pytest.skip("Debian chromium not installed (apt-get install chromium; see .ci/run)", allow_module_level=True)

TEXT = "Ada Lovelace worked with Charles Babbage in London."
TRIPLE = ["Ada Lovelace", "worked with", "Charles Babbage"]
REPLY = json.dumps({"entities": [TRIPLE[0], TRIPLE[2]], "triples": [TRIPLE]})  # what the extractor reads
HEALTH_CHECKS = 10
WAIT_MS = 60000  # generous: a loaded machine; what is asserted is what happened before the gate opened


class GatedLLM:
    """An OpenAI-compatible endpoint whose every chat reply waits until `gate` is set."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.asked = 0  # requests received
        self.answered = 0  # replies sent

    def handler(self) -> type[BaseHTTPRequestHandler]:
        llm = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                return

            def do_POST(self) -> None:  # noqa: N802 - the http.server API
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                llm.asked += 1
                llm.gate.wait(150)  # a failed test leaves no reply waiting for long
                assert not body.get("stream")  # extraction asks for one reply
                data = json.dumps(completion(REPLY)).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                llm.answered += 1

        return Handler


def _healthy(url: str) -> bool:
    try:
        return urllib.request.urlopen(url + "/_stcore/health", timeout=5).read() == b"ok"
    except OSError:
        return False


def test_a_running_upload_freezes_neither_the_server_nor_any_session(app_db, tmp_path, browser):
    llm = GatedLLM()
    with serving(llm) as llm_url:  # type: ignore[arg-type] - any object with handler()
        env = {**os.environ, "VGRAG_MILVUS_URI": app_db, "VGRAG_GRAPH": "demo", "OPENAI_BASE_URL": llm_url,
               "OPENAI_API_KEY": "x", "VGRAG_LLM_CACHE": "0", "VGRAG_CACHE_DIR": str(tmp_path / "cache"),
               "VGRAG_LLM_TIMEOUT": "300", "VGRAG_LLM_DEADLINE": "300"}  # fmt: skip
        with running_app(env) as url:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(url + "/build", wait_until="networkidle")
            page.get_by_label("…or paste text").fill(TEXT)
            page.get_by_label("Extractor").click()
            page.get_by_role("option", name="LLM").first.click()
            page.get_by_role("button", name="Build").click()
            page.get_by_text("Building pasted text").first.wait_for(timeout=WAIT_MS)  # the page returned
            for _ in range(600):  # the ingest is in the extractor, held by the gate
                if llm.asked:
                    break
                page.wait_for_timeout(100)
            assert llm.asked and not llm.answered
            healthy = sum(_healthy(url) for _ in range(HEALTH_CHECKS))
            other = browser.new_context().new_page()  # a second session
            other.goto(url + "/ask", wait_until="networkidle")
            other.get_by_label("Question", exact=True).wait_for(timeout=WAIT_MS)
            page.locator("[data-testid=stSidebarNavLink]").filter(has_text="Ask").click()  # the uploader, elsewhere
            page.get_by_label("Question", exact=True).wait_for(timeout=WAIT_MS)
            page.locator("[data-testid=stSidebarNavLink]").filter(has_text="Build").click()
            page.get_by_text("Building pasted text").first.wait_for(timeout=WAIT_MS)  # its build, followed again
            answered_meanwhile = llm.answered
            llm.gate.set()
            page.get_by_text("Stored 1 chunks").wait_for(timeout=120000)
            page.reload(wait_until="networkidle")
            page.get_by_role("tab", name="Source documents").click()
            sources = page.get_by_role("tabpanel", name="Source documents")
            sources.get_by_text("pasted text").first.wait_for(timeout=WAIT_MS)
            listed = sources.inner_text()
    assert healthy == HEALTH_CHECKS, healthy
    assert answered_meanwhile == 0  # everything above happened while the ingest was still running
    assert "pasted text" in listed and "interrupted" not in listed, listed

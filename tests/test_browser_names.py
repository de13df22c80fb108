"""A file name is data: uploaded on the Build page, a name written as a Markdown image link is shown literally in
the progress, the report and the source list, and the browser never fetches the URL inside it."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from urllib.parse import urlparse

import pytest
from helpers import running_app

from vgrag.documents.sources import clean_file_name

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
playwright = pytest.importorskip("playwright.sync_api", reason="pip install playwright (see .ci/run)")
pytestmark = pytest.mark.flaky(reruns=1)  # a Streamlit rerun can outlast a wait when the machine is loaded
if not Path(CHROMIUM).exists():
    pytest.skip("Debian chromium not installed (apt-get install chromium; see .ci/run)", allow_module_level=True)

TRAP = "127.0.0.2"  # a loopback address nothing serves: any request to it came from a rendered name
DOC_NAME = f"![n](http://{TRAP}:9/x.png).txt"
TRIPLES_NAME = f"![t](http://{TRAP}:9/t.png) [go](http://{TRAP}:9/go).jsonl"


def test_a_markdown_file_name_is_shown_literally_and_fetches_nothing(tmp_path, browser):
    requests: list[str] = []
    db = tmp_path / "names.db"
    with running_app({**os.environ, "VGRAG_MILVUS_URI": str(db), "VGRAG_GRAPH": "names"}) as url:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.on("request", lambda r: requests.append(r.url))
        page.goto(url + "/build", wait_until="networkidle")
        page.get_by_label("Name").fill("names")  # opening Build no longer creates a graph (#23): start one
        page.get_by_role("button", name="Create and select").click()
        page.get_by_role("button", name="Build").wait_for(timeout=60000)
        text = b"Ada Lovelace worked with Charles Babbage in London."
        page.locator("input[type=file]").nth(0).set_input_files(
            [{"name": DOC_NAME, "mimeType": "text/plain", "buffer": text}]
        )
        page.get_by_text("x.png).txt").first.wait_for(timeout=60000)  # listed by the uploader: uploaded
        page.get_by_role("button", name="Build").click()
        page.get_by_text("Stored 1 chunks").wait_for(timeout=120000)
        page.get_by_role("tab", name="Pre-extracted triples").click()
        row = b'{"passage": "Grace Hopper wrote a compiler.", "triples": [["Grace Hopper", "wrote", "a compiler"]]}'
        page.locator("input[type=file]").nth(1).set_input_files(
            [{"name": TRIPLES_NAME, "mimeType": "application/json", "buffer": row}]
        )
        page.get_by_text("go).jsonl").first.wait_for(timeout=60000)  # listed (its middle elided): uploaded
        # the Build run showed the demo hint above the tabs (the graph was empty); the hint's slot stays when it
        # goes, so the tabs keep their place and the browser keeps this tab open (it showed the first one)
        page.get_by_role("button", name="Import").click(timeout=60000)
        page.get_by_text("Imported 1 passage").first.wait_for(state="attached", timeout=120000)
        page.reload(wait_until="networkidle")  # a fresh run lists both sources
        page.get_by_role("tab", name="Source documents").click()
        sources = page.get_by_role("tabpanel", name="Source documents")
        sources.get_by_text("Delete").nth(1).wait_for(timeout=30000)
        shown = sources.inner_text().replace("\u200b", "")  # md_escape's zero-width space that stops auto-links
    for name in (DOC_NAME, TRIPLES_NAME):  # as given, but for the "//" part
        assert clean_file_name(name) in shown, shown
    hits = [u for u in requests if urlparse(u).hostname == TRAP]
    assert not hits, hits


ESCAPED = [  # what GitHub-flavoured Markdown links without markup, and markup itself
    f"mail alice@{TRAP} now",
    f"see _www.{TRAP}.example/x and www.{TRAP}.example",
    f"xmpp:bob@{TRAP} and mailto:carol@{TRAP}",
    f"http://{TRAP}:9/a HTTPS://{TRAP}:9/b",
    f"![i](http://{TRAP}:9/i.png) [l](http://{TRAP}:9/l) <img src=http://{TRAP}:9/h.png> :red[x] $y$",
]


def test_escaped_text_makes_no_link_and_fetches_nothing_in_a_real_browser(tmp_path, browser):
    """md_escape's output as Streamlit renders it (remark-gfm finds bare links again after reading the backslashes):
    an e-mail address and "_www." became links; every text stays literal and nothing is fetched."""
    script = tmp_path / "escaped.py"
    script.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(Path(__file__).resolve().parent.parent)!r})\n"
        "import streamlit as st\n"
        "from ui.safe import md_escape\n"
        f"for t in {ESCAPED!r}:\n"
        "    st.markdown(md_escape(t))\n"
        "    st.caption(md_escape(t))\n"
        "    st.warning(md_escape(t))\n"
        "    st.button(md_escape(t), key=t)\n"
        "st.text('all drawn')\n"
    )
    requests: list[str] = []
    with running_app({**os.environ}, str(script)) as url:
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.on("request", lambda r: requests.append(r.url))
        page.goto(url, wait_until="networkidle")
        page.get_by_text("all drawn").wait_for(timeout=60000)
        main = page.locator("[data-testid=stMain]")
        links, images = main.locator("a").count(), main.locator("img").count()
        shown = main.inner_text().replace("\u200b", "")
    assert links == 0 and images == 0, (links, images)
    for t in ESCAPED:
        assert shown.count(t) == 4, (t, shown)  # markdown, caption, warning, button label: each literal
    assert not [u for u in requests if urlparse(u).hostname == TRAP]

"""The real app in headless Chromium: demo graph, a question stepped to its answer, a graph canvas with nodes,
no request leaving 127.0.0.1, and hostile text from documents shown as text, never run."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from urllib.parse import urlparse

import pytest
from canvas import assert_readable
from helpers import running_app

SHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
playwright = pytest.importorskip("playwright.sync_api", reason="pip install playwright (see .ci/run)")
pytestmark = pytest.mark.flaky(reruns=1)  # a Streamlit rerun can outlast a wait when the machine is loaded
if not Path(CHROMIUM).exists():
    pytest.skip("Debian chromium not installed (apt-get install chromium; see .ci/run)", allow_module_level=True)

XSS_ENTITY = '<img src=x onerror="window.__xss=1">'
EVIL_JSONL = json.dumps(
    {
        "title": "<script>window.__xss2=1</script>",
        "passage": f"Keystone was probed by {XSS_ENTITY} <script>window.__xss2=1</script>\n\n"
        "## Planted heading ![leak](http://exfil.example/doc.png) [click](http://exfil.example/go)",
        "triples": [[XSS_ENTITY, "probed", "Keystone"]],
    }
)
EXAMPLE = "Who is the escalation contact for the service that Beacon depends on?"
STEP_LABELS = ("query entities", "seeds", "hop 1", "eviction", "rerank", "answer")  # Hops = 1: no hop-2 step
N = len(STEP_LABELS)
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


# The Ask page's graph frame measures itself again 0, 150, 500 and 1200 ms after each draw, resize or rerun
# (`fitFrame` in ui/graph_frame.html). Installed in every frame of a page, this counts those timers, so a test waits
# until the last has run instead of a fixed 1.3 s (and a changed schedule still waits for its own end).
FIT_WATCH_JS = """(() => {
  const set = window.setTimeout, clear = window.clearTimeout, pending = new Set();
  window.vgragFits = {pending: pending, done: 0, last: 0};
  window.setTimeout = function (fn, ms, ...rest) {
    if (typeof fn !== "function" || fn.name !== "fitFrame") return set(fn, ms, ...rest);
    const id = set(function () { pending.delete(id); fn(); window.vgragFits.done += 1;
                                 window.vgragFits.last = performance.now(); }, ms);
    pending.add(id);
    return id;
  };
  window.clearTimeout = function (id) { pending.delete(id); return clear(id); };
})();"""


def screenshot(page, name: str, **kw) -> None:
    """Save `page` as docs/screenshots/`name` with VGRAG_SAVE_SCREENSHOTS=1 (the README's images), else take none:
    no test reads them back, and each costs Chromium a render (a full page one a resize and a repaint)."""
    if os.environ.get("VGRAG_SAVE_SCREENSHOTS") == "1":
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / name), **kw)


def fits_settled(frame, after: int | None = None, quiet_ms: int = 300) -> int:
    """Wait until the graph frame's pending re-measurements have all run and the last is `quiet_ms` old (a height it
    set redraws the network 150 ms later, vgrag/present/view.js); with `after`, at least one ran since the count was
    `after`. Returns the count of those run so far."""
    more = f" && performance.now() - f.last >= {quiet_ms}" + ("" if after is None else f" && f.done > {after}")
    frame.wait_for_function(f"(() => {{ const f = window.vgragFits; return f && f.pending.size === 0{more}; }})()",
                            timeout=60000)  # fmt: skip
    return frame.evaluate("window.vgragFits.done")


@pytest.fixture
def app_url(tmp_path_factory):  # per test: a rerun (pytestmark's flaky) starts again from an empty database — with
    # a module's app, the first attempt's demo stayed and the rerun could never find "Load the demo graph"
    db = tmp_path_factory.mktemp("browser") / "b.db"  # empty: the test loads the demo through the UI
    with running_app({**os.environ, "VGRAG_MILVUS_URI": str(db)}) as url:
        yield url


def run_finished(page, timeout: int = 60000) -> None:
    """Wait until the app's script run is over (Streamlit marks its root element with the run's state)."""
    page.locator("[data-testid=stApp][data-test-script-state=notRunning]").wait_for(state="attached", timeout=timeout)


def after_rerun(page, action) -> None:
    """Do `action` (a click, a key) and wait until the rerun it starts has finished."""
    page.evaluate(
        """() => { const app = document.querySelector('[data-testid=stApp]');
          if (!window.vgragRunWatch) {
            window.vgragRunWatch = new MutationObserver(() => {
              if (app.getAttribute('data-test-script-state') === 'running') window.vgragRuns += 1; });
            window.vgragRunWatch.observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
          }
          window.vgragRuns = 0; }"""
    )
    action()
    page.wait_for_function(
        "window.vgragRuns > 0 && document.querySelector('[data-testid=stApp]')"
        ".getAttribute('data-test-script-state') === 'notRunning'",
        timeout=60000,
    )


# Runs in the page: the iframe (searched through nested frames; all are the app's own origin) whose vis `network`
# has zoomed into place, drawn for `view` (any with null), else false.
FIND_GRAPH_JS = """(view) => {
  const search = (doc) => {
    for (const el of doc.querySelectorAll("iframe")) {
      let w, d;
      try { w = el.contentWindow; d = w && w.document; } catch (e) { continue; }  // another origin: not a graph
      if (!d || !d.body) continue;
      if (typeof w.network !== "undefined" && d.body.getAttribute("data-vgrag-ready") === "1"
          && (view === null || d.body.dataset.vgragView === view)) return el;
      const inner = search(d);
      if (inner) return inner;
    }
    return false;
  };
  return search(document);
}"""


def _graph_frame(page, view: str | None = None):
    """The iframe holding the pyvis graph (it defines the vis `network` global), once it has zoomed into place;
    with `view`, the one drawn for that view (a step's frame replaces the previous step's). Waited for in the
    browser (checked every 100 ms), up to 2 minutes on a loaded machine."""
    for _ in range(3):  # the frame found can be replaced by a rerun before it is handed over: look again
        try:
            found = page.wait_for_function(FIND_GRAPH_JS, arg=view, polling=100, timeout=120000)
            frame = found.as_element().content_frame()
        except playwright.TimeoutError:
            break
        except playwright.Error:  # the page navigated (a reload) while it was searched
            frame = None
        if frame is not None:
            return frame
    errors = page.locator("[data-testid=stException]").all_inner_texts()
    raise AssertionError(
        f"no graph iframe found ({view}); errors on the page: {errors}; page text: "
        f"{page.locator('section.main, [data-testid=stMain]').first.inner_text()[:1500]!r}"
    )


def _ask_the_example(page, url: str) -> None:
    """Open Ask, pick the example question, ask it, and wait for its first step."""
    page.goto(url + "/ask", wait_until="networkidle")
    page.get_by_label("Example questions").click()
    page.get_by_role("option", name=EXAMPLE).click()
    playwright.expect(page.get_by_label("Question", exact=True)).to_have_value(EXAMPLE, timeout=60000)
    page.get_by_role("button", name="Ask", exact=True).click()
    page.get_by_text(f"Step 1/{N}").wait_for(timeout=60000)


def test_ask_step_through_in_a_real_browser(app_url, tmp_path, browser):
    requests: list[str] = []
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.on("request", lambda r: requests.append(r.url))
    page.goto(app_url + "/ask", wait_until="networkidle")  # a deep link on a fresh server
    page.get_by_text("Offline: no LLM").first.wait_for(timeout=60000)  # the router's shared sidebar ran
    assert page.locator("[data-testid=stSidebarNavLink]").filter(has_text="Overview").count() == 1
    page.get_by_role("button", name="Load the demo graph").click()  # first launch: one click
    page.get_by_text("Demo graph ready").first.wait_for(timeout=120000)  # the toast after the rerun
    # hostile text arrives the way a user's file would: a triples file imported on the Build page
    page.goto(app_url + "/build", wait_until="networkidle")
    page.get_by_role("tab", name="Pre-extracted triples").click()
    evil = tmp_path / "evil.jsonl"
    evil.write_text(EVIL_JSONL)
    page.locator("input[type=file]").nth(1).set_input_files(str(evil))
    page.get_by_role("button", name="Import").click()
    page.get_by_text("Imported 1 passage and 1 triple;").wait_for(timeout=60000)
    _ask_the_example(page, app_url)
    positions: dict[str, tuple] = {}
    for n in range(1, N + 1):
        if n > 1:
            page.get_by_role("button", name="Next ▶").click()
            page.get_by_text(f"Step {n}/{N}").wait_for(timeout=60000)
        frame = _graph_frame(page, f"{EXAMPLE} · {STEP_LABELS[n - 1]}")
        assert_readable(frame)  # every step: no label on another, nothing cut at the frame's edge
        drawn = frame.evaluate("network.getPositions()")
        for node_id, xy in drawn.items():  # one layout per trace: no node moves between steps
            assert positions.setdefault(node_id, (xy["x"], xy["y"])) == (xy["x"], xy["y"]), node_id
        # labels are drawn at 16 px × the zoom: never below 12 px on screen
        px = frame.evaluate("16 * network.getScale()")
        assert px >= 12 - 1e-6, (n, px)
        if n == 3:  # hop 1: Keystone's neighbours, the injected entity among them
            labels = frame.evaluate("nodes.get().map(n => n.label)")
            assert any("onerror" in lb for lb in labels), labels  # drawn as text
        page.get_by_text(f"Step {n}/{N}").scroll_into_view_if_needed()  # the step's sentence, graph and legend
        screenshot(page, f"ask_step{n}.png")
    assert len(positions) >= 5
    page.get_by_text("Reasoning paths").wait_for(timeout=60000)
    frame = _graph_frame(page, f"{EXAMPLE} · answer")
    assert frame.evaluate("nodes.length") > 0
    assert frame.locator("canvas").count() >= 1
    # the answer's citation numbers are the numbers of the listed passages (table rank and expanders)
    trace_cites = re.findall(r"\[(\d+)\]", page.locator(".st-key-answer_text").inner_text())
    assert trace_cites
    for c in set(trace_cites):
        assert page.get_by_text(re.compile(rf"^\[{c}\] ")).count() >= 1  # the cited passage's expander
    for f in page.frames:
        try:
            assert f.evaluate("window.__xss === undefined && window.__xss2 === undefined")
        except playwright.Error:
            continue
    # a second browser session works at the same time as the first (one shared cached client)
    other = browser.new_context().new_page()
    other.on("request", lambda r: requests.append(r.url))
    other.goto(app_url + "/ask", wait_until="networkidle")
    box2 = other.get_by_label("Question", exact=True)
    box2.fill("Which team owns the service where Keystone stores its user records?")
    box2.press("Enter")
    other.get_by_role("button", name="Ask", exact=True).click()
    other.get_by_text(f"Step 1/{N}").wait_for(timeout=60000)
    assert page.get_by_text(f"Step {N}/{N}").is_visible()  # the first session kept its own state
    # the offline answer quotes the planted passage: its HTML and Markdown stay text (no heading, image or link).
    # The evidence quotes only listed passages, so the question is one that retrieves it
    planted = "What planted heading probed Keystone?"
    playwright.expect(other.get_by_label("Question", exact=True)).to_have_count(1, timeout=60000)  # run finished
    box2.fill(planted)
    box2.press("Enter")
    other.get_by_role("button", name="Ask", exact=True).click()
    _graph_frame(other, f"{planted} · query entities")  # the new question's trace is on screen
    for n in range(2, N + 1):
        other.get_by_role("button", name="Next ▶").click()
        _graph_frame(other, f"{planted} · {STEP_LABELS[n - 1]}")
    answer = other.locator(".st-key-answer_text")
    answer.wait_for(timeout=60000)
    assert "probed" in answer.inner_text(), answer.inner_text()
    assert answer.locator("h1, h2, h3, img, a").count() == 0
    page.goto(app_url + "/explore", wait_until="networkidle")
    box = page.get_by_label("Search an entity")
    box.fill("Keystone")
    page.get_by_role("button", name="Search", exact=True).click()  # a visible button, not only Enter
    page.get_by_text("Matches").wait_for(timeout=60000)  # the search ran with the typed name
    frame = _graph_frame(page)
    assert frame.evaluate("16 * network.getScale()") >= 12 - 1e-6
    # the planted Markdown in a passage shows literally among Keystone's source passages: no heading, no image
    page.get_by_text("![leak](http", exact=False).first.wait_for(state="attached", timeout=30000)
    assert page.locator("h2", has_text="Planted heading").count() == 0
    assert page.locator("img[src*='exfil']").count() == 0 and page.locator("a[href*='exfil']").count() == 0
    screenshot(page, "explore.png")
    for name, ready in (
        ("overview", "Where to next"),
        ("build", "Start a new graph"),
        ("evaluate", "Run benchmark"),
        ("settings", "LLM endpoint"),
    ):  # every page draws without an error, with a screenshot of each
        page.goto(f"{app_url}/{name}", wait_until="networkidle")
        page.get_by_text(ready).first.wait_for(timeout=60000)
        assert page.locator("[data-testid=stException]").count() == 0, name
        if name == "build":  # the uploader states the limit its label gives (it said the server's 200 MB)
            # the drop zone is drawn after the expander waited for above: waited for, not read at once (not drawn
            # yet at load 14, it failed twice in one CI run)
            playwright.expect(page.get_by_text("50MB per file").first).to_be_visible(timeout=60000)
        if name == "evaluate":  # the bundled sample benchmark: a table and a Recall@k chart
            page.get_by_role("button", name="Run benchmark").click()
            page.get_by_text("Per question").wait_for(timeout=120000)
        screenshot(page, f"page_{name}.png", full_page=True)
    hosts = {urlparse(u).hostname for u in requests if urlparse(u).scheme in ("http", "https", "ws", "wss")}
    assert hosts <= {"127.0.0.1"}, [u for u in requests if "127.0.0.1" not in u]


def test_stop_a_streamed_llm_answer_and_model_text_never_acts(tmp_path, browser):
    """With an LLM endpoint (a slow local fake), the answer streams; Stop keeps what arrived. The model's text
    carries a Markdown heading and an image pointing off-host: both shown literally, nothing fetched."""
    from llm_http import SlowLLM, serving

    words = ["#", "Heading", "![x](http://exfil.example/leak.png)", "Keystone", "[1]"] + [f"w{i}" for i in range(200)]
    llm = SlowLLM(words, delay_s=0.2)
    requests: list[str] = []
    with serving(llm) as base_url:
        env = {
            **os.environ,
            "VGRAG_MILVUS_URI": str(tmp_path / "llm.db"),
            "OPENAI_BASE_URL": base_url,
            "OPENAI_API_KEY": "x",
            "VGRAG_LLM_MODEL": "fake",
        }
        with running_app(env) as url:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.on("request", lambda r: requests.append(r.url))
            page.goto(url, wait_until="networkidle")
            page.get_by_text("LLM: fake").first.wait_for(timeout=60000)  # the sidebar names the endpoint
            page.get_by_role("button", name="Load the demo graph").click()
            page.get_by_text("Demo graph ready").first.wait_for(timeout=120000)
            page.goto(url + "/ask", wait_until="networkidle")
            box = page.get_by_label("Question", exact=True)
            box.fill(EXAMPLE)
            box.press("Enter")
            page.get_by_role("button", name="Ask", exact=True).click()
            page.get_by_text("w3", exact=False).first.wait_for(timeout=60000)  # streaming has begun
            page.get_by_role("button", name="■ Stop the answer").click()
            page.get_by_text(f"Step 1/{N}").wait_for(timeout=60000)
            for n in range(2, N + 1):
                page.get_by_role("button", name="Next ▶").click()
                page.get_by_text(f"Step {n}/{N}").wait_for(timeout=60000)
            page.get_by_text("stopped by the user after").first.wait_for(timeout=60000)
            page.get_by_text("![x](http", exact=False).first.wait_for(timeout=10000)
            screenshot(page, "ask_llm_stopped.png", full_page=True)
            assert page.locator("h1", has_text="Heading").count() == 0  # "# Heading" stayed text
    assert llm.streams_started == 1 and llm.streams_cut == 1  # the stream really stopped, it did not run on
    off_host = [u for u in requests if urlparse(u).hostname not in ("127.0.0.1", "localhost")]
    assert not off_host, off_host


def test_a_spread_out_graph_opens_on_its_most_important_node(tmp_path, browser):
    """Focus nodes in clusters far apart cannot all fit at a readable scale. Fitting them all and clamping the scale
    centred the view on the empty space between clusters (seen on the HotpotQA graph); the view now fits the
    leading focus nodes that do fit, so the first one is on screen, at ≥ 12 px labels."""

    from vgrag.present.drawing import render_html
    from vgrag.present.viz import MIN_SCALE, VizEdge, VizGraph, VizNode

    def cluster(name: str, x0: float, role: str) -> list[VizNode]:
        return [VizNode(f"{name}{i}", f"{name} {i}", role, "", x0 + 60 * i, 40.0 * (i % 2)) for i in range(4)]

    nodes = cluster("left", -6000.0, "query") + cluster("right", 6000.0, "selected")
    edges = tuple(VizEdge(f"e{i}", nodes[i].id, nodes[i + 1].id, "", "selected", "") for i in range(3))
    page_file = tmp_path / "g.html"
    page_file.write_text(render_html(VizGraph(tuple(nodes), edges, 0, tuple(n.id for n in nodes))), encoding="utf-8")
    page = browser.new_page(viewport={"width": 900, "height": 700})
    page.goto(page_file.as_uri())
    page.wait_for_function("document.body.getAttribute('data-vgrag-ready') === '1'", timeout=60000)
    assert page.evaluate("network.getScale()") >= MIN_SCALE - 1e-6
    box = page.evaluate(
        "(() => { const c = network.canvasToDOM(network.getPositions(['left0'])['left0']);"
        " const r = document.getElementById('mynetwork').getBoundingClientRect();"
        " return [c.x, c.y, r.width, r.height]; })()"
    )
    x, y, width, height = box
    assert 0 <= x <= width and 0 <= y <= height, box

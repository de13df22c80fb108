"""Every page opened by its URL path, with and without the graph the router writes, and every link the Overview page
renders: the page itself, never Streamlit's "Page not found" dialog. /overview (what a user types beside /ask or
/build) opened the main page under that dialog: the default page is served at "/" and its own path led nowhere."""

from __future__ import annotations

from test_browser import run_finished

PAGES = {  # path -> text only that page shows
    "": "Where to next",
    "overview": "Where to next",
    "build": "Start a new graph",
    "explore": "Search an entity",
    "ask": "Example questions",
    "review": "Review the graph",
    "evaluate": "Run benchmark",
    "settings": "LLM endpoint",
}


def _opened(page, url: str, ready: str) -> None:
    page.goto(url, wait_until="networkidle")
    page.get_by_text(ready).first.wait_for(timeout=60000)
    run_finished(page)  # the dialog comes with the page's first run
    assert page.get_by_text("Page not found").count() == 0, url
    assert page.locator("[data-testid=stException]").count() == 0, url


def test_every_page_path_and_every_rendered_link_opens_its_page(demo_app, browser):
    url = demo_app
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    for path, ready in PAGES.items():
        for query in ("", "?graph=demo"):
            _opened(page, f"{url}/{path}{query}", ready)
    assert page.url.endswith("?graph=demo")  # the graph named in a link is kept
    page.goto(url + "/overview?graph=demo", wait_until="networkidle")
    page.get_by_text("Where to next").first.wait_for(timeout=60000)
    assert page.url == f"{url}/?graph=demo", page.url  # /overview leads to the main page's own address
    page.locator("[data-testid=stPageLink]").last.wait_for(timeout=60000)
    hrefs = set(page.locator("a[href^='http://127.0.0.1']").evaluate_all("a => a.map(x => x.href)"))
    assert len(hrefs) >= 7, hrefs  # the sidebar's pages and Overview's "Where to next" links
    for href in hrefs:
        path = href.split("://", 1)[1].split("/", 1)[1].split("?")[0]
        _opened(page, href, PAGES[path])

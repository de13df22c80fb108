from __future__ import annotations

import re

from vgrag.viz import VIS_JS, VizEdge, VizGraph, VizNode, render_html, replay_html

EVIL = '</script><script>alert(1)</script><img src=x onerror="alert(2)">'
G = VizGraph(
    (VizNode("a", EVIL, "query", EVIL), VizNode("b", "B", "seed", "b")),
    (VizEdge("r", "a", "b", EVIL, "selected", EVIL),),
)


def _fetched(html: str) -> list[str]:
    return re.findall(r'<(?:script|link|img|iframe)[^>]+(?:src|href)="([^"]+)"', html)


def test_standalone_graph_fetches_nothing_and_escapes_text():
    html = render_html(G)
    assert _fetched(html) == []
    assert EVIL not in html and "<script>alert(1)" not in html  # tojson turns < into \\u003c
    assert "\\u003c/script\\u003e" in html
    assert "popup.innerHTML" not in html  # pyvis's tooltip_link popup (innerHTML) stays off


def test_served_assets_variant_is_small_and_same_origin():
    html = render_html(G, assets_url="app/static")
    assert _fetched(html) == [f"app/static/{VIS_JS}", "app/static/vis-network.css"]
    assert len(html) < 30_000 < len(render_html(G))


def test_replay_page_is_self_contained(tmp_path):
    from test_retrieve import Q

    from vgrag.trace import QueryTrace
    from vgrag.config import QueryParams

    html = replay_html(QueryTrace(Q + EVIL, "graph", QueryParams()))
    assert _fetched(html) == [] and EVIL not in html and "textContent" in html

"""A link naming a graph this database does not have (dropped, or a link from another machine) opens the page on
another graph and says so, naming both (it switched silently)."""

from __future__ import annotations

from apptest import APP, T
from streamlit.testing.v1 import AppTest


def test_a_link_to_a_missing_graph_says_which_graph_is_shown(app_env):
    at = AppTest.from_file(APP, default_timeout=T)
    at.query_params["graph"] = "no_such_graph"
    at.run()
    assert not at.exception, at.exception
    said = [t.value.replace("\\", "") for t in at.toast]
    assert any("“no_such_graph”" in t and "showing “demo”" in t for t in said), said
    at.run()  # said once
    assert not any("no_such_graph" in t.value for t in at.toast)

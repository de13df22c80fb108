"""The router: page list, page config and the shared sidebar — used by app.py and by pages opened directly.

Streamlit 1.67 keeps a process-wide flag, set when a `pages/` folder exists, that makes a deep link (/ask …)
run `pages/<name>.py` directly until some script has called st.navigation; the first visitor of a fresh
server who opens a deep link would get the legacy auto-navigation without the shared sidebar. Each page
calls ensure_router() first: on that legacy path it switches the flag off and reruns through app.py.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from ui.safe import md_escape
from ui.state import chose_graph, current_graph_name, mode_label, remember_graph, settings, workspace

ICON = str(Path(__file__).resolve().parent.parent / "data" / "icon.png")  # local: no favicon request leaves the host


def _pages() -> list:
    return [
        st.Page("pages/overview.py", title="Overview", icon=":material/home:", default=True, url_path="home"),
        st.Page("pages/build.py", title="Build", icon=":material/upload_file:"),
        st.Page("pages/explore.py", title="Explore", icon=":material/hub:"),
        st.Page("pages/ask.py", title="Ask", icon=":material/quiz:"),
        st.Page("pages/review.py", title="Review", icon=":material/rate_review:"),
        st.Page("pages/evaluate.py", title="Evaluate", icon=":material/leaderboard:"),
        st.Page("pages/settings.py", title="Settings", icon=":material/settings:"),
        # the default page is served at "/" but reserves its url_path: /overview (what a user types or bookmarks,
        # like /ask or /build) opened the main page under a "Page not found" dialog; it leads there now
        st.Page(_to_overview, title="Overview", url_path="overview", visibility="hidden"),
    ]


def _to_overview() -> None:
    st.switch_page("pages/overview.py", query_params=st.query_params.to_dict())


def _sidebar() -> None:
    with st.sidebar:
        s = settings()
        st.caption(md_escape(mode_label(s)))  # model names and URLs typed in Settings are text
        ws = workspace()
        if ws is not None:
            names = [g.name for g in ws.db.list_graphs()]
            if names:
                current = current_graph_name(ws)
                at: dict = {"index": names.index(current)}
                if st.session_state.get("select_graph") in names:  # a page chose a graph on the previous run: the
                    st.session_state["graph_picker"] = st.session_state.pop("select_graph")  # key's value is the
                    at = {}  # widget's (an index as well is a warning with a stack in the terminal)
                picked = st.selectbox("Graph", names, key="graph_picker", on_change=chose_graph, **at)
                remember_graph(picked)
            st.caption("Database: " + md_escape(s.milvus_uri))  # a path is text: a backtick in it ended a code span


def _config() -> None:
    st.set_page_config(page_title="Vector Graph RAG explorer", page_icon=ICON, layout="wide")


def navigation():  # -> StreamlitPage
    """Page config, the navigation and the shared sidebar; returns the page to run."""
    _config()
    page = st.navigation(_pages())
    st.session_state["_vgrag_routed"] = True
    _sidebar()
    missing = st.session_state.pop("missing_graph", None)  # a link naming a graph this database does not have
    if missing:
        shown = st.session_state.get("graph")
        st.toast(
            md_escape(f"This link names the graph “{missing}”, which this database does not have: showing “{shown}”."),
            icon=":material/warning:",
            duration="long",
        )
    flash = st.session_state.pop("flash", None)  # a confirmation set just before a rerun
    if flash:
        st.toast(flash, icon=":material/check_circle:")
    return page


def ensure_router() -> None:
    """Called first by every page; a no-op when app.py routed this run."""
    from streamlit.runtime.pages_manager import PagesManager

    if not PagesManager.uses_pages_directory:
        return
    PagesManager.uses_pages_directory = False
    if st.session_state.get("_vgrag_routed"):
        # Only AppTest re-enables the legacy path after a session was routed (it resets the flag every run);
        # a rerun here would drop the click that started this run, so draw the shared parts in place.
        _config()
        _sidebar()
    else:  # a deep link on a fresh server: the session's first run, nothing to lose; app.py re-resolves by URL
        st.rerun()

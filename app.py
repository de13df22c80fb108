"""Vector Graph RAG explorer: the router and the shared sidebar."""

from __future__ import annotations

import streamlit as st

from ui.state import current_graph_name, mode_label, settings, workspace

st.set_page_config(page_title="Vector Graph RAG explorer", page_icon="🕸️", layout="wide")

PAGES = [
    st.Page("pages/overview.py", title="Overview", icon="🏠", default=True),
    st.Page("pages/build.py", title="Build", icon="🧱"),
    st.Page("pages/explore.py", title="Explore", icon="🔎"),
    st.Page("pages/ask.py", title="Ask", icon="❓"),
    st.Page("pages/evaluate.py", title="Evaluate", icon="📏"),
    st.Page("pages/settings.py", title="Settings", icon="⚙️"),
]
page = st.navigation(PAGES)

with st.sidebar:
    s = settings()
    st.caption(mode_label(s))
    ws = workspace()
    if ws is not None:
        names = [g.name for g in ws.db.list_graphs()]
        if names:
            current = current_graph_name(ws)
            st.session_state["graph"] = st.selectbox("Graph", names, index=names.index(current), key="graph_picker")
        st.caption(f"Database: `{s.milvus_uri}`")

page.run()

"""Build: upload documents or paste text, extract triples live, import pre-extracted triples, manage sources."""

import streamlit as st

from ui import jobs
from ui.build_tabs import documents_tab, sources_tab, triples_tab
from ui.router import ensure_router
from ui.safe import md_escape
from ui.state import create_and_select, current_graph, has_data, settings, workspace
from ui.stored_build import stored_build

ensure_router()

st.title("Build a graph")
ws = workspace()
if ws is None:
    st.stop()
s = settings()
graph = current_graph(ws)  # never created by opening this page: an empty "demo" hid the demo button everywhere
hint = st.empty()  # the "empty graph: load the demo" hint, cleared below once a build on this run filled the graph
# a build or import still running into the graph (this page reloaded, or another tab): that is the news, not "empty"
busy = graph is not None and next(
    (j for k in ("documents", "triples") if (j := jobs.jobs().running((s.milvus_uri, graph.name, k)))), None
)
with hint.container():
    if busy:
        st.info(
            f"Building into graph “{md_escape(graph.name)}”: {md_escape(', '.join(busy.names))}. "
            "Its progress follows below, then its report; the graph fills as it goes."
        )
        filled = True
    else:
        filled = has_data(ws, graph, "add documents to it below" if graph is not None else "start a new graph below")
if graph is not None:
    st.info(
        f"Adding to graph **{md_escape(graph.name)}** (pick another in the sidebar, or start a new one below). "
        "Re-adding an unchanged file does nothing; a changed file replaces the old one of its name (when several "
        "documents share a name, it is stored beside them)."
    )
with st.container(key="stored_build"):  # what the graph holds as stored: seen in a new tab or after a restart too
    if graph is not None and filled and not busy:  # (this session's build report follows its progress, below)
        stored_build(graph)
with st.expander("Start a new graph", expanded=graph is None):
    if st.session_state.pop("graph_created", False):  # a graph was just made: the box is ready for the next name
        st.session_state["build_new_graph"] = ""
    new_name = st.text_input(
        "Name", placeholder="A–Z letters, digits and _ (starts with a letter)", key="build_new_graph"
    )
    if st.button("Create and select", key="build_create_graph") and new_name.strip():
        create_and_select(ws, new_name.strip())
if graph is None:
    st.stop()

tab_docs, tab_triples, tab_sources = st.tabs(["Documents", "Pre-extracted triples", "Source documents"])
with tab_docs:
    documents_tab(ws, graph, s)
with tab_triples:
    triples_tab(ws, graph)
with tab_sources:
    sources_tab(ws, graph)
if not filled and graph.counts()["passages"] > 0:  # built on this run: the hint above no longer holds
    hint.empty()

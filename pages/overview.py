"""Overview: what the tool does, the graph picker, counts, active models, links."""

import streamlit as st

from ui.router import ensure_router
from ui.safe import md_escape
from ui.state import create_and_select, current_graph, has_data, mode_label, settings, workspace
from vgrag.storage.database import StoreError

ensure_router()

st.title("Vector Graph RAG explorer")
st.write(
    "Build a knowledge graph that lives only in a vector database (Milvus), then watch multi-hop "
    "retrieval work step by step: seed entities and relations, one- or two-hop expansion, rerank, "
    "and an answer that cites its passages."
)

ws = workspace()
if ws is None:
    st.stop()
s = settings()
graph = current_graph(ws)
if has_data(ws, graph):
    counts = graph.counts()
    docs = graph.documents.all()
    st.subheader(f"Graph “{md_escape(graph.name)}”")
    c1, c2, c3, c4 = st.columns(4)
    c1.metric("Passages", counts["passages"])
    c2.metric("Entities", counts["entities"])
    c3.metric("Relations", counts["relations"])
    c4.metric("Source documents", len(docs))

st.subheader("Models and storage")
st.markdown(  # model names, URLs and paths are text (a backtick in a path ended a code span): escaped, not code spans
    f"- **Mode:** {md_escape(mode_label(s))}\n"
    f"- **Embeddings:** {md_escape(ws.embedder.model_id)} ({ws.embedder.dim}-d)\n"
    f"- **Milvus:** {md_escape(s.milvus_uri)}"
)

with st.expander("Manage graphs"):
    new = st.text_input(
        "New graph name", placeholder="A–Z letters, digits and _ (starts with a letter)", key="new_graph"
    )
    if st.button("Create graph", key="create_graph") and new.strip():
        create_and_select(ws, new.strip())
    names = [g.name for g in ws.db.list_graphs()]
    if names:
        victim = st.selectbox("Drop a graph", names, key="drop_pick")
        sure = st.checkbox(f"Yes, delete “{md_escape(victim)}” and all its data", key="drop_sure")
        if st.button("Drop graph", disabled=not sure, key="drop_graph"):
            try:
                ws.drop(victim)
            except StoreError as e:
                st.error(md_escape(f"Could not drop “{victim}”: {e}"))
            else:
                st.session_state.get("graphs_with_data", set()).discard((s.milvus_uri, victim))
                st.session_state["flash"] = f"Dropped “{md_escape(victim)}”."  # shown after the rerun (a toast)
                st.rerun()

st.subheader("Where to next")
st.page_link("pages/build.py", label="Build: upload documents or import triples", icon=":material/upload_file:")
st.page_link("pages/explore.py", label="Explore: entities, neighbourhoods, graph health, export", icon=":material/hub:")
st.page_link("pages/ask.py", label="Ask: step through a multi-hop query", icon=":material/quiz:")
st.page_link("pages/evaluate.py", label="Evaluate: Recall@k, naive vs graph", icon=":material/leaderboard:")

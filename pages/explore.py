"""Explore: find an entity, draw its neighbourhood, read its relations and passages; graph health; export."""

import pandas as pd
import streamlit as st

from ui.render import show_graph
from ui.router import ensure_router
from ui.safe import md_escape
from ui.state import require_graph
from vgrag.extraction.entities import graph_aliases
from vgrag.present.names import EXACT, match_tier, rank_by_name
from vgrag.present.viz import neighbourhood
from vgrag.storage.export import export_graph

ensure_router()

st.html("<style>.stMainBlockContainer{padding-top:2.25rem}</style>")  # as Ask's: the graph starts higher up
st.title("Explore the graph")
ws, graph = require_graph()


@st.cache_data(show_spinner="Scanning the graph…", max_entries=8)
def health(uri: str, name: str, version: tuple) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    ents = list(graph.iter_entities())
    deg = pd.DataFrame({"entity": [e.name for e in ents], "degree": [len(e.relation_ids) for e in ents]})
    dist = deg.groupby("degree").size().rename("entities").reset_index()
    hubs = deg.sort_values("degree", ascending=False).head(15)
    isolated = sorted(e.name for e in ents if not e.relation_ids)
    return dist, hubs, isolated


c = graph.counts()
dist, hubs, isolated = health(ws.settings.milvus_uri, graph.name, tuple(sorted(c.items())))


def _start_from_hub() -> None:
    """A hub picked: it becomes the search (the text box is drawn after this callback, so it takes the value)."""
    if st.session_state.get("hub_pick"):
        st.session_state["entity_query"] = st.session_state["hub_pick"]


url = st.query_params  # the searched entity and depth live in the URL, as Ask keeps its run: reload, share
if "entity_query" not in st.session_state and url.get("entity"):  # a new session (reload, link) opens it
    st.session_state["entity_query"] = url.get("entity")
    st.session_state["depth"] = 2 if url.get("depth") == "2" else 1
s_col, b_col = st.columns([6, 1], vertical_alignment="bottom")
typed = s_col.text_input("Search an entity", placeholder="a name, then Enter or Search", key="entity_query")
b_col.button("Search", key="entity_search", width="stretch")  # a click reruns with the typed text, like Enter
if not typed.strip() and len(hubs):
    st.pills(  # a first look at a graph nobody has searched yet: its best-connected entities, one click each
        "Or start from one of the most connected entities",
        [n for n, d in zip(hubs["entity"], hubs["degree"], strict=True) if d][:8],
        format_func=md_escape,  # pills read their labels as Markdown: a name is shown literally
        key="hub_pick",
        on_change=_start_from_hub,
    )
if typed.strip():
    near = ws.find_entities(typed, graph.name, 40)  # by meaning; then the names that match what was typed first
    written = graph_aliases(graph).all()  # entity name -> the spellings merged into it (one read for every hit)
    hits = rank_by_name(
        typed,
        near,
        {i: (e.name, *written.get(e.name, ())) for i, (e, _) in enumerate(near)},
        {i: len(e.relation_ids) for i, (e, _) in enumerate(near)},
    )[:15]
    options = {f"{e.name}  ({len(e.relation_ids)} relations)": e for e, _ in hits}
    if hits and not any(
        match_tier(typed, n) == EXACT for e, _ in hits for n in (e.name, *written.get(e.name, ()))
    ):  # no entity (or alias) is named so, "The Northwind" being Northwind: say so, rather than show a lookalike
        st.caption(
            md_escape(
                f"No entity is named “{typed.strip()}”: names that begin with it are listed first, "
                "then the closest by meaning."
            )
        )
    if st.session_state.get("entity_pick_for") != typed:  # a new search opens its own best match, not the last
        # one's pick, which a fixed key keeps while it is still listed. Set, not just forgotten: a forgotten pick
        # made the page draw the new best match while the browser's box went on showing the old one (walk23)
        st.session_state["entity_pick"] = next(iter(options), None)
        st.session_state["entity_pick_for"] = typed
    m_col, c1, c2, c3 = st.columns([4, 1.3, 2, 1.2], vertical_alignment="bottom")  # one row: the graph higher up
    picked = m_col.selectbox("Matches", list(options), key="entity_pick")
    entity = options[picked] if picked else None
    depth = c1.radio("Depth", [1, 2], horizontal=True, key="depth")
    cap = c2.slider("Node cap", 10, 300, 60, key="cap")
    show_all = c3.checkbox("Show all", key="show_all")
    want = {"entity": entity.name, "depth": str(depth)} if entity is not None else {}
    for k in ("entity", "depth"):
        if url.get(k) != want.get(k):
            if k in want:
                url[k] = want[k]
            else:
                del url[k]
    if entity is not None:
        aliases = written.get(entity.name, ())
        if aliases:
            st.text("Also written: " + " · ".join(aliases))  # spellings merged into this entity, shown literally
        show_graph(neighbourhood(graph, entity.id, depth, None if show_all else cap))
        rels = graph.get_relations(list(entity.relation_ids))
        st.subheader("Relations")
        st.dataframe(
            pd.DataFrame(
                [
                    {
                        "subject": r.subject,
                        "predicate": r.predicate,
                        "object": r.object,
                        "date": r.when,
                        "passages": len(r.passage_ids),
                    }
                    for r in rels
                ]
            ),
            width="stretch",
        )
        passages = graph.get_passages(list(entity.passage_ids)[:50])
        st.subheader(f"Source passages ({len(entity.passage_ids)})")
        for n, p in enumerate(passages):
            with st.expander(md_escape(p.title or "(untitled)"), expanded=n < 3):
                st.markdown(md_escape(p.text))  # wrapped, and shown literally


with st.expander("Graph health"):
    st.bar_chart(dist, x="degree", y="entities")
    st.write("Top hub entities")
    st.dataframe(hubs, width="stretch", hide_index=True)
    st.write(f"Isolated entities (no relation): {len(isolated)}")
    if isolated:
        st.text(", ".join(isolated[:50]))

with st.expander("Export"):
    for fmt, mime in (("graphml", "application/xml"), ("json", "application/json"), ("csv", "text/csv")):
        if st.button(f"Prepare {fmt.upper()}", key=f"prep_{fmt}"):
            st.session_state[f"export_{fmt}"] = export_graph(graph, fmt)
        if f"export_{fmt}" in st.session_state:
            st.download_button(
                f"Download {fmt.upper()}",
                st.session_state[f"export_{fmt}"],
                file_name=f"{graph.name}.{fmt}",
                mime=mime,
                key=f"dl_{fmt}",
            )

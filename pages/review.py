"""Review: read a document sentence by sentence with the triples taken from each, fix them (keep, delete, edit,
add), fix entities (rename, merge, split an alias, delete), apply suggested fixes, undo — every change logged."""

import streamlit as st

from ui.review import moved_note, show_passage
from ui.review_tools import entity_tools, found_fixes, log_tools, suggestion_tools
from ui.router import ensure_router
from ui.safe import md_escape
from ui.state import require_graph
from vgrag.extraction.entities import graph_aliases
from vgrag.text import entity_id

ensure_router()

st.title("Review the graph")
ws, graph = require_graph()
g = graph.name
PAGE = 10  # passages per page

docs = ws.documents(g)
url = st.query_params
names = {"": "(all documents of the entity)", **{d.id: d.name for d in docs}}
f1, f2, f3 = st.columns([3, 3, 2], vertical_alignment="bottom")
first = url.get("doc") if url.get("doc") in names else ("" if url.get("entity") or not docs else docs[0].id)
doc = f1.selectbox("Document", list(names), format_func=names.get, key="review_doc", index=list(names).index(first))
if "review_entity_next" in st.session_state:  # a rename, merge or edit just happened: show the entity it left
    st.session_state["review_entity"] = st.session_state.pop("review_entity_next")
elif "review_entity" not in st.session_state:  # the box's first value is the link's; given with `value=` as well,
    st.session_state["review_entity"] = url.get("entity", "")  # a set value logged a warning with a stack (walk21)
typed = f2.text_input("Entity", key="review_entity", placeholder="a name: its passages")
only_fixes = f3.toggle("Suggested fixes only", key="review_fixes")
entity = ws.entity_named(typed, g) if typed.strip() else None
if typed.strip() and entity is None:  # a name merged into an entity (at ingest or by a merge): that entity
    entity = next((ws.entity_named(n, g) for n, spellings in graph_aliases(graph).all().items()
                   if entity_id(typed) in map(entity_id, spellings)), None)  # fmt: skip
    if entity is not None:
        st.caption(md_escape(f"“{typed.strip()}” is merged into “{entity.name}”: its triples are shown."))
if typed.strip() and entity is None:
    st.caption(md_escape(f"No entity is named “{typed.strip()}”; Explore finds names by meaning."))
moved_note(entity)  # an edit moved a triple of this entity to another name: offer it
want = {"doc": doc or "", "entity": typed.strip()}  # what a user would bookmark or link to (the Ask page does)
if any(url.get(k, "") != v for k, v in want.items()):
    url.update(want)

fixes = found_fixes(ws, graph) if only_fixes else []
only = {t for s in fixes for t in s.targets if t.startswith("rel-")} if only_fixes else None
focus_entities = {t for s in fixes for t in s.targets if t.startswith("ent-")}

with st.expander("Entity" + (f": {entity.name}" if entity else "") + " — rename, merge, split an alias, delete"):
    if entity is not None:
        entity_tools(ws, graph, entity)
    else:
        st.caption("Type an entity's name above to rename, merge, split or delete it.")
if only_fixes:
    with st.expander(f"Suggested fixes ({len(fixes)})", expanded=True):
        suggestion_tools(ws, g, fixes)
with st.expander("Undo and the edit log"):
    log_tools(ws, g)

if only_fixes:  # the passages of the entities and relations the fixes touch, in this document
    rel_of = {e.id: set(e.relation_ids) for e in graph.get_entities(sorted(focus_entities))}
    only = only | {r for rs in rel_of.values() for r in rs}  # type: ignore[operator]
views = [v for v in ws.review(doc or None, entity.id if entity else None, g, only)
         if not only_fixes or any(s.relations for s in v.sentences) or v.unplaced]  # fmt: skip
if not views and entity is not None and doc and not only_fixes:  # typed while a document was picked (walk20)
    views = ws.review(None, entity.id, g, None)
    if views:
        st.caption(md_escape(f"“{entity.name}” is not in {names[doc]}: its passages in every document are shown."))
pages = max(1, -(-len(views) // PAGE))
at = st.number_input(f"Page (of {pages}; {len(views)} passages)", 1, pages, 1, key="review_page") if pages > 1 else 1
for view in views[(at - 1) * PAGE : at * PAGE]:
    show_passage(ws, g, view, entity)
if not views:
    st.info("No passage to review here: pick another document or entity, or turn off “Suggested fixes only”.")

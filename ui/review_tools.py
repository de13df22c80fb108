"""The Review page's tools beside the passages: entity operations (rename, merge with a picker, split an alias,
delete), the suggested fixes with their previews (one, or all of a kind after showing the count), undo and the log."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ui.review import run_edit
from ui.safe import md_escape
from vgrag import Workspace
from vgrag.editing.suggest import Suggestion
from vgrag.extraction.entities import graph_aliases
from vgrag.models import Entity


def entity_tools(ws: Workspace, graph, entity: Entity) -> None:
    """Rename, merge into another entity, split an alias off, delete."""
    name, g = entity.name, graph.name
    st.text(f"{name}: {len(entity.relation_ids)} relation(s), {len(entity.passage_ids)} passage(s)")
    c1, c2 = st.columns(2)
    new = c1.text_input("Rename to", key="ent_rename_to")
    if c1.button("Rename", key="ent_rename"):
        run_edit(lambda: ws.rename_entity(entity.id, new, graph=g), f"Renamed “{name}” to “{new}”.",
                 " ".join(new.split()))  # fmt: skip
    typed = c2.text_input("Merge into (search a name)", key="ent_merge_query")
    hits = [e for e, _ in ws.find_entities(typed, g, 10) if e.id != entity.id] if typed.strip() else []
    target = c2.selectbox("Merge into", hits, format_func=lambda e: e.name, key="ent_merge_pick", index=None,
                          placeholder="pick the entity to keep")  # fmt: skip
    if c2.button("Merge", key="ent_merge", disabled=target is None):
        run_edit(lambda: ws.merge_entities(entity.id, target.id, graph=g), f"Merged “{name}” into “{target.name}”.",
                 target.name)  # fmt: skip
    aliases = graph_aliases(graph).all().get(name, ())
    if aliases:
        alias = c1.selectbox("Alias", aliases, key="ent_alias")
        if c1.button("Split this alias off", key="ent_split"):
            run_edit(lambda: ws.split_alias(entity.id, alias, graph=g), f"“{alias}” is an entity of its own again.")
    sure = c2.checkbox("Yes, delete it with its relations", key="ent_delete_sure")
    if c2.button("Delete entity", key="ent_delete", disabled=not sure):
        run_edit(lambda: ws.delete_entity(entity.id, graph=g), f"Deleted “{name}”.")


def found_fixes(ws: Workspace, graph) -> list[Suggestion]:
    """The graph's suggested fixes, found again only when the graph changed (they scan the whole graph)."""
    version = (graph.name, len(ws.edits(graph.name)), tuple(sorted(graph.counts().items())))
    held = st.session_state.get("review_fixes_found")
    if held is None or held[0] != version:
        held = (version, ws.suggestions(graph.name))
        st.session_state["review_fixes_found"] = held
    return held[1]


def _apply(ws: Workspace, g: str, fixes: list[Suggestion]) -> None:
    done, skipped = 0, []
    for s in fixes:
        try:
            ws.apply_suggestion(s, graph=g)
            done += 1
        except ValueError as e:  # an earlier fix of the same batch changed its target
            skipped.append(f"{s.title}: {e}")
    for why in skipped:
        st.warning(md_escape(why))
    if not skipped:
        st.session_state["flash"] = f"Applied {done} fix(es)."
        st.rerun()


def suggestion_tools(ws: Workspace, g: str, found: list[Suggestion]) -> None:
    """Each suggestion with its preview and an Apply button; all of one kind after showing how many."""
    if not found:
        st.caption("No suggested fix here.")
        return
    kinds = sorted({s.kind for s in found})
    c1, c2 = st.columns([2, 3], vertical_alignment="bottom")
    kind = c1.selectbox("Kind", kinds, key="fix_kind")
    mine = [s for s in found if s.kind == kind]
    if c2.button(f"Apply all {len(mine)} “{kind}” fixes", key="fix_all"):
        _apply(ws, g, mine)
    for n, s in enumerate(found[:50]):
        with st.container(border=True):
            c_t, c_b = st.columns([6, 1], vertical_alignment="center")
            c_t.text(f"[{s.kind}] {s.title}")
            for line in s.preview:
                c_t.caption(md_escape(line))
            if c_b.button("Apply", key=f"fix_{n}_{s.key}"):
                _apply(ws, g, [s])


def log_tools(ws: Workspace, g: str) -> None:
    """Undo the last edit, and the log, latest first."""
    edits = ws.edits(g)
    if st.button("Undo the last edit", key="undo", icon=":material/undo:", disabled=not edits):
        run_edit(lambda: ws.undo(graph=g), "Undid the last edit.")
    rows = [{"#": e.seq, "when": e.when, "edit": e.op, "what": e.summary,
             "state": f"undone by #{e.undone_by}" if e.undone_by else e.status} for e in reversed(edits)]  # fmt: skip
    if rows:
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", key="edit_log")
    else:
        st.caption("No edits yet.")

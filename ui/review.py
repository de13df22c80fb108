"""The Review page's passages: each sentence with its names marked and the triples extracted from it beside it,
each triple with keep / delete / edit, and a triple added by hand from a chosen sentence. Document text is shown
literally (md_escape); every change goes through the Workspace's edit operations (vgrag/editing)."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from ui.safe import md_escape
from vgrag import Workspace
from vgrag.editing import EditError
from vgrag.editing.review import PassageView, SentenceView, focus_on
from vgrag.models import Entity, Relation

_COLOR = {"subject": "blue", "object": "orange"}


def sentence_markdown(s: SentenceView) -> str:
    """The sentence as Markdown: every part escaped, subject words in blue and object words in orange, bold."""
    return "".join(_styled(t, k) if k and t.strip() else md_escape(t) for t, k in s.parts)


def _styled(text: str, kind: str) -> str:
    """One marked part, bold in its colour; the spaces around it stay outside the style, so two marked names side by
    side ("Vellora" of a subject, " Appliances" of an object) keep the space between them."""
    core = text.strip()
    lead, trail = text[: len(text) - len(text.lstrip())], text[len(text.rstrip()) :]
    return f"{' ' if lead else ''}:{_COLOR[kind]}[**{md_escape(core)}**]{' ' if trail else ''}"


def run_edit(
    action: Callable[[], object],
    done: str,
    follow: str | None = None,
    then: Callable[[], tuple[str | None, str]] | None = None,
) -> None:
    """Do one edit; on success say so after the rerun, else show why (nothing was written). `follow`: the entity the
    page shows next (a rename's new name, a merge's kept entity), so it does not say the old name is gone; `then`,
    asked after the edit, gives that entity (or None) and a sentence to add, when only the graph can tell."""
    try:
        action()
    except EditError as e:
        st.error(md_escape(str(e)))
        return
    if then is not None:
        follow, more = then()
        done += more
    st.session_state["flash"] = md_escape(done)
    if follow is not None:
        st.session_state["review_entity_next"] = follow  # set before the Entity box is drawn on the next run
    st.rerun()


def _where_now(ws: Workspace, graph: str, focus: Entity | None, r: Relation, new: dict[str, str] | None):
    """After a triple naming the page's entity changed (`new`: the parts edited; None: deleted): the entity to show
    next and what to say. A triple that still names the entity (its ends swapped, its other end edited, its name
    only re-cased) moved nowhere: nothing to say (it said the entity's triple "now names" its new object, walk24).
    Its last triple gone, the page follows it to the name on its side (it said "No entity is named …" and showed
    the document from its top, walk21); still in other triples, it stays and offers the triple's new names."""
    side = next((k for k, i in (("subject", r.subject_id), ("object", r.object_id))
                 if focus is not None and i == focus.id), None)  # fmt: skip
    if side is None or focus is None:
        return None, ""
    if new is None:
        gone = ws.entity_named(focus.id, graph) is None
        return None, f" “{focus.name}” had no other triple, so it is gone too." if gone else ""
    ends = {k: new.get(k, getattr(r, k)) for k in ("subject", "object")}
    found = {k: ws.entity_named(v, graph) for k, v in ends.items()}
    if any(e is not None and e.id == focus.id for e in found.values()):
        return None, ""
    names = {k: e.name if e is not None else " ".join(ends[k].split()) for k, e in found.items()}
    other = "object" if side == "subject" else "subject"
    to = [names[side]] + ([names[other]] if other in new else [])  # its side's name first, the other if edited too
    if ws.entity_named(focus.id, graph) is None:
        return to[0], f" “{focus.name}” had no other triple: showing “{to[0]}”."
    st.session_state["review_moved"] = (focus.name, tuple(to))  # said on the page, with a button each (moved_note)
    return None, ""


def _triple(ws: Workspace, graph: str, pid: str, r: Relation, focus: Entity | None = None) -> None:
    """One triple with Keep, Edit and Delete. Text and buttons share a row that wraps: where the column is narrow
    (1280×720) the buttons go under the text whole, never cut to "✓ K" (walk21)."""
    key = f"{pid}_{r.id}"
    kept = r.id in st.session_state.setdefault("review_kept", set())
    row = st.container(horizontal=True, vertical_alignment="center", gap="small")
    row.text(("✓ " if kept else "") + f"{r.subject} | {r.predicate} | {r.object}", width="stretch")
    buttons = row.container(horizontal=True, width="content", wrap=False, gap="small")
    if buttons.button("Keep", icon=":material/check:", key=f"keep_{key}", help="Keep: the triple is right (marked ✓)"):
        st.session_state["review_kept"].add(r.id)
        st.rerun()
    was = f"{r.subject} | {r.predicate} | {r.object}"
    with buttons.popover("Edit", icon=":material/edit:", help="Edit the subject, relation or object"):
        s = st.text_input("Subject", r.subject, key=f"s_{key}")
        p = st.text_input("Relation", r.predicate, key=f"p_{key}")
        o = st.text_input("Object", r.object, key=f"o_{key}")
        if st.button("Save", key=f"save_{key}", type="primary"):
            new = {k: v for k, v, old in (("subject", s, r.subject), ("predicate", p, r.predicate),
                                          ("object", o, r.object)) if v != old}  # fmt: skip
            run_edit(lambda: ws.edit_relation(r.id, graph=graph, **new), f"Changed “{was}” to “{s} | {p} | {o}”.",
                     then=lambda: _where_now(ws, graph, focus, r, new))  # fmt: skip
    undo = "Delete this triple (undo brings it back)"
    if buttons.button("Delete", icon=":material/delete:", key=f"del_{key}", help=undo):
        run_edit(lambda: ws.delete_relation(r.id, graph=graph), f"Deleted “{was}”.",
                 then=lambda: _where_now(ws, graph, focus, r, None))  # fmt: skip


def _add(ws: Workspace, graph: str, view: PassageView) -> None:
    pid = view.passage.id
    with st.popover("Add a triple", icon=":material/add:"):
        texts = [s.text for s in view.sentences]
        n = st.selectbox("From the sentence", range(len(texts)), format_func=lambda i: texts[i][:90],
                         key=f"add_sent_{pid}")  # fmt: skip
        if n is not None:
            st.text(texts[n])
        c1, c2, c3 = st.columns(3)
        s = c1.text_input("Subject", key=f"add_s_{pid}")
        p = c2.text_input("Relation", key=f"add_p_{pid}")
        o = c3.text_input("Object", key=f"add_o_{pid}")
        if st.button("Add", key=f"add_{pid}", type="primary"):
            run_edit(lambda: ws.add_relation(pid, s, p, o, graph=graph), f"Added “{s} {p} {o}”.")


def show_passage(ws: Workspace, graph: str, view: PassageView, focus: Entity | None = None) -> None:
    """A passage's sentences, each with its triples; `focus`: the entity the page shows — its own triples first, the
    passage's other triples under their own label, folded (an edit follows the entity)."""
    st.subheader(md_escape(view.passage.title or "(untitled)"), divider="gray")
    if focus is None:
        _sentences(ws, graph, view, None)
    else:
        mine, rest = focus_on(view, focus.id)
        n, others = _count(mine), _count(rest)
        name = md_escape(focus.name)
        if n:
            st.markdown(f"**Triples naming “{name}” ({n})**")
            _sentences(ws, graph, mine, focus)
        else:
            st.caption(f"No triple of this passage names “{name}”.")
        with st.expander(f"Other triples of this passage ({others})", expanded=not n):
            _sentences(ws, graph, rest, focus, "no other triple from this sentence")
    _add(ws, graph, view)


def _count(view: PassageView) -> int:
    return sum(len(s.relations) for s in view.sentences) + len(view.unplaced)


def _sentences(ws: Workspace, graph: str, view: PassageView, focus: Entity | None, none: str = "") -> None:
    for s in view.sentences:
        left, right = st.columns([1, 1])
        left.markdown(sentence_markdown(s))
        with right:
            if not s.relations:  # its triples hidden ("Suggested fixes only"): say so, not that it has none (walk24)
                n = s.hidden
                st.caption(f"no suggested fix for this sentence's {n} triple{'s' if n > 1 else ''}" if n else
                           none or "no triple from this sentence")  # fmt: skip
            for r in s.relations:
                _triple(ws, graph, view.passage.id, r, focus)
    if view.unplaced:
        st.caption("Triples of this passage that no sentence writes a word of:")
        for r in view.unplaced:
            _triple(ws, graph, view.passage.id, r, focus)


def review_links(trace, graph: str) -> None:
    """Fix, then ask again: links from the answer's entities (the selected relations' ends) to their review."""
    selected = set(trace.rerank.selected) if trace.rerank else set()
    names = list(dict.fromkeys(x for r in trace.relations if r.id in selected for x in (r.subject, r.object)))[:8]
    if not names:
        return
    with st.expander("Fix the graph behind this answer"):
        st.caption("Review an entity of the selected relations (its passages and triples), then ask again.")
        for name in names:
            st.page_link("pages/review.py", label=md_escape(name), icon=":material/rate_review:",
                         query_params={"graph": graph, "entity": name})  # fmt: skip


def moved_note(entity: Entity | None) -> None:
    """Once, after an edit took the page's entity out of one of its triples: say which names the triple has now,
    with a button to each."""
    old, to = st.session_state.pop("review_moved", ("", ()))
    if not to or entity is None or entity.name != old:
        return
    names = " and ".join(f"“{n}”" for n in to)
    st.info(md_escape(f"The triple you edited now names {names}, not “{old}”."))
    for i, n in enumerate(to):
        st.button(md_escape(f"Show “{n}”"), key="review_show_moved" + (f"_{i}" if i else ""), on_click=_show, args=(n,))


def _show(name: str) -> None:
    st.session_state["review_entity"] = name  # a callback runs before the box is drawn: setting it is allowed

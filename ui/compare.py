"""The Ask page's comparison of two runs: pin the run on screen, change a knob or the method, Ask again — the page
then steps through both runs at once: each run's sentence, the graph with the difference coloured, and what each
step, the final passages and the evidence gained or lost (vgrag/present/compare.py computes it all)."""

from __future__ import annotations

import html

import pandas as pd
import streamlit as st

from ui.render import show_graph, show_table
from ui.safe import md_escape
from vgrag.present.compare import DIFF_ROLES, RunDiff, compare_runs, diff_graph, diff_layout, passages_table, run_label
from vgrag.present.explain import explain, steps_for
from vgrag.present.viz import ROLE_COLORS, ROLE_LABELS, VizGraph
from vgrag.query.trace import QueryTrace, Step


SHOWN = 12  # names listed per gained or lost set (the rest counted)


def pinned() -> QueryTrace | None:
    return st.session_state.get("pinned")


def comparing() -> tuple[QueryTrace, QueryTrace] | None:
    """(pinned run, run on screen) while a run is pinned and another run is on screen."""
    a, b = pinned(), st.session_state.get("trace")
    return (a, b) if a is not None and b is not None and a is not b else None


def _pin() -> None:
    if pinned() is None:
        st.session_state["pinned"] = st.session_state.get("trace")
    else:
        st.session_state.pop("pinned", None)
    st.session_state.pop("run_diff", None)


def pin_button(col: object) -> None:
    """ "Pin" keeps the run on screen (then change a knob or the method and Ask again to compare); "Unpin" while a
    run is pinned. Disabled before the first run."""
    on = pinned() is not None
    col.button(  # type: ignore[attr-defined]
        "Unpin" if on else "Pin",
        key="pin_btn",
        icon=":material/push_pin:",
        on_click=_pin,
        disabled="trace" not in st.session_state,
        width="stretch",
        help="Stop comparing: show the new run alone."
        if on
        else "Pin this run to compare: change a knob or the method and press Ask — both runs are then shown step "
        "by step, with what changed coloured.",
    )


def shown_steps(trace: QueryTrace) -> tuple[Step, ...]:
    """The steps of the run on screen, or of both runs while comparing (a run with Hops = 2 beside one with 1)."""
    pair = comparing()
    if pair is None:
        return steps_for(trace)
    ran = set(steps_for(pair[0])) | set(steps_for(pair[1]))
    return tuple(s for s in Step if s in ran)


def run_diff(a: QueryTrace, b: QueryTrace, cap: int | None = 60) -> tuple[RunDiff, dict]:
    """The comparison of the two runs, and the drawing's one layout at this node cap, each computed once per pair
    (every step reads them)."""
    key = (id(a), id(b))
    cached = st.session_state.get("run_diff")
    if cached is None or cached[0] != key:
        cached = (key, compare_runs(a, b), {})
        st.session_state["run_diff"] = cached
    if cap not in cached[2]:
        cached[2][cap] = diff_layout(a, b, cached[1], cap)
    return cached[1], cached[2][cap]


def legend_html(g: VizGraph) -> str:
    """The comparison's legend, larger than the step-through's: a class reads it from the back at 1280×720."""
    drawn = {n.role for n in g.nodes} | {e.role for e in g.edges}
    items = (
        f"<span style='white-space:nowrap;margin-right:18px;display:inline-block;font-size:1.05em;font-weight:600'>"
        f"<span style='color:{ROLE_COLORS[r]};font-size:1.3em'>●</span> {html.escape(ROLE_LABELS[r])}</span>"
        for r in ("path", *DIFF_ROLES, "context")  # the answer step draws its chain as the step-through does
        if r in drawn
    )
    hidden = f" <span style='color:#666'>{g.hidden_nodes} more hidden.</span>" if g.hidden_nodes else ""
    return " ".join(items) + hidden


def summary(a: QueryTrace, b: QueryTrace, step: Step) -> str:
    """The step's difference in one line (Markdown, escaped): the two runs, and what the new run gained and lost."""
    s = run_diff(a, b)[0].step(step)
    parts = [f"{sign}{len(ids)} {what}" for what, d in (("relations", s.relations), ("entities", s.entities))
             for sign, ids in (("+", d.gained), ("−", d.lost)) if ids]  # fmt: skip
    if not parts:  # the step did the same in both (evicted nothing, say): what stands after it may still differ
        standing = (("relations", s.subgraph_relations), ("entities", s.subgraph_entities))
        after = [f"{sign}{len(ids)} {what}" for what, d in standing for sign, ids in (("+", d.gained), ("−", d.lost))
                 if ids]  # fmt: skip
        parts = [f"this step did the same in both; after it {', '.join(after)}"] if after else []
    change = ", ".join(parts) if parts else "the same at this step"
    return md_escape(f"pinned run ({run_label(a, b)}) vs new run ({run_label(b, a)}): {change}")


def sentences(a: QueryTrace, b: QueryTrace, step: Step) -> None:
    """Each run's label and what the step did in it, side by side."""
    left, right = st.columns(2)
    for col, t, name, other in ((left, a, "Pinned run", b), (right, b, "New run", a)):
        with col.container(border=True):
            st.markdown(f"**{name}** · {md_escape(run_label(t, other))}")
            if t.question != other.question:  # the user's own text: shown as text, never as Markdown
                st.text(f"Question: {t.question}")
            st.markdown(md_escape(explain(t, step)) if step in steps_for(t) else "*(this run has no such step)*")


def comparison_graph(a: QueryTrace, b: QueryTrace, step: Step, g_legend: object, all_nodes: bool) -> None:
    cap = None if all_nodes else 60
    d, pos = run_diff(a, b, cap)
    g = diff_graph(a, b, d.step(step), cap, pos)
    g_legend.markdown(legend_html(g), unsafe_allow_html=True)  # type: ignore[attr-defined]  # fixed strings
    show_graph(g, view=f"compare · {step.label}", fill=True)


def _names(t: tuple[QueryTrace, QueryTrace], ids: tuple[str, ...], relations: bool) -> str:
    a, b = t
    if relations:
        views = [b.relation(i) or a.relation(i) for i in ids]
        return "; ".join(v.text if v else i for v, i in zip(views, ids, strict=True))
    return "; ".join(b.entity_name(i) if b.entity_name(i) != i else a.entity_name(i) for i in ids)


def details(a: QueryTrace, b: QueryTrace, step: Step) -> None:
    """The step's gained and lost entities and relations by name, the final passages and the evidence."""
    d = run_diff(a, b)[0]
    s = d.step(step)
    sentences(a, b, step)
    changed = (["the question"] if a.question != b.question else []) + [
        f"{k.name.replace('_', ' ')} {k.a} → {k.b}" for k in d.knobs
    ]
    if changed:
        st.caption("Changed: " + md_escape(", ".join(changed)))
    lines = []  # Markdown lines, not a table: a class reads names, and a step draws faster without a data grid
    for what, diff, rel in (("entities", s.entities, False), ("relations", s.relations, True)):
        for sign, ids in (("+", diff.gained), ("−", diff.lost)):
            if ids:
                shown = _names((a, b), ids[:SHOWN], rel) + (f"; … {len(ids) - SHOWN} more" if len(ids) > SHOWN else "")
                lines.append(f"- **{sign}{len(ids)} {what}**: {md_escape(shown)}")
    if lines:
        st.markdown("**This step in the new run, against the pinned run**\n" + "\n".join(lines))
    else:
        st.caption(f"{step.label}: both runs produced the same entities and relations at this step.")
    if step is Step.ANSWER:
        st.markdown("**Final passages** (rank in each run)")
        show_table(pd.DataFrame(passages_table(d)))
        ev = d.evidence
        rows = [{"evidence sentence": x, "status": st_} for st_, xs in
                (("gained", ev.gained), ("lost", ev.lost), ("kept", ev.kept)) for x in xs]  # fmt: skip
        if rows:
            st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
        st.text(f"Pinned run's answer: {d.answer_a}\nNew run's answer: {d.answer_b}")


def restore_pinned(run: object) -> None:
    """A comparison link (reload, shared): run the pinned run the URL names, once per session. `run(question,
    method, params)` returns its trace."""
    from ui.run_link import pinned_from_url

    found = pinned_from_url()
    if found is None or pinned() is not None or st.session_state.get("pin_restore_tried"):
        return
    st.session_state["pin_restore_tried"] = True
    st.session_state["pinned"] = run(*found)  # type: ignore[operator]

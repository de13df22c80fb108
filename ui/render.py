"""Rendering helpers shared by pages: graphs in an iframe, legends, trace-step tables."""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path

import pandas as pd
import streamlit as st
from streamlit.components.v1 import declare_component

from ui.safe import md_escape
from ui.state import STATIC, vis_assets_url
from vgrag.present.clip import clipped
from vgrag.present.drawing import FADED_TEXT, FIT_JS, VIS_CSS, VIS_JS, render_html, vis_asset, vis_data
from vgrag.present.viz import ROLE_COLORS, VizGraph, legend
from vgrag.query.trace import AnswerStep, Evidence, QueryTrace, Step
from vgrag.query.verdict import Verdict


def legend_html(g: VizGraph) -> str:
    """The legend of the roles drawn, as one line of our fixed strings (escaped), never wrapping mid-item."""
    roles = [r for r in ROLE_COLORS if r in {n.role for n in g.nodes} | {e.role for e in g.edges}]
    items = (
        f"<span style='white-space:nowrap;margin-right:14px;display:inline-block;font-size:0.9em'>"
        f"<span style='color:{c};font-size:1.2em'>●</span> {html.escape(m)}</span>"
        for _, c, m in legend(roles)
    )
    hidden = f"<span style='color:{FADED_TEXT}'>{g.hidden_nodes} more node(s) hidden by the node cap.</span>"
    return " ".join(items) + (" " + hidden if g.hidden_nodes else "")


GRAPH_DIR = STATIC / "graph"  # the drawing frame's page (ui/graph_frame.html), view.js and vis-network, at start


@st.cache_resource(show_spinner=False)
def _graph_frame_ready() -> bool:
    """Write the drawing frame's folder once per process; False if it cannot be written (then each drawing is a
    page of its own, vis-network inlined)."""
    files = {
        "index.html": (Path(__file__).parent / "graph_frame.html").read_text(encoding="utf-8"),
        "view.js": FIT_JS,
        VIS_JS: vis_asset(VIS_JS),
        VIS_CSS: vis_asset(VIS_CSS),
    }
    try:
        GRAPH_DIR.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            target = GRAPH_DIR / name
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                target.write_text(text, encoding="utf-8")
    except OSError:
        return False
    return True


def show_graph(g: VizGraph, height: int = 560, view: str = "", fill: bool = False, fill_min: int = 360) -> None:
    """The graph in a frame (`view` names what it shows, for tests) and its legend. With `fill`, the drawing fills
    whatever height the page's style gives the frame (see step_style) and the page draws the legend itself.
    The frame is a component that stays loaded from one run to the next: a step sends the new step's data to the
    same vis network (measured: the browser's part of a step ~140 → ~30 ms, docs/ui.md), rather than a new page
    that loads vis-network and builds the network again. A filling frame ends at the window's bottom, measured
    in the browser from where it starts (ui/graph_frame.html), and is never shorter than `fill_min` px."""
    if not g.nodes:
        st.info("Nothing to draw at this step.")
        return
    with st.container(key="graph_frame" if fill else None):
        if _graph_frame_ready():
            drawing = declare_component("graph", path=str(GRAPH_DIR))
            args = {"height": None if fill else height, "fit_min": fill_min if fill else 0}
            drawing(graph=vis_data(g, view) | args, key="graph_drawing", default=None)
        else:
            st.iframe(render_html(g, None if fill else height - 20, vis_assets_url(), view), height=height)
    if not fill:
        st.markdown(legend_html(g), unsafe_allow_html=True)


def step_style(present: bool) -> None:
    """The Ask page once a run exists: a compact header, and the graph frame as tall as the window leaves room for
    (the controls, the step's sentence and the graph fit on one 1280×720 screen). Presenting hides the sidebar,
    the header and the question row: the graph gets the full width."""
    above = 200 if present else 270  # px the window keeps above the frame (measured in Chromium, docs/ui.md)
    css = (  # 1.5rem at the sides, not 5rem, and half gaps between the rows above the graph: at 1280×720 the frame
        # grew from 820×408 to ~930×440 px — a third more of a large step's drawing in view at 12 px labels
        ".stMainBlockContainer{padding-top:2.25rem;padding-bottom:1rem;padding-left:1.5rem;padding-right:1.5rem}"
        ".stMainBlockContainer>[data-testid=stVerticalBlock],.st-key-answer_row{gap:0.5rem}"
        f".st-key-graph_frame iframe{{height:max(360px,calc(100vh - {above}px))!important}}"
        ".st-key-graph_frame div{height:auto!important}"  # the frame's wrapper kept st.iframe's height: overlap
    )
    if present:
        css += (
            "[data-testid=stSidebar],[data-testid=stSidebarCollapsedControl],header[data-testid=stHeader]"
            "{display:none}.stMainBlockContainer{padding-top:1rem;max-width:100%}"
            # the question row is drawn on every run (pages/ask.py); hidden with its wrapper, which keeps a gap
            ".st-key-question_row,[data-testid=stLayoutWrapper]:has(>.st-key-question_row){display:none}"
        )
    st.html(f"<style>{css}</style>")


def show_table(df: pd.DataFrame, max_rows: int = 12) -> None:
    """A table as tall as its rows (no empty grid rows), scrolling past `max_rows`, index hidden."""
    if df.empty:
        return
    st.dataframe(df, hide_index=True, width="stretch", height=38 + 35 * min(len(df), max_rows))


def step_table(trace: QueryTrace, step: Step) -> tuple[pd.DataFrame, float]:
    """The items of one step with scores, and the step's time in ms."""
    name = trace.entity_name
    rel = trace.relation
    if step is Step.QUERY_ENTITIES and trace.query_entities:
        q = trace.query_entities
        return pd.DataFrame(
            [
                {"text": e.text, "found by": e.method, "entity": name(e.entity_id) if e.entity_id else "—"}
                for e in q.entities
            ]
        ), q.ms
    if step is Step.SEEDS and trace.seeds:
        s = trace.seeds
        rows = [{"kind": "entity", "item": name(h.id), "score": h.score, "via": h.via} for h in s.entity_hits]
        rows += [
            {"kind": "relation", "item": rel(h.id).text if rel(h.id) else h.id, "score": h.score, "via": h.via}
            for h in s.relation_hits
        ]
        rows += [
            {
                "kind": "below threshold",
                "item": name(h.id) if h.id.startswith("ent-") else h.id,
                "score": h.score,
                "via": h.via,
            }
            for h in s.below_threshold
        ]
        return pd.DataFrame(rows), s.ms
    if step.hop_depth is not None:
        depth = step.hop_depth
        hop = next((h for h in trace.hops if h.depth == depth), None)
        if hop is None:
            return pd.DataFrame([{"note": f"no hop {depth} (hops = {trace.params.hops})"}]), 0.0
        rows = [
            {
                "new relation": rel(r).text if rel(r) else f"{r} (evicted later)",
                "similarity": rel(r).similarity if rel(r) else None,
            }
            for r in hop.new_relation_ids
        ]
        return pd.DataFrame(rows), hop.ms
    if step is Step.EVICTION and trace.eviction:
        e = trace.eviction
        return pd.DataFrame(
            [{"candidates before": e.before, "after": e.after, "cap": e.cap, "evicted": len(e.evicted)}]
        ), e.ms
    if step is Step.RERANK and trace.rerank:
        r = trace.rerank
        chosen = set(r.selected)
        rows = [
            {"relation": rel(c.id).text if rel(c.id) else c.id, "score": c.score, "selected": c.id in chosen}
            for c in r.candidates[:100]
        ]
        return pd.DataFrame(rows), r.ms
    if step is Step.ANSWER and trace.passages:
        titles = {p.id: p.title for p in trace.passages.passages}
        rows = [
            {
                "rank": n + 1,
                "title": p.title,
                "score": p.score,
                "found by": _found_by(p, titles),
                "via relations": len(p.relation_ids),
            }
            for n, p in enumerate(trace.passages.passages)
        ]
        return pd.DataFrame(rows), trace.passages.ms + (trace.answer.ms if trace.answer else 0.0)
    return pd.DataFrame(), 0.0


# --- the answer (issue #20): evidence first, then the short answer or why there is none ---------------------------

_MARK_STYLE = {"name": "background:#dbeafe", "answer": "background:#fde68a;font-weight:600"}
# who a "she" or "the company" is: the explorer's insertion, grey and italic, never shown as the document's words
REFERENT = ("<span class='referent' style='color:#6b7280;font-style:italic' title='Added by the explorer: who this "
            "word refers to, read from the sentences before it. Not in the document.'>{}</span>")


def _piece(text: str, kind: str) -> str:
    """One escaped piece of an evidence sentence: plain, marked, or the explorer's inserted name."""
    if kind == "referent":
        return REFERENT.format(html.escape(text))
    return f"<mark style='{_MARK_STYLE[kind]}'>{html.escape(text)}</mark>" if kind else html.escape(text)


def evidence_html(e: Evidence, clip: bool = False, keep: Sequence[str] = ()) -> str:
    """One evidence sentence as HTML: every piece of document text escaped, the question's names and the answer in
    <mark>, then its passage number. `clip`: a sentence over the answer step's budget (a table read as one sentence)
    keeps its marked pieces and the `keep` names, with a few words around each (vgrag/present/clip.py), the whole
    sentence on hover."""
    parts = e.parts()
    shown = clipped(e, keep) if clip else parts
    pieces = (_piece(text, kind) for text, kind in shown)
    hover = f" title='{html.escape(e.shown(), quote=True)}'" if shown != parts else ""
    return f"<p{hover}>{''.join(pieces)} <b>[{e.n}]</b> <small>{html.escape(e.title)}</small></p>"


_BADGE = {"found": "green", "partly": "orange", "missing": "red"}
_ICON = {"found": ":material/check_circle:", "partly": ":material/rule:", "missing": ":material/block:"}


def verdict_badge(v: Verdict) -> str:
    """The verdict's kind as a coloured Markdown badge of our own words."""
    who = " (the model's)" if v.by == "model" else ""
    return f":{_BADGE[v.kind]}-badge[{_ICON[v.kind]} {v.label.capitalize()}{who}]"


def verdict_markdown(v: Verdict) -> str:
    """The verdict as one Markdown line: its badge, then its sentence escaped."""
    return f"{verdict_badge(v)} {md_escape(v.said)}"


def show_offline_answer(a: AnswerStep) -> None:
    """The offline answer as the Ask page shows it: the verdict, the evidence sentences, and a short answer only
    when a reader gave one."""
    if a.verdict is not None:
        st.markdown(verdict_markdown(a.verdict))
    st.caption("Evidence (the sentences that best connect the question's names to what it asks; names in blue):")
    for e in a.evidence:
        st.html(evidence_html(e))
    if a.short:
        st.markdown(f"**Short answer:** {md_escape(a.short)} · confidence {a.confidence:.0%}")
        if a.how:
            st.caption(md_escape(f"Decided by: {a.how}."))


def _found_by(p, titles: dict[str, str]) -> str:  # noqa: ANN001 - a RankedPassage
    """How a passage of the answer step was found, in words (the evidence passage it came through, by its title)."""
    via = titles.get(p.named_by)
    if p.source == "named" and via is not None:
        return f"named in “{via}”"
    if p.source == "linked" and via is not None:
        return f"shares an entity with “{via}”"
    return p.source

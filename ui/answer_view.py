"""The answer step in view (issue #32): the verdict and the evidence sentences beside the graph in a short window
(above it in a tall one), so both and the whole graph fit a 1280×720 window (and Present); and the Ask page's document
filter (only / not these documents)."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from ui.render import evidence_html, verdict_badge
from vgrag.config import QueryParams
from vgrag.present.clip import bridge_names
from vgrag.query.trace import QueryTrace

ONLY, EXCLUDE = "only_docs", "exclude_docs"  # the filter's session keys
TALL_PX = 900  # a window at least this tall has the evidence above the graph; a shorter one has it beside the graph
# The answer step's part of the page (pages/ask.py: the answer_row container holds answer_side, the legend row and
# the graph frame, each in the wrapper Streamlit gives a keyed container). In a short window (1280×720, a projector)
# the rows become a grid: the legend across, then the graph (3/5 of the width, as tall as the window leaves) and the
# evidence panel beside it, which scrolls within the graph's height — under the evidence the graph's frame was
# 158 px high and showed 1 of its 4 nodes. In a tall window the evidence stays above the graph, scrolling past a
# third of the window's height.
ANSWER_CSS = (
    ".st-key-answer_side p{margin-bottom:0.15rem;font-size:0.92rem;line-height:1.45}"
    ".st-key-answer_side{border:1px solid rgba(49,51,63,0.2);border-radius:0.5rem;padding:0.4rem 0.75rem;"
    "overflow-y:auto;gap:0.4rem}"
    f"@media (min-height:{TALL_PX}px){{.st-key-answer_side{{max-height:33vh}}}}"
    f"@media (max-height:{TALL_PX - 0.02}px){{"
    ".st-key-answer_row{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);"
    'grid-template-areas:"legend legend" "graph side";gap:0.75rem 1rem;align-items:stretch}'
    ".st-key-answer_row>div:has(>.st-key-graph_legend){grid-area:legend}"
    ".st-key-answer_row>div:has(>.st-key-graph_frame){grid-area:graph}"
    ".st-key-answer_row>div:has(>.st-key-answer_side){grid-area:side;position:relative;min-height:0}"
    ".st-key-answer_side{position:absolute;inset:0}"  # as tall as the graph: its text adds no height to the row
    ".st-key-graph_frame iframe{display:block}}"  # inline, it left a line's descent below it: the panel ran 8 px lower
    # the cue under the evidence that is out of view ("▼ 2 more sentences below — scroll"), kept at the
    # panel's bottom edge while it scrolls; its text is set in the browser (ui/graph_frame.html: evidenceCue)
    ".st-key-answer_side>div:has(.vgrag-more){position:sticky;bottom:-0.4rem;"  # over the panel's bottom padding
    "margin-top:auto;z-index:2}"
    ".vgrag-more{background:#fff;color:#1f4e8c;font-weight:600;font-size:0.9rem;padding:0.2rem 0 0.1rem;"
    "padding-bottom:0.4rem;border-top:1px solid rgba(49,51,63,0.2)}"
)


def answer_summary(trace: QueryTrace) -> None:
    """On the answer step, beside the graph (or above it in a tall window, ANSWER_CSS): the verdict's badge (its
    sentence leads the step sentence above), then the evidence sentences (escaped, cited) — or the model's answer —
    in a panel that scrolls when they are longer than the graph is tall. The graph keeps the height every other step
    has (tests/test_browser_answer_fit.py, docs/ui.md)."""
    a = trace.answer
    if a is None:
        return
    keep = bridge_names(trace)
    unused = a.method == "extractive" and bool(a.error)  # an LLM was set up, but its answer fell back (pipeline.py)
    st.html(f"<style>{ANSWER_CSS}</style>")
    if unused:  # said beside the verdict, not only under the evidence and the graph (walk20 finding 7)
        st.warning(
            "The LLM was not used: its call failed, so this is the offline answer (cited evidence sentences and a "
            "verdict). Why it failed is said under the graph."
        )
    badge = verdict_badge(a.verdict) + " " if a.verdict is not None else ""
    st.markdown(badge + ("Evidence, cited to the listed passages:" if a.evidence else ""))
    if a.evidence:
        st.html("<div class='vgrag-evidence'>" + "".join(evidence_html(e, True, keep.get(i, ()))
                                                         for i, e in enumerate(a.evidence)) + "</div>")  # fmt: skip
        st.html(f"<div class='vgrag-more' role='status' data-n='{len(a.evidence)}'></div>")  # filled in the browser
    elif a.text:
        st.text(a.text[:600])


def document_filter(ws: object, graph: str) -> None:
    """Two multiselects, "Only these documents" and "Not these documents", over the graph's documents (by id,
    shown by name). Each is created with the value this session last used or its link names (run_link.seed_from_url:
    the popover draws its widgets only when opened, and a widget drawn then takes the value it was created with);
    their values reach the query through `scoped`, and the link through the run's params."""
    docs = ws.documents(graph)  # type: ignore[attr-defined]
    names = {d.id: d.name for d in docs}
    saved = st.session_state.setdefault("knobs_saved", {})
    for key, field, label, help_ in (
        (ONLY, "only_documents", "Only these documents", "Read only these documents' passages (empty: all)."),
        (EXCLUDE, "exclude_documents", "Not these documents",
         "Never read these documents' passages, nor relations only they support."),
    ):  # fmt: skip
        if any(x not in names for x in st.session_state.get(key, [])):  # a document deleted since it was picked
            del st.session_state[key]
        chosen = [x for x in saved.get(field, []) if x in names]
        saved[field] = st.multiselect(label, list(names), chosen, key=key, format_func=names.get, help=help_)


def scoped(p: QueryParams) -> QueryParams:
    """The knobs with the document filter the page's multiselects hold (else what this session last used)."""
    saved = st.session_state.get("knobs_saved", {})
    only = st.session_state.get(ONLY, saved.get("only_documents")) or []
    exclude = st.session_state.get(EXCLUDE, saved.get("exclude_documents")) or []
    return replace(p, only_documents=tuple(only), exclude_documents=tuple(exclude))

"""The answer step in view (issue #32): the verdict and the evidence sentences above the graph, so both fit a
1280×720 window (and Present) without scrolling; and the Ask page's document filter (only / not these documents)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import streamlit as st

from ui.render import evidence_html, verdict_badge
from vgrag.config import QueryParams
from vgrag.present.clip import bridge_names, clipped
from vgrag.query.trace import Evidence, QueryTrace

ONLY, EXCLUDE = "only_docs", "exclude_docs"  # the filter's session keys
LINE_PX = 22  # one line of an evidence paragraph (0.92 rem, line height 1.45, in Chromium with the app's theme)


def evidence_lines(evidence: Sequence[Evidence], per_line: int, keep: dict[int, tuple[str, ...]]) -> int:
    """How many lines the evidence sentences take as shown, clipped (each a paragraph: sentence, [n], title) at
    `per_line` characters a line (the main column at 1280 px wide holds ~128 at 0.92 rem, in Present ~174)."""
    shown = ((sum(len(t) for t, _ in clipped(e, keep.get(i, ()))), e) for i, e in enumerate(evidence))
    return sum(-(-(n + len(e.title) + 6) // per_line) for n, e in shown)


def answer_summary(trace: QueryTrace, present: bool = False) -> None:
    """On the answer step, above the graph: the verdict's badge (its sentence leads the step sentence above), then
    the evidence sentences (escaped, cited) — or the model's answer. The graph frame below (at least 160 px) is
    shortened by the evidence's lines (up to five sentences): on a 1280×720 window the evidence of MuSiQue's longest
    (18 lines) still ends in view, and up to ~8 lines the whole graph too (Chromium: tests/test_browser_verdict.py,
    docs/offline-answers.md)."""
    a = trace.answer
    if a is None:
        return
    keep = bridge_names(trace)
    unused = a.method == "extractive" and bool(a.error)  # an LLM was set up, but its answer fell back (pipeline.py)
    above = (316 if present else 398) + LINE_PX * evidence_lines(a.evidence, 174 if present else 128, keep)
    above += 64 if unused else 0
    st.html(
        f"<style>.st-key-graph_frame iframe{{height:max(160px,calc(100vh - {above}px))!important}}"
        ".st-key-answer_top p{margin-bottom:0.15rem;font-size:0.92rem;line-height:1.45}</style>"
    )
    if unused:  # said beside the verdict, not only under the evidence and the graph (walk20 finding 7)
        st.warning(
            "The LLM was not used: its call failed, so this is the offline answer (cited evidence sentences and a "
            "verdict). Why it failed is said under the graph."
        )
    badge = verdict_badge(a.verdict) + " " if a.verdict is not None else ""
    st.markdown(badge + ("Evidence, cited to the listed passages:" if a.evidence else ""))
    if a.evidence:
        st.html("".join(evidence_html(e, True, keep.get(i, ())) for i, e in enumerate(a.evidence)))
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

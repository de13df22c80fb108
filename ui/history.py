"""The session's recent runs and comparisons, newest first, each reopened by its URL (the same link a reload or a
colleague would open) — on the Ask page."""

from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from ui.run_link import open_run, run_url
from vgrag.present.compare import run_label
from vgrag.query.trace import QueryTrace, Step

KEEP = 12


def remember(graph: str, trace: QueryTrace, pinned: QueryTrace | None = None) -> None:
    """Add the run on screen (with its pinned run: a comparison) to the session's history, once."""
    url = run_url(graph, trace, Step.QUERY_ENTITIES, pinned)
    url.pop("step")
    if st.session_state.get("gold_sources"):
        url["gold"] = st.session_state["gold_sources"]
    label = trace.question + " · " + run_label(trace, pinned)
    if pinned is not None:
        label = f"Compare: {trace.question} · {run_label(pinned, trace)} vs {run_label(trace, pinned)}"
    history = st.session_state.setdefault("history", [])
    if history and history[-1][1] == url:
        return
    history[:] = [h for h in history if h[1] != url][-(KEEP - 1) :] + [(label, url)]


def history_panel() -> None:
    """The recent runs and comparisons: Open reopens one here; its link opens it anywhere."""
    history = st.session_state.get("history", [])
    with st.expander(f"History ({len(history)} run{'s' if len(history) != 1 else ''} this session)"):
        for n, (label, url) in enumerate(reversed(history)):
            c1, c2 = st.columns([5, 1], vertical_alignment="center")
            c1.text(label)
            c2.button("Open", key=f"history_{n}", on_click=open_run, args=(url,), width="stretch")
            st.code("?" + urlencode(url), language=None)

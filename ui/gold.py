"""Where the gold was lost, on the Ask page: the user names the passages (titles, document names or passage ids)
the answer should come from, and each step says how many of them the run still reaches; a table names the step
that dropped each one (vgrag/present/funnel.py)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ui.safe import md_escape
from vgrag.evaluation.funnel import resolve_sources
from vgrag.present.funnel import Funnel, evicted_relation_passages, funnel
from vgrag.query.trace import QueryTrace, Step
from vgrag.storage.store import Graph
from vgrag.workspace import Workspace


def gold_funnel(trace: QueryTrace, graph: Graph, ws: Workspace) -> tuple[Funnel | None, list[str]]:
    """The run's funnel for the sources the user marked (kept in the URL as `gold`), and the sources that name
    nothing in the graph; computed once per run and marking."""
    raw = st.session_state.get("gold_sources")
    if raw is None:
        raw = st.session_state["gold_sources"] = st.query_params.get("gold", "")
    if st.query_params.get("gold", "") != raw:  # kept in the URL with the run
        if raw:
            st.query_params["gold"] = raw
        else:
            del st.query_params["gold"]
    sources = [s.strip() for s in raw.split("|") if s.strip()]
    if not sources:
        return None, []
    key = (id(trace), raw)
    cached = st.session_state.get("gold_funnel")
    if cached is None or cached[0] != key:
        gold, missing = resolve_sources(graph, ws.documents(graph.name), sources)
        f = funnel(trace, gold, evicted_passages=evicted_relation_passages(trace, graph)) if gold else None
        cached = (key, f, missing)
        st.session_state["gold_funnel"] = cached
    return cached[1], cached[2]


def step_count(f: Funnel | None, step: Step) -> str:
    """ "Expected sources reached here: 2 of 3" for the step sentence ("" without marked sources)."""
    if f is None:
        return ""
    at = [s for s in f.stages if s.step is step]
    if not at:
        return ""
    names = " → ".join(f"{s.name} {s.count}" for s in at)
    return f" · Expected sources reached: {names} of {f.n_gold}"


def gold_panel(f: Funnel | None, missing: list[str]) -> None:
    """The marking (titles, documents or passage ids separated by |) and, once marked, the funnel and each
    source's fate."""
    with st.expander("Where was the expected source lost?", expanded=f is not None):
        st.text_input(
            "Expected sources (passage titles, document names or passage ids, separated by |)",
            key="gold_sources",
            help="Mark where the answer should come from: each step then says how many of them it still reaches, "
            "and the table names the step that dropped each one.",
        )
        if missing:
            st.warning(md_escape("Not in this graph: " + " | ".join(missing)))
        if f is None:
            return
        st.dataframe(
            pd.DataFrame([{"step": s.name, "expected sources reached": s.count, "of": f.n_gold} for s in f.stages]),
            hide_index=True,
            width="stretch",
        )
        rows = [{"source": x.label, "fate": f"retrieved at rank {x.rank}" if x.found else f"lost at {x.lost_at}"}
                for x in f.fates]  # fmt: skip
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")

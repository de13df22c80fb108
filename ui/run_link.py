"""The Ask page's run in the URL (st.query_params): question, retrieval knobs and step, beside the graph the router
keeps there — a reload, a copied link or a bookmark reopens the same run at the same step."""

from __future__ import annotations

import math
from dataclasses import dataclass

import streamlit as st

from vgrag.config import QueryParams
from vgrag.query.trace import QueryTrace, Step


@dataclass(frozen=True)
class Knob:
    """One retrieval knob: its widget key (also its URL parameter), its QueryParams field and its allowed values."""

    key: str
    field: str
    label: str
    lo: float = 0
    hi: float = 0
    choices: tuple = ()

    def parse(self, raw: str) -> object | None:
        """The URL's value as the widget's type, inside its bounds; None if it is not one or not finite (the default is
        used)."""
        if self.choices:
            return next((c for c in self.choices if str(c) == raw), None)
        try:
            v = float(raw) if isinstance(self.default, float) else int(raw)
        except ValueError:
            return None
        if not math.isfinite(v):  # nan slips through any clamp (every comparison with it is false)
            return None
        return min(max(v, type(v)(self.lo)), type(v)(self.hi))

    @property
    def default(self) -> object:
        return getattr(QueryParams(), self.field)


KNOBS = (
    Knob("k_ent", "entity_top_k", "Entity top-k", 0, 50),
    Knob("k_rel", "relation_top_k", "Relation top-k", 0, 100),
    Knob("thr", "sim_threshold", "Similarity threshold", 0.0, 1.0),
    Knob("hops", "hops", "Hops", choices=(1, 2)),
    Knob("cap", "eviction_cap", "Eviction cap", 10, 2000),
    Knob("rerank", "rerank", "Rerank", choices=("auto", "graph", "similarity", "llm")),
    Knob("keep", "rerank_keep", "Relations kept by rerank", 1, 200),
    Knob("k_psg", "passage_top_k", "Passages", 1, 20),
)


def seed_from_url() -> None:
    """Fill the question from the URL, and what each knob shows: the URL's value (a new session: reload or shared
    link), else what this session last used (Streamlit forgets a widget's value while another page is shown), else
    the default. The knobs are given these as their `value`, never through their session-state keys: the knobs
    sit in a popover the browser draws only when it is opened, and a widget drawn then takes the value it was
    created with — set through session state that was its minimum, so every knob showed and sent its minimum."""
    url, saved = st.query_params, st.session_state.setdefault("knobs_saved", {})
    for k in KNOBS:
        if k.key not in saved:
            parsed = k.parse(url[k.key]) if k.key in url else None
            saved[k.key] = parsed if parsed is not None else k.default
    if "question" not in st.session_state:
        st.session_state["question"] = url.get("q", "")


def knob_widgets() -> QueryParams:
    """The knobs in four columns, each created with the value seed_from_url chose (see there why)."""
    saved = st.session_state["knobs_saved"]
    cols = st.columns(4)
    values = {}
    for n, k in enumerate(KNOBS):
        c, v = cols[n % 4], saved[k.key]
        if k.key == "thr":
            values[k.field] = c.slider(k.label, 0.0, 1.0, float(v), step=0.05, key=k.key)
        elif k.key == "hops":
            values[k.field] = c.radio(k.label, k.choices, index=k.choices.index(v), horizontal=True, key=k.key)
        elif k.choices:
            values[k.field] = c.selectbox(k.label, k.choices, index=k.choices.index(v), key=k.key)
        else:
            values[k.field] = c.number_input(k.label, int(k.lo), int(k.hi), int(v), key=k.key)
    saved.update({k.key: values[k.field] for k in KNOBS})
    return QueryParams(**values)


def pending_restore(graph: str) -> bool:
    """True when this session has no run yet but its URL names one on this graph: re-run it (reload, shared link)."""
    url = st.query_params
    return (
        "trace" not in st.session_state
        and bool(url.get("q", "").strip())
        and url.get("graph", graph) == graph
        and not st.session_state.get("restore_tried")
    )


def url_step(steps: tuple[Step, ...]) -> Step:
    """The URL's step if this run has it, else the first."""
    return next((s for s in steps if s.label == st.query_params.get("step")), steps[0])


def write_url(graph: str, trace: QueryTrace, step: Step) -> None:
    """Keep the run on screen in the URL: graph, question, the knobs it ran with, and the step."""
    want = {"graph": graph, "q": trace.question, "step": step.label}
    want |= {k.key: str(getattr(trace.params, k.field)) for k in KNOBS}
    if any(st.query_params.get(k) != v for k, v in want.items()):
        st.query_params.update(want)

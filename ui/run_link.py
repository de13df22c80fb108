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


METHODS = ("graph", "naive", "hybrid")
PIN = "a_"  # the pinned run of a comparison lives in the URL under the same names with this prefix
# the document filter (Knobs: only / not these documents): QueryParams field → URL parameter (ids, comma-separated)
DOC_FILTER = {"only_documents": "only", "exclude_documents": "not"}


def _documents(raw: str | None) -> tuple[str, ...]:
    """A URL's document ids ("doc-…,doc-…"), in order, without blanks or repeats."""
    return tuple(dict.fromkeys(x.strip() for x in (raw or "").split(",") if x.strip()))


def _knob_values(url: dict, prefix: str = "") -> QueryParams:
    """The knobs a URL names (with `prefix`: the pinned run's), each parsed and bounded, else its default."""
    values = {}
    for k in KNOBS:
        parsed = k.parse(url[prefix + k.key]) if prefix + k.key in url else None
        values[k.field] = parsed if parsed is not None else k.default
    for field, name in DOC_FILTER.items():
        values[field] = _documents(url.get(prefix + name))
    return QueryParams(**values)


def _method(raw: str | None) -> str:
    return raw if raw in METHODS else "graph"


FORGET = ("trace", "naive", "pinned", "run_diff", "restore_tried", "pin_restore_tried", "knobs_saved", "question",
          "step", "step_pick", "method", "gold_sources", "gold_funnel", "only_docs", "exclude_docs", "reopen_with",
          *(k.key for k in KNOBS))  # fmt: skip


def open_run(url: dict[str, str]) -> None:
    """Make the Ask page reopen the run (or comparison) these URL parameters name, as a shared link would: the
    session forgets its run and its knobs, and the URL names the new one. From another page, the parameters are
    handed over in the session (a page switch starts without them) and applied by seed_from_url."""
    for key in FORGET:
        st.session_state.pop(key, None)
    st.query_params.clear()
    st.query_params.update(url)


def seed_from_url() -> None:
    """Fill the question from the URL, and what each knob shows: the URL's value (a new session: reload or shared
    link), else what this session last used (Streamlit forgets a widget's value while another page is shown), else
    the default. The knobs are given these as their `value`, never through their session-state keys: the knobs
    sit in a popover the browser draws only when it is opened, and a widget drawn then takes the value it was
    created with — set through session state that was its minimum, so every knob showed and sent its minimum."""
    handed = st.session_state.pop("open_run", None)
    if handed:  # another page (Evaluate's drill-down) asked to open this run
        open_run(handed)
    url, saved = st.query_params, st.session_state.setdefault("knobs_saved", {})
    for k in KNOBS:
        if k.key not in saved:
            parsed = k.parse(url[k.key]) if k.key in url else None
            saved[k.key] = parsed if parsed is not None else k.default
    if "method" not in saved:
        saved["method"] = _method(url.get("method"))
    for field, name in DOC_FILTER.items():  # given to the filter's widgets as their default (answer_view)
        if field not in saved:
            saved[field] = list(_documents(url.get(name)))
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
    saved["method"] = cols[0].selectbox(
        "Method",
        METHODS,
        index=METHODS.index(saved.get("method", "graph")),
        key="method",
        help="graph: this app's pipeline; naive: dense passage search alone; hybrid: dense + BM25 words fused.",
    )
    return QueryParams(**values)


def chosen_method() -> str:
    """The method the knobs show now (graph, naive or hybrid)."""
    return st.session_state.get("knobs_saved", {}).get("method", "graph")


def stale_knobs(trace: QueryTrace) -> list[str]:
    """The knobs (and method) that now show another value than the run on screen used: that run is stale until
    it is run again."""
    saved = st.session_state.get("knobs_saved", {})
    out = [
        f"{k.label} {getattr(trace.params, k.field)} → {saved[k.key]}"
        for k in KNOBS
        if k.key in saved and saved[k.key] != getattr(trace.params, k.field)
    ]
    if saved.get("method", trace.method) != trace.method:
        out.append(f"Method {trace.method} → {saved['method']}")
    for field, label in (("only_documents", "Only these documents"), ("exclude_documents", "Not these documents")):
        if field in saved and tuple(saved[field]) != getattr(trace.params, field):
            out.append(f"{label} changed")
    return out


def run_params(trace: QueryTrace, prefix: str = "") -> dict[str, str]:
    """A run as URL parameters: question, method, knobs and document filter (with `prefix`, the pinned run's)."""
    want = {prefix + "q": trace.question, prefix + "method": trace.method}
    want |= {prefix + k.key: str(getattr(trace.params, k.field)) for k in KNOBS}
    docs = {name: ",".join(getattr(trace.params, field)) for field, name in DOC_FILTER.items()}
    return want | {prefix + name: ids for name, ids in docs.items() if ids}


def pinned_from_url() -> tuple[str, str, QueryParams] | None:
    """The pinned run a comparison link names: (question, method, knobs); None without one."""
    url = {k: st.query_params.get(k) for k in st.query_params}
    q = (url.get(PIN + "q") or "").strip()
    return (q, _method(url.get(PIN + "method")), _knob_values(url, PIN)) if q else None


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


def run_url(graph: str, trace: QueryTrace, step: Step, pinned: QueryTrace | None = None) -> dict[str, str]:
    """The URL parameters of the run on screen (and of the run pinned beside it): graph, question, method, the
    knobs each ran with, and the step."""
    want = {"graph": graph, "step": step.label} | run_params(trace)
    return want | (run_params(pinned, PIN) if pinned is not None else {})


def write_url(graph: str, trace: QueryTrace, step: Step, pinned: QueryTrace | None = None) -> None:
    """Keep the run on screen in the URL: graph, question, method, the knobs it ran with, the step, and the pinned
    run of a comparison (a reload or a shared link reopens both at the same step)."""
    want = run_url(graph, trace, step, pinned)
    filters = set(DOC_FILTER.values())
    gone = [k for k in st.query_params if (k.startswith(PIN) or k in filters) and k not in want]
    for k in gone:
        del st.query_params[k]
    if any(st.query_params.get(k) != v for k, v in want.items()):
        st.query_params.update(want)

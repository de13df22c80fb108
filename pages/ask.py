"""Ask: a question, the retrieval knobs, and a step-through of the query on an interactive graph."""

import streamlit as st

from ui.router import ensure_router
from ui.panels import answer_panel, export_panel, llm_calls_panel, naive_panel, why_missed_panel
from ui.render import show_graph, show_table, step_table
from ui.safe import md_escape
from ui.state import DEMO_GRAPH, demo_questions, require_graph, settings
from vgrag.config import QueryParams
from vgrag.explain import HOW_IT_WORKS, explain
from vgrag.trace import Step
from vgrag.viz import STEPS, trace_graph

ensure_router()

st.title("Ask")
ws, graph = require_graph()
s = settings()

examples = demo_questions() if graph.name == DEMO_GRAPH else []


def _use_example() -> None:
    if st.session_state.get("example", "—") != "—":
        st.session_state["question"] = st.session_state["example"]


q_col, ask_col = st.columns([9, 1], vertical_alignment="bottom")
question = q_col.text_input("Question", key="question", placeholder="Ask something the graph may know…")
asked = ask_col.button("Ask", type="primary", key="ask", width="stretch")
ex_col, how, knobs = st.columns([3, 1, 2]) if examples else (None, *st.columns([1, 2]))
if ex_col is not None:
    ex_col.selectbox("Example questions", ["—"] + examples, key="example", on_change=_use_example)
with how.expander("How this works"):
    st.markdown(HOW_IT_WORKS)
with knobs.expander("Retrieval knobs"):
    c1, c2, c3, c4 = st.columns(4)
    d = QueryParams()
    p = QueryParams(
        entity_top_k=c1.number_input("Entity top-k", 0, 50, d.entity_top_k, key="k_ent"),
        relation_top_k=c2.number_input("Relation top-k", 0, 100, d.relation_top_k, key="k_rel"),
        sim_threshold=c3.slider("Similarity threshold", 0.0, 1.0, d.sim_threshold, 0.05, key="thr"),
        hops=c4.radio("Hops", [1, 2], index=d.hops - 1, horizontal=True, key="hops"),
        eviction_cap=c1.number_input("Eviction cap", 10, 2000, d.eviction_cap, key="cap"),
        rerank=c2.selectbox("Rerank", ["auto", "graph", "similarity", "llm"], key="rerank"),
        rerank_keep=c3.number_input("Relations kept by rerank", 1, 200, d.rerank_keep, key="keep"),
        passage_top_k=c4.number_input("Passages", 1, 20, d.passage_top_k, key="k_psg"),
    )

pending = st.session_state.pop("pending", None)
if pending is not None:  # the last run was interrupted while the answer streamed (Stop, or any other click)
    partial = "".join(st.session_state.pop("streamed", []))
    st.session_state["trace"] = ws.stopped_answer(pending, partial, graph.name)
    st.session_state["step"] = STEPS[0]

if asked and question.strip():
    llm = None
    if s.llm.enabled:
        live, streamed = st.empty(), st.session_state.setdefault("streamed", [])
        streamed.clear()

        def show_piece(piece: str) -> None:
            streamed.append(piece)
            live.markdown("**Answer (streaming)**  \n" + md_escape("".join(streamed)))

        llm = ws.query_llm(on_delta=show_piece, settings=s)
    try:
        trace = ws.retrieve(question, graph.name, p, llm=llm)
        st.session_state["naive"] = ws.query(question, graph.name, p, method="naive", use_llm=False)
        if llm is not None:
            st.session_state["pending"] = trace  # kept if the stream is interrupted
            st.button("■ Stop the answer", key="stop_answer", help="Keeps what has arrived so far.")
        st.session_state["trace"] = ws.answer(trace, graph.name, llm)
        st.session_state.pop("pending", None)
        st.session_state["step"] = STEPS[0]
        st.rerun()  # draw the step-through without the streaming widgets
    except Exception as e:  # noqa: BLE001 - show the failure, keep the page alive
        st.session_state.pop("pending", None)
        st.error(md_escape(f"The query failed: {e}"))

trace = st.session_state.get("trace")
if trace is None:
    st.stop()

step = st.session_state.get("step", STEPS[0])
b1, b2, b3 = st.columns([1, 6, 1])
if b1.button("◀ Previous", key="prev", disabled=step == STEPS[0]):
    st.session_state["step"] = STEPS[step.index - 1]
    st.rerun()
if b3.button("Next ▶", key="next", disabled=step == STEPS[-1]):
    st.session_state["step"] = STEPS[step.index + 1]
    st.rerun()
b2.progress((step.index + 1) / len(STEPS), text=f"Step {step.index + 1}/{len(STEPS)}: {step.label}")

st.markdown(md_escape(explain(trace, step)))
show_all = st.checkbox("Show all nodes", key="all_nodes")
show_graph(trace_graph(trace, step, None if show_all else 60), view=f"{trace.question} · {step.label}")
table, ms = step_table(trace, step)
st.caption(f"{step.label}: {ms:.1f} ms")
show_table(table)

if step is Step.ANSWER:
    answer_panel(trace)
llm_calls_panel(trace)
naive_panel(trace, st.session_state["naive"])
why_missed_panel(trace, graph, ws)
export_panel(trace)

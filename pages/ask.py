"""Ask: a question, the retrieval knobs, and a step-through of the query on an interactive graph."""

import streamlit as st

from ui.router import ensure_router
from ui.render import show_graph, step_table
from ui.state import DEMO_GRAPH, current_graph, demo_questions, no_graph_hint, settings, workspace
from vgrag.config import QueryParams
from vgrag.diagnose import explain_passage
from vgrag.pipeline import run_query
from vgrag.viz import STEPS, replay_html, trace_graph

ensure_router()

st.title("Ask")
ws = workspace()
if ws is None:
    st.stop()
graph = current_graph(ws)
if graph is None:
    no_graph_hint(ws)
    st.stop()
s = settings()

examples = demo_questions() if graph.name == DEMO_GRAPH else []
if examples:
    pick = st.selectbox("Example questions", ["—"] + examples, key="example")
    if pick != "—" and st.session_state.get("last_example") != pick:
        st.session_state["question"], st.session_state["last_example"] = pick, pick
question = st.text_input("Question", key="question")

with st.expander("Retrieval knobs"):
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
        passage_top_k=c4.number_input("Passages", 1, 20, d.passage_top_k, key="k_psg"))

if st.button("Ask", type="primary", key="ask") and question.strip():
    hooks = {}
    if s.llm.enabled:
        from vgrag.llm_query import query_hooks

        live, streamed = st.empty(), []

        def show_piece(piece: str) -> None:
            streamed.append(piece)
            live.markdown("**Answer (streaming)**  \n" + "".join(streamed))

        hooks = query_hooks(s.llm, s.cache_dir, on_delta=show_piece)
    try:
        st.session_state["trace"] = run_query(question, graph, ws.embedder, p, **hooks)
        st.session_state["naive"] = run_query(question, graph, ws.embedder, p, method="naive")
        st.session_state["step"] = STEPS[0]
    except Exception as e:  # noqa: BLE001 - show the failure, keep the page alive
        st.error(f"The query failed: {e}")

trace = st.session_state.get("trace")
if trace is None:
    st.stop()

step = st.session_state.get("step", STEPS[0])
b1, b2, b3 = st.columns([1, 6, 1])
if b1.button("◀ Previous", key="prev", disabled=step == STEPS[0]):
    st.session_state["step"] = STEPS[STEPS.index(step) - 1]
    st.rerun()
if b3.button("Next ▶", key="next", disabled=step == STEPS[-1]):
    st.session_state["step"] = STEPS[STEPS.index(step) + 1]
    st.rerun()
b2.progress((STEPS.index(step) + 1) / len(STEPS), text=f"Step {STEPS.index(step) + 1}/{len(STEPS)}: {step}")

left, right = st.columns([3, 2])
with left:
    show_all = st.checkbox("Show all nodes", key="all_nodes")
    show_graph(trace_graph(trace, step, None if show_all else 60))
with right:
    table, ms = step_table(trace, step)
    st.caption(f"{step}: {ms:.1f} ms")
    st.dataframe(table, width="stretch", height=440)

if step == "answer":
    st.subheader("Answer" + (" (LLM)" if trace.answer.method == "llm" else " (extractive, offline)"))
    st.write(trace.answer.text)
    if trace.answer.error:
        st.warning(trace.answer.error)
    for c in trace.answer.citations:
        with st.expander(f"[{c.n}] {c.title}"):
            st.text(c.text)
    st.subheader("Reasoning paths")
    for path in trace.answer.paths:
        st.write(" → ".join(trace.relation(r).text for r in path if trace.relation(r)))
if trace.rerank and trace.rerank.error:
    st.warning(f"Rerank: {trace.rerank.error}")
if trace.llm_calls:
    with st.expander(f"LLM calls ({len(trace.llm_calls)})"):
        for c in trace.llm_calls:
            st.write(f"**{c.role}** · {c.model} · {c.prompt_tokens} + {c.completion_tokens} tokens · "
                     f"{c.latency_ms:.0f} ms" + (f" · ⚠ {c.error}" if c.error else ""))
            st.text_area("Prompt", c.prompt, height=120, key=f"prompt_{c.role}", disabled=True)
            st.text_area("Raw response", c.raw_response, height=80, key=f"raw_{c.role}", disabled=True)

naive = st.session_state.get("naive")
with st.expander("Naive dense retrieval, side by side"):
    g_ids, n_ids = trace.passage_ids(), naive.passage_ids()
    st.caption(f"Overlap: {len(set(g_ids) & set(n_ids))} of {len(g_ids)} passages")
    c1, c2 = st.columns(2)
    c1.write("**Graph**")
    c2.write("**Naive**")
    for p_ in trace.passages.passages:
        c1.write(("✓ " if p_.id in n_ids else "＋ ") + p_.title)
    for p_ in naive.passages.passages:
        c2.write(("✓ " if p_.id in g_ids else "− ") + p_.title)

@st.cache_data(max_entries=4, show_spinner=False)
def passage_choices(uri: str, name: str, counts: tuple) -> list:
    return list(graph.iter_passages()) if dict(counts)["passages"] <= 3000 else []


with st.expander("Why was this missed?"):
    pool = passage_choices(s.milvus_uri, graph.name, tuple(sorted(graph.counts().items())))
    if pool:
        chosen = st.selectbox("Passage", pool, format_func=lambda x: f"{x.title}: {x.text[:70]}", key="miss_pick")
        d_ = explain_passage(trace, graph, chosen.id)
        st.info(f"**{d_.step}** — {d_.detail}")
    else:
        st.caption("Too many passages to list; use the trace export.")

with st.expander("Export this run"):
    st.download_button("Trace (JSON)", trace.to_json(), file_name="trace.json", mime="application/json", key="dl_json")
    if st.button("Prepare the replay page", key="prep_replay"):
        st.session_state["replay"] = (trace.question, replay_html(trace))
    if st.session_state.get("replay", ("",))[0] == trace.question:
        st.download_button("Replay (standalone HTML)", st.session_state["replay"][1], file_name="replay.html",
                           mime="text/html", key="dl_html")

"""The Ask page's panels below the step-through: answer, LLM calls, naive comparison, why-missed, export."""

from __future__ import annotations

import streamlit as st

from ui.render import show_offline_answer
from ui.safe import md_escape
from vgrag.present.diagnose import explain_entity, explain_passage
from vgrag.present.replay import replay_html
from vgrag.query.trace import QueryTrace, RankedPassage
from vgrag.storage.store import Graph
from vgrag.workspace import Workspace


def answer_panel(trace: QueryTrace) -> None:
    st.subheader("Answer" + (" (LLM)" if trace.answer.method == "llm" else " (extractive, offline)"))
    a = trace.answer
    box = st.container(key="answer_text")
    if a.method == "extractive" and a.evidence:
        with box:
            show_offline_answer(a)
    else:
        box.markdown(md_escape(a.text))
    if trace.answer.error:
        st.warning(md_escape(trace.answer.error))
    for c in trace.answer.citations:
        with st.expander(md_escape(f"[{c.n}] {c.title}")):
            st.text(c.text)
    st.subheader("Reasoning paths")
    for path in trace.answer.paths:
        st.markdown(md_escape(" → ".join(trace.relation(r).text for r in path if trace.relation(r))))


def llm_calls_panel(trace: QueryTrace) -> None:
    if trace.rerank and trace.rerank.error:
        st.warning(md_escape(f"Rerank: {trace.rerank.error}"))
    if not trace.llm_calls:
        return
    with st.expander(f"LLM calls ({len(trace.llm_calls)})"):
        for c in trace.llm_calls:
            head = (
                f"{c.role} · {c.model} · {c.prompt_tokens} + {c.completion_tokens} tokens "
                f"(cap {c.max_tokens}) · {c.latency_ms:.0f} ms" + (" · cached" if c.cached else "")
            )
            st.markdown(md_escape(head))
            if c.error:
                st.warning(md_escape(c.error))
            if c.attempts:
                st.caption(md_escape("Tried: " + "; ".join(c.attempts)))
            # read-only code blocks, not keyed text areas: Streamlit knows a keyed widget by its key alone and kept
            # the first run's prompt on screen after the next Ask; a code block shows its text literally (no Markdown)
            st.caption("Prompt")
            st.code(c.prompt, language=None, wrap_lines=True, height=160)
            st.caption("Raw response")
            st.code(c.raw_response, language=None, wrap_lines=True)  # short: capped by max_tokens


def naive_panel(trace: QueryTrace, naive: QueryTrace) -> None:
    with st.expander("Naive dense retrieval, side by side"):
        g_ids, n_ids = trace.passage_ids(), naive.passage_ids()
        st.caption(f"Overlap: {len(set(g_ids) & set(n_ids))} of {len(g_ids)} passages")
        c1, c2 = st.columns(2)
        c1.write("**Graph**")
        c2.write("**Naive**")
        both = [*trace.passages.passages, *naive.passages.passages]
        for p in trace.passages.passages:
            c1.markdown(md_escape(("✓ " if p.id in n_ids else "＋ ") + passage_label(p, both)))
        for p in naive.passages.passages:
            c2.markdown(md_escape(("✓ " if p.id in g_ids else "− ") + passage_label(p, both)))


def passage_label(p: RankedPassage, listed: list[RankedPassage]) -> str:
    """A passage's title, with its first words when another passage listed has the same title (two chunks of one
    section: "✓ The letter" beside "＋ The letter" could not say which was found)."""
    twins = {q.id for q in listed if q.title == p.title}
    return p.title if len(twins) < 2 else f"{p.title}: “{' '.join(p.text.split()[:8])}…”"


@st.cache_data(max_entries=4, ttl=60, show_spinner=False)
def _counts(_graph: Graph, uri: str, name: str) -> dict[str, int]:
    """The graph's row counts, at most a minute old: counting scans every row in Milvus Lite 3.x, on every step."""
    return _graph.counts()


@st.cache_data(max_entries=4, show_spinner=False)
def _all_passages(_graph: Graph, uri: str, name: str, counts: tuple) -> list:
    return list(_graph.iter_passages())


def missed_first(found: list[str], naive: list, pool: list) -> list:
    """`pool` with the passages plain vector search found (`naive`, in its order) and the graph did not (`found`)
    first."""
    first = [p for p in naive if p.id not in set(found)]
    ids = {p.id for p in first}
    return first + [p for p in pool if p.id not in ids]


def why_missed_panel(trace: QueryTrace, graph: Graph, ws: Workspace, naive: QueryTrace | None = None) -> None:
    """Look up why a passage or an entity is not in the answer. The passages listed first are those plain vector
    search found and the graph did not — the likeliest to be asked about — not the graph's first passage."""
    with st.expander("Why was this missed?"):
        kind = st.radio("Look up", ["passage", "entity"], horizontal=True, key="miss_kind")
        d = None
        if kind == "passage":
            counts = _counts(graph, ws.settings.milvus_uri, graph.name)
            pool = (
                _all_passages(graph, ws.settings.milvus_uri, graph.name, tuple(sorted(counts.items())))
                if counts["passages"] <= 3000
                else list(trace.passages.passages)
            )
            if naive is not None:
                pool = missed_first(trace.passage_ids(), list(naive.passages.passages), pool)
            chosen = st.selectbox("Passage", pool, format_func=lambda x: f"{x.title}: {x.text[:70]}", key="miss_pick")
            d = explain_passage(trace, graph, chosen.id) if chosen else None
        else:
            name = st.text_input("Entity name", key="miss_entity")
            hits = ws.find_entities(name, graph.name, 1) if name.strip() else []
            if hits:
                st.caption(md_escape(f"Closest entity: {hits[0][0].name}"))
                d = explain_entity(trace, graph, hits[0][0].id)
        if d is not None:
            st.info(f"**{md_escape(d.step)}** — {md_escape(d.detail)}")


def export_panel(trace: QueryTrace) -> None:
    with st.expander("Export this run"):
        st.download_button(  # written when clicked: serialising the trace on every step cost ~7 ms of each
            "Trace (JSON)", trace.to_json, file_name="trace.json", mime="application/json", key="dl_json"
        )
        if st.button("Prepare the replay page", key="prep_replay"):
            st.session_state["replay"] = (trace.question, replay_html(trace))
        if st.session_state.get("replay", ("",))[0] == trace.question:
            st.download_button(
                "Replay (standalone HTML)",
                st.session_state["replay"][1],
                file_name="replay.html",
                mime="text/html",
                key="dl_html",
            )

"""Ask: a question, the retrieval knobs, and a step-through of the query on an interactive graph. The run (graph,
question, knobs, step) lives in the URL: a reload or a shared link reopens it at the same step."""

import streamlit as st

from ui.answer_view import answer_summary, document_filter, scoped
from ui.compare import comparing, comparison_graph, details, pin_button, pinned, restore_pinned, shown_steps, summary
from ui.gold import gold_funnel, gold_panel, step_count
from ui.history import history_panel, remember
from ui.panels import answer_panel, export_panel, llm_calls_panel, naive_panel, why_missed_panel
from ui.question import whole_question
from ui.render import legend_html, show_graph, show_table, step_style, step_table
from ui.reopen import reopen_with_model, replayed, run_key, run_store
from ui.review import review_links
from ui.router import ensure_router
from ui.run_link import (
    KNOBS,
    chosen_method,
    knob_widgets,
    pending_restore,
    pinned_from_url,
    seed_from_url,
    stale_knobs,
    url_step,
    write_url,
)
from ui.safe import md_escape
from ui.state import DEMO_GRAPH, demo_questions, require_graph, settings
from vgrag.config import QueryParams
from vgrag.present.explain import explain, how_it_works, is_noop
from vgrag.present.viz import trace_graph
from vgrag.query.trace import QueryTrace, Step

ensure_router()
ws, graph = require_graph()
s = settings()
seed_from_url()
examples = demo_questions() if graph.name == DEMO_GRAPH else []
here = (s.milvus_uri, graph.name)  # the graph a run is kept under (ui/reopen.py)


def run(question: str, p: QueryParams, llm: object | None) -> tuple[QueryTrace, QueryTrace]:
    """The query with its answer (the one place the page calls the pipeline), and naive retrieval beside it; the
    page keeps neither until both exist (a failed answer step leaves the previous run whole)."""
    trace = ws.retrieve(question, graph.name, p, method=chosen_method(), llm=llm)  # type: ignore[arg-type]
    naive = ws.query(question, graph.name, p, method="naive", use_llm=False)
    if llm is not None:
        st.session_state["pending"] = (trace, naive)  # kept if the stream is interrupted
        st.button("■ Stop the answer", key="stop_answer", help="Keeps what has arrived so far.")
    return ws.answer(trace, graph.name, llm), naive


def _use_example() -> None:
    if st.session_state.get("example", "—") != "—":
        st.session_state["question"] = st.session_state["example"]


def _ask() -> None:  # Ask without an LLM: the query runs before the page is drawn, which draws the step-through in
    # its compact layout at once (it ran the query mid-page, then ran the page again: ~2 runs per Ask)
    question = st.session_state.get("question", "")
    if s.llm.enabled or not question.strip():
        return  # streamed into the page below, or the page says to type a question
    try:
        trace, naive = run(question, scoped(QueryParams(**{k.field: st.session_state[k.key] for k in KNOBS})), None)
    except Exception as e:  # noqa: BLE001 - shown by the question row
        st.session_state["ask_failed"] = f"The query failed: {e}"
        return
    st.session_state["restore_tried"] = True
    _start(trace, naive, "query entities")


def _go(delta: int) -> None:  # Previous / Next (and ← / →): before the run, so the page draws the new step at once
    steps = shown_steps(st.session_state["trace"])
    now = next((i for i, x in enumerate(steps) if x.label == st.session_state.get("step")), 0)
    st.session_state["step"] = st.session_state["step_pick"] = steps[max(0, min(len(steps) - 1, now + delta))].label


def _flip_present() -> None:
    st.session_state["present"] = not st.session_state.get("present", False)


def _picked() -> None:  # a click on the selected step unselects it: keep the step
    st.session_state["step"] = st.session_state["step_pick"] = st.session_state["step_pick"] or st.session_state["step"]


def _start(trace: QueryTrace, naive: QueryTrace, step_label: str) -> None:
    st.session_state.update(trace=trace, naive=naive, trace_graph=graph.name, step=step_label, step_pick=step_label)
    run_store().put(here, trace, naive)  # a reload or a shared link replays it (ui/reopen.py)


def _pinned(question: str, method: str, kp: QueryParams, use_llm: bool, main: tuple) -> QueryTrace:
    """A comparison link's pinned run: the kept one (the earlier of two with the run on screen's knobs), else run
    again."""
    key = run_key(here, question, method, kp)
    kept = run_store().get(key, earlier=key == main)
    if kept:
        return kept[0]
    llm = ws.query_llm(settings=s) if use_llm else None  # this session's model: at most two calls
    return ws.answer(ws.retrieve(question, graph.name, kp, method=method, llm=llm), graph.name, llm)  # type: ignore


def question_row() -> None:
    """The question, Ask, the example questions and the knobs; runs the query when asked (or when the URL names
    a run this session lacks)."""
    q_col, ask_col, ex_col, knobs, pin_col = st.columns([4.4, 1, 2.3, 1.5, 1.4], vertical_alignment="bottom")
    question = q_col.text_input("Question", key="question", placeholder="Ask something the graph may know…")
    asked = ask_col.button("Ask", type="primary", key="ask", width="stretch", on_click=_ask)
    if examples:
        ex_col.selectbox("Example questions", ["—"] + examples, key="example", on_change=_use_example)
    with knobs.popover("Knobs", icon=":material/tune:", width="stretch", help="The retrieval knobs"):
        p = knob_widgets()
        document_filter(ws, graph.name)
        p = scoped(p)
    pin_button(pin_col)  # pin the run on screen, change a knob, Ask again: both runs compared
    whole_question(question, "trace" in st.session_state)  # where its box cuts it (walk23)
    if "trace" not in st.session_state:
        st.popover("How it works").markdown(how_it_works(p, chosen_method()))  # the knobs as they stand
    if asked and not question.strip():
        st.warning("Type a question first (or pick one of the example questions).")
    failed = st.session_state.pop("ask_failed", None)
    if failed:
        st.error(md_escape(failed))

    pending = st.session_state.pop("pending", None)
    if pending is not None:  # the last run was interrupted while the answer streamed (Stop, or any other click)
        partial = "".join(st.session_state.pop("streamed", []))
        _start(ws.stopped_answer(pending[0], partial, graph.name), pending[1], "query entities")

    restore = pending_restore(graph.name) and not asked  # a reload or a shared link: a run this session lacks
    use_llm = s.llm.enabled
    if restore:  # replayed if this server kept it; else run again, with the model only if the user says so
        key, pin = run_key(here, question, chosen_method(), p), pinned_from_url()
        how = reopen_with_model([key] + ([run_key(here, *pin)] if pin else []), s.llm.enabled)
        restore, use_llm = how is not None, bool(how)
    if (asked and question.strip() and s.llm.enabled) or restore:  # offline, Ask ran the query already (_ask)
        st.session_state["restore_tried"] = True
        kept = run_store().get(key) if restore else None
        llm = None
        if use_llm and not kept:
            live, streamed = st.empty(), st.session_state.setdefault("streamed", [])
            streamed.clear()

            def show_piece(piece: str) -> None:
                streamed.append(piece)
                live.markdown("**Answer (streaming)**  \n" + md_escape("".join(streamed)))

            llm = ws.query_llm(on_delta=show_piece, settings=s)
        try:
            if restore:  # a comparison link names its pinned run too
                restore_pinned(lambda q, m, kp: _pinned(q, m, kp, use_llm, key))
            if kept:  # as it was: no query, no model call
                trace, naive = kept[0], kept[1]
                st.session_state["flash"] = replayed(kept[2])  # said by the next run (ui/router.py)
            else:
                with st.spinner("Reopening the run from the link…" if restore else "Asking…"):
                    trace, naive = run(question, p, llm)
            st.session_state.pop("pending", None)
            _start(trace, naive, url_step(shown_steps(trace)).label if restore else "query entities")
            st.rerun()  # draw the step-through in its compact layout (a reopened link too), without streaming widgets
        except Exception as e:  # noqa: BLE001 - show the failure, keep the page alive
            st.session_state.pop("pending", None)
            st.error(md_escape(f"The query failed: {e}"))


# Every top-level element below is drawn on every run (a slot may stay empty): Streamlit knows an element by its
# position, and one that moved looked new to the browser, which showed the old and the new one during the run.
old = st.session_state.get("trace_graph")
with st.container():
    if "trace" in st.session_state and old != graph.name:  # another graph was picked: its trace would mislead
        for key in ("trace", "naive", "step", "pending", "pinned"):
            st.session_state.pop(key, None)
        for key in ("q", "step"):
            st.query_params.pop(key, None)
        st.info(
            md_escape(f"You switched to graph “{graph.name}”: the run on “{old}” was cleared. Press Ask to ask here.")
        )
present = st.session_state.get("present", False) and "trace" in st.session_state
with st.container():  # the title's slot (st.html of a style alone takes no place in the page)
    if "trace" in st.session_state:
        step_style(present)
    else:
        st.title("Ask")
with st.container(key="question_row"):  # drawn on every run; Present mode hides it (step_style) rather than leave it
    question_row()  # out: a run that left it out and was cut short by the next click (→ pressed while Present was
    # still drawing) cleared nothing, so the previous run's question row stood above the graph until the next run ended

trace = st.session_state.get("trace")
if trace is None:
    st.stop()
steps = shown_steps(trace)
pair = comparing()
step = next((x for x in steps if x.label == st.session_state.get("step")), steps[0])
st.session_state["step"] = st.session_state["step_pick"] = step.label
b1, b2, b3 = st.columns([1.5, 7, 1.5], vertical_alignment="center")
b1.button(
    "◀ Previous", key="prev", disabled=step == steps[0], on_click=_go, args=(-1,), shortcut="left", width="stretch"
)
b3.button("Next ▶", key="next", disabled=step == steps[-1], on_click=_go, args=(1,), shortcut="right", width="stretch")
b2.segmented_control(
    "Steps",
    [x.label for x in steps],
    key="step_pick",
    on_change=_picked,
    label_visibility="collapsed",
    format_func=lambda label: label + (" ∅" if is_noop(trace, next(x for x in steps if x.label == label)) else ""),
    help="∅: this step changed nothing for this question. ← and → step through.",
)
noop = is_noop(trace, step) and pair is None
gold, gold_missing = gold_funnel(trace, graph, ws)
with st.container(key="step_sentence"):  # one key on every step: a new key is a new element, drawn beside the old
    badge = ":orange-badge[:material/block: No change] " if noop else ""
    stale = stale_knobs(trace)
    badge += f":red-badge[Stale: {md_escape(', '.join(stale))} — press Ask to re-run] " if stale else ""
    said = summary(*pair, step) if pair else md_escape(explain(trace, step))
    st.markdown(f"**Step {steps.index(step) + 1}/{len(steps)} · {step.label}** — {badge}{said}{step_count(gold, step)}")
with st.container(key="answer_row"):  # on every step: the legend row and the graph; on the answer step its verdict
    # and evidence too, beside the graph in a window under 900 px tall, above it in a taller one (ui/answer_view.py)
    with st.container(key="answer_side"):  # drawn on every step, filled on the answer step
        if step is Step.ANSWER and pair is None:
            answer_summary(trace)
    with st.container(key="graph_legend"):
        g_legend, g_all, g_present = st.columns([7.2, 1.9, 2], vertical_alignment="center")  # "Present" unclipped
        show_all = g_all.checkbox("Show all nodes", key="all_nodes")  # in both modes: no element drawn only sometimes
        g_present.button(  # a button, not a toggle: a toggle kept the keyboard focus once clicked, and Streamlit
            "Leave Present" if present else "Present",  # ignores ← and → while an input has it (the first → after
            key="present_btn",  # Present did nothing)
            on_click=_flip_present,
            help="Full width, no sidebar or question row; ← and → step through.",
            width="stretch",
        )
    if pair:
        comparison_graph(*pair, step, g_legend, show_all)
    else:
        g = trace_graph(trace, step, None if show_all else 60)
        g_legend.markdown(legend_html(g), unsafe_allow_html=True)  # only our fixed legend strings, escaped
        show_graph(g, view=f"{trace.question} · {step.label}", fill=True)
with st.container():  # the comparison's slot
    if pair:
        details(*pair, step)
table, ms = step_table(trace, step)
st.caption(f"{step.label}: {ms:.1f} ms")
show_table(table)
write_url(graph.name, trace, step, pinned() if pair else None)
remember(graph.name, trace, pinned() if pair else None)

with st.expander("How this works"):  # the run on screen's knobs, not the defaults
    st.markdown(how_it_works(trace.params, trace.method))
gold_panel(gold, gold_missing)
with st.container():  # slots, drawn or not
    if step is Step.ANSWER:
        answer_panel(trace)
with st.container():
    llm_calls_panel(trace)
naive_panel(trace, st.session_state["naive"])
why_missed_panel(trace, graph, ws, st.session_state["naive"])
export_panel(trace)
review_links(trace, graph.name)  # fix, then ask again (ui/review.py)
history_panel()

"""Evaluate's funnel: a question set (your own file, or the last benchmark's questions) run over the current graph
by each method — where the expected sources were lost, step by step, summed over the questions; two knob settings
side by side with paired intervals; and a drill-down that opens a question on Ask at the step that lost its gold."""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
import streamlit as st

from ui.run_link import run_params
from ui.safe import md_escape
from ui.state import select_graph
from ui.uploads import UPLOAD_MB, show_refused
from vgrag.config import QueryParams
from vgrag.documents.inputs import InputError
from vgrag.documents.questions import MAX_ROWS, parse_question_file
from vgrag.evaluation.funnel import (
    EvalQuestion,
    MethodResult,
    bench_questions,
    paired_interval,
    resolve_sources,
    run_funnels,
)
from vgrag.present.funnel import Funnel
from vgrag.query.trace import QueryTrace, Step
from vgrag.storage.store import Graph
from vgrag.workspace import Workspace

SETTING_B = (  # the knobs a second setting may change, as (key, QueryParams field, label, choices)
    ("fb_hops", "hops", "Hops", (0, 1, 2)),
    ("fb_cap", "eviction_cap", "Eviction cap", (20, 50, 100, 200, 500)),
    ("fb_rel", "relation_top_k", "Relation top-k", (5, 10, 20, 40)),
    ("fb_keep", "rerank_keep", "Relations kept by rerank", (10, 20, 40, 80)),
)


def read_questions(graph: Graph, ws: Workspace, upload: object) -> tuple[tuple[EvalQuestion, ...], list[str]]:
    """The uploaded file's questions with their sources resolved in the graph, and every message about a row (or
    a source) that was left out, each naming the file and the row."""
    name = upload.name  # type: ignore[attr-defined]
    parsed = parse_question_file(name, upload.getvalue())  # type: ignore[attr-defined]
    said = list(parsed.problems)
    if parsed.skipped:
        said.append(f"{name}: only the first {MAX_ROWS} questions are read; {parsed.skipped} more were left.")
    docs = ws.documents(graph.name)
    out = []
    for r in parsed.rows:
        gold, missing = resolve_sources(graph, docs, r.sources) if r.sources else ([], [])
        if missing:
            said.append(f"{name}, row {r.row}: not in graph “{graph.name}”: {' | '.join(missing)}.")
        out.append(EvalQuestion(str(r.row), r.question, tuple(gold), r.answers, tuple(missing), r.answerable))
    return tuple(out), said


def _table(results: dict[str, MethodResult]) -> pd.DataFrame:
    """One row per run: each stage's gold reached (its mean share of each question's gold, %), the stages in the
    order they run (one a method does not have is "—", not "None")."""
    rows, stages = [], []
    for label, m in results.items():
        t = m.totals
        row = {"run": label, "questions": t.n_questions, "gold": t.n_gold}
        row |= {s: f"{n} ({sh:.0f} %)" for s, n, sh in zip(t.stages, t.reached, t.share, strict=True)}
        for s in t.stages:  # "search" (naive) and "seeds … rerank" (graph) both before "top-k"
            if s not in stages:
                stages.insert(stages.index("top-k") if "top-k" in stages and s != "top-k" else len(stages), s)
        scored = [x.answer for x in m.results if x.answer is not None and x.question.answers]
        if scored:  # offline no short answer is given: what the shown evidence holds is the measure there
            held = sum(a.get("evidence_contains", 0) for a in scored)
            row["evidence contains %"] = round(100 * held / len(scored), 1)
            if any(a.get("answered") for a in scored):
                row["answer contains %"] = round(100 * sum(a["contains"] for a in scored) / len(scored), 1)
        for part, group in (
            ("answerable", [x for x in m.results if x.answer and x.question.answerable]),
            ("unanswerable", [x for x in m.results if x.answer and not x.question.answerable]),
        ):
            if group and (part == "unanswerable" or any(not x.question.answerable for x in m.results)):
                row[f"{part}: “not in”"] = f"{sum(int(x.answer['not_in']) for x in group)} of {len(group)}"
                row[f"{part}: “found”"] = f"{sum(int(x.answer['found']) for x in group)} of {len(group)}"
        row["lost where (stage: n)"] = ", ".join(f"{s}: {d}" for s, d in zip(t.stages, t.dropped, strict=True) if d)
        rows.append(row)
    verdicts = [f"{p}: {v}" for p in ("answerable", "unanswerable") for v in ("“not in”", "“found”")]
    rest = [c for c in ("evidence contains %", "answer contains %", *verdicts, "lost where (stage: n)")
            if any(c in r for r in rows)]  # fmt: skip
    return pd.DataFrame(rows, columns=["run", "questions", "gold", *stages, *rest]).fillna("—")


def _drill_url(graph: str, trace_like: QueryTrace, step: Step, q: EvalQuestion) -> dict[str, str]:
    gold = [g.label if "\n" not in g.label else sorted(g.passage_ids)[0] for g in q.gold if g.passage_ids]
    url = {"graph": graph, "step": step.label} | run_params(trace_like)
    return url | ({"gold": " | ".join(gold)} if gold else {})


def _open(url: dict[str, str]) -> None:
    st.session_state["open_run"] = url  # applied by the Ask page (a page switch starts without URL parameters)
    select_graph(url["graph"])


def funnel_section(ws: Workspace, graph: Graph | None) -> None:
    st.subheader("Where the gold was lost")
    st.write(
        "Your own questions over the current graph: a CSV, JSON or JSONL file with a `question` column and an "
        "`answer` and/or `sources` column (document names, passage titles or passage ids; several separated by |), "
        "and `answerable` = no for a question your documents do not answer. Each method's funnel shows how many "
        "expected sources each step still reaches (the last stage is Recall@k), what the evidence holds, and how "
        "often the offline verdict said *not in these documents* or *found* — for the unanswerable questions, the "
        "first is right and the second is wrong."
    )
    if graph is None:
        st.info("Pick or build a graph first: the questions are asked over the current graph.")
        return
    show_refused()
    upload = st.file_uploader(
        "Questions file", type=["csv", "json", "jsonl", "tsv", "txt"], key="own_questions", max_upload_size=UPLOAD_MB
    )
    bench = st.session_state.get("bench")
    use_bench = bench is not None and "bench_questions" in st.session_state and not upload
    if use_bench:  # no file: the last benchmark's questions, over the benchmark's graph
        graph = ws.graph(bench["graph"], create=False)
        st.caption(
            md_escape(f"No file: the benchmark's {len(st.session_state['bench_questions'])} questions, over its graph "
                      f"“{graph.name}”.")
        )  # fmt: skip
    else:
        st.caption(md_escape(f"Over the current graph “{graph.name}”."))
    c1, c2, c3 = st.columns([3, 1, 2])
    methods = c1.multiselect("Methods", ["naive", "hybrid", "graph"], ["naive", "graph"], key="funnel_methods")
    k = int(c2.number_input("k", 1, 20, 5, key="funnel_k"))
    second = c3.checkbox("Compare with a second knob setting", key="funnel_two")
    b_params = QueryParams()
    if second:
        cols = st.columns(len(SETTING_B))
        default = QueryParams()
        values = {f: c.selectbox(lb, ch, index=ch.index(getattr(default, f)), key=key)
                  for c, (key, f, lb, ch) in zip(cols, SETTING_B, strict=True)}  # fmt: skip
        b_params = QueryParams(**values)
    if st.button("Run the funnel", type="primary", key="run_funnel"):
        try:
            if upload:
                qs, said = read_questions(graph, ws, upload)
            elif use_bench:
                qs, said = bench_questions(graph, st.session_state["bench_questions"]), []
            else:
                raise InputError("Upload a questions file first (or run a benchmark on this graph).")
        except InputError as e:
            st.error(md_escape(str(e)))
            return
        if any(not q.gold and q.answerable for q in qs):
            n = sum(1 for q in qs if not q.gold and q.answerable)
            said.append(f"{n} question(s) name no source found in the graph: scored by their answer only.")
        bar = st.progress(0.0, text="Asking…")
        runs = [("A", QueryParams())] + ([("B", b_params)] if second else [])
        results: dict[str, MethodResult] = {}
        for tag, p in runs:
            for m in methods:
                label = m if not second else f"{m} · {tag}"
                results[label] = run_funnels(
                    graph, ws.embedder, qs, m, p, k, answers=True,
                    on_progress=lambda d, t, label=label: bar.progress(d / max(t, 1), text=f"{label}: {d}/{t}"),
                )  # fmt: skip
        bar.empty()
        st.session_state["funnel"] = {"graph": graph.name, "results": results, "said": said, "second": second,
                                      "methods": list(methods), "k": k}  # fmt: skip
    show_funnel(st.session_state.get("funnel"))


def show_funnel(r: dict | None) -> None:
    if not r:
        return
    for msg in r["said"][:50]:
        st.warning(md_escape(msg))
    if len(r["said"]) > 50:
        st.warning(f"… and {len(r['said']) - 50} more rows left out.")
    results: dict[str, MethodResult] = r["results"]
    if not results or not next(iter(results.values())).results:
        st.info("No question with an expected source in this graph: nothing to trace.")
        return
    st.markdown(f"**The funnel, per method** (expected sources reached at each step; top-k = Recall@{r['k']})")
    st.dataframe(_table(results), hide_index=True, width="stretch")
    if r["second"]:
        rows = []
        for m in r["methods"]:
            a, b = results[f"{m} · A"], results[f"{m} · B"]
            diff, lo, hi = paired_interval(a.per_question(), b.per_question())
            rows.append({"method": m, f"R@{r['k']} A": a.recall, f"R@{r['k']} B": b.recall,
                         "B − A [95 % paired interval]": f"{diff:+.1f} [{lo:+.1f}, {hi:+.1f}]"})  # fmt: skip
        st.caption("A: the default knobs; B: the second setting. Paired bootstrap over the questions (10,000 "
                   "resamples): an interval that excludes 0 is a difference these questions support.")  # fmt: skip
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    labels = list(results)
    per, idx = [], []
    for n, qr in enumerate(results[labels[0]].results):
        if not qr.funnel.n_gold:
            continue
        idx.append(n)
        row = {"question": qr.question.question, "gold": qr.funnel.n_gold}
        for lb in labels:
            f: Funnel = results[lb].results[n].funnel
            lost = sorted({x.lost_at for x in f.fates if not x.found})
            row[lb] = f"{f.final}/{f.n_gold}" + (f" · lost at {', '.join(lost)}" if lost else "")
        per.append(row)
    if not per:  # answers and verdicts only (no row names a source in the graph): nothing to trace step by step
        st.caption(
            "No question names an expected source in this graph, so no step lost one: the table above scores "
            "the answers and verdicts."
        )
        return
    st.dataframe(pd.DataFrame(per), hide_index=True, width="stretch",
                 column_config={"question": st.column_config.TextColumn(width="medium")})  # fmt: skip
    c1, c2, c3 = st.columns([5, 2, 2], vertical_alignment="bottom")
    pick = c1.selectbox("Open a question on Ask at the step that lost its gold", idx, key="funnel_pick",
                        format_func=lambda i: results[labels[0]].results[i].question.question)  # fmt: skip
    run = c2.selectbox("Run", labels, key="funnel_run")
    qr = results[run].results[pick]
    step = qr.funnel.losing_step() or Step.ANSWER
    params = replace(results[run].params, passage_top_k=r["k"])  # Ask cuts at the funnel's k
    like = QueryTrace(qr.question.question, run.split(" · ")[0], params)  # type: ignore[arg-type]
    url = _drill_url(r["graph"], like, step, qr.question)
    if c3.button(f"Open in Ask at “{step.label}”", key="funnel_open", on_click=_open, args=(url,), width="stretch"):
        st.switch_page("pages/ask.py")

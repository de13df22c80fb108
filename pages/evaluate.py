"""Evaluate: Recall@k of naive, hybrid and graph retrieval on a HippoRAG-format benchmark folder, the offline
answers' scores, and the graph's paired differences with their intervals."""

import os
import tempfile
from dataclasses import replace
from pathlib import Path

import pandas as pd
import streamlit as st

from ui.own_questions import funnel_section
from ui.router import ensure_router
from ui.safe import md_escape
from ui.state import current_graph, select_graph, workspace
from ui.uploads import UPLOAD_MB, show_refused
from vgrag.evaluation.bench import run_bench
from vgrag.evaluation.data import BenchData, allowed_folder, bench_roots, load_bench, load_uploads
from vgrag.documents.inputs import InputError
from vgrag.storage.connection import StoreError

ensure_router()

st.title("Evaluate")
st.write(
    "Runs naive dense retrieval, a dense + BM25 hybrid and the graph pipeline on every question of a HippoRAG-format "
    "folder (corpus JSON, questions JSON, optional OpenIE JSON) and reports Recall@k, and how often the offline "
    "extractive answer contains the gold answer. The benchmark's graph is kept in this database (named bench_…), so "
    "any question can be opened on the Ask page; a run replaces only a graph a benchmark built, and uploaded files "
    "get one graph per content (bench_upload_…: drop old ones on the Overview page)."
)
ws = workspace()
if ws is None:
    st.stop()
default = Path(__file__).resolve().parent.parent / "data" / "sample_bench"  # bundled: 12 passages, 6 questions
folder = st.text_input(
    "Benchmark folder",
    str(default),
    key="bench_dir",
    help="A folder under the app's data folder, or under one that VGRAG_BENCH_DIRS lists (see docs/ui.md).",
)
show_refused()
uploads = st.file_uploader(
    "…or upload the folder's files (corpus, questions, optional openie JSON)",
    type=["json"],
    accept_multiple_files=True,
    key="bench_files",
    max_upload_size=UPLOAD_MB,
)
c1, c2 = st.columns(2)
extract = c1.radio(
    "Triples",
    ["openie", "offline"],
    horizontal=True,
    key="bench_extract",
    format_func=lambda x: {"openie": "from the OpenIE file", "offline": "offline extractor"}[x],
)
limit = c2.number_input("Questions (0 = all)", 0, 10000, 0, key="bench_limit")
c3, c4 = st.columns(2)
methods = c3.multiselect(
    "Methods",
    ["naive", "hybrid", "graph"],
    ["naive", "hybrid", "graph"],
    key="bench_methods",
    help="naive: dense search of the passages; hybrid: dense + BM25 words, fused by reciprocal rank; graph: this "
    "app's pipeline. The graph is compared with each other method, question by question.",
)
score_answers = c4.checkbox(
    "Score the offline answers",
    True,
    key="bench_answers",
    help="Each method's top 5 passages are read by the offline reader (no LLM); its short answer is scored against "
    "the gold answer and its aliases: contains, exact match, F1 (SQuAD rules).",
)


def read(folder: str, tmp: Path) -> BenchData | None:
    """The benchmark from the uploaded files (their names only shown, never used as paths) or from the folder;
    None after saying what is wrong with it."""
    try:
        if uploads:
            return load_uploads([(f.name, f.getvalue()) for f in uploads], tmp)
        path = allowed_folder(folder, bench_roots(os.environ))
        for f in path.iterdir():  # a link in the folder that leads out of the allowed ones is refused too
            allowed_folder(f, bench_roots(os.environ))
        return load_bench(path)
    except (FileNotFoundError, InputError, OSError) as e:
        st.error(md_escape(f"Cannot read the benchmark: {e}"))
    return None


def run(data: BenchData, limit: int) -> None:
    """Run the benchmark with a progress bar, and keep the result in the session."""
    if limit:
        data = replace(data, questions=data.questions[:limit])
    bar = st.progress(0.0, text="Building the graph…")
    try:
        st.session_state["bench"] = run_bench(
            data,
            ws.embedder,
            methods=[m for m in ("naive", "hybrid", "graph") if m in methods],
            answers=score_answers,
            extract=extract,
            measure_embed=False,
            on_progress=lambda s, d, t: bar.progress(d / t, text=f"question {d}/{t}"),
            db=ws.db,  # the benchmark graph stays in this database: "Open in Ask" asks it there
        )
    except (FileNotFoundError, InputError, StoreError) as e:
        st.error(md_escape(str(e)))


if st.button("Run benchmark", type="primary", key="run_bench"):
    if not methods:
        st.error("Pick at least one method to run.")
    else:
        with tempfile.TemporaryDirectory(prefix="vgrag-upload-") as tmp:  # an uploaded OpenIE file, for the run
            data = read(folder, Path(tmp))
            if data is not None:
                run(data, int(limit))
                st.session_state["bench_questions"] = data.questions[: int(limit) or None]  # for the funnel


def summary_row(method: str, r: dict) -> dict:
    row = {"method": method, **{f"R@{k}": r["recall"][k] for k in ("1", "2", "5", "10")}}
    row |= {"median ms": r["latency_ms"]["median"], "p90 ms": r["latency_ms"]["p90"]}
    if "answer" in r:
        a = r["answer"]
        row |= {"answer contains %": a["contains"], "EM": a["em"], "F1": a["f1"], "abstained %": a["abstained"]}
    return row


def compare_rows(compare: dict) -> list[dict]:
    """Per comparison ("graph − naive"), each Recall@k difference as "+12.2 [+7.2, +17.5]"."""
    out = []
    for pair, row in compare.items():
        cells = {f"R@{k}": f"{v['diff']:+.1f} [{v['ci95'][0]:+.1f}, {v['ci95'][1]:+.1f}]" for k, v in row.items()}
        out.append({"comparison": pair.replace("-", " − "), **cells})
    return out


def question_row(q: dict, methods: list[str]) -> dict:
    """One question: its recall per method, and (when scored) the graph's short answer beside the gold one."""
    row = {"question": q["question"], "gold passages": q["n_gold"], **{f"{m} R@5": q[m]["5"] for m in methods}}
    shown = "graph" if "graph" in methods else methods[0]
    answer = q[shown].get("answer")
    if answer:
        row[f"{shown} answer"] = answer["short"] or "(abstained)"
        row["gold answer"] = " | ".join(answer["gold"])
        row["contains"] = "✓" if answer["contains"] else ""
    return row


result = st.session_state.get("bench")
if result:
    st.caption(
        f"{md_escape(result['dataset'])}: {result['n_questions']} questions, graph “{result['graph']}” built from "
        f"{result['extract']} in {result['ingest_s']} s."
    )
    summary = pd.DataFrame([summary_row(m, r) for m, r in result["methods"].items()])
    st.dataframe(summary, hide_index=True, width="stretch")
    if result.get("compare"):
        st.caption(
            "The graph minus each other method, in points, question by question, with a paired bootstrap 95 % "
            "interval (10,000 resamples of the questions): an interval above 0 is a gain these questions support."
        )
        st.dataframe(pd.DataFrame(compare_rows(result["compare"])), hide_index=True, width="stretch")
    rows = [
        {"method": m, "k": int(k), "recall": v} for m, r in result["methods"].items() for k, v in r["recall"].items()
    ]
    chart = {  # grouped bars with labels readable from the back of a room (st.bar_chart's were ~10 px)
        "mark": "bar",
        "encoding": {
            "x": {"field": "k", "type": "ordinal", "title": "k passages retrieved", "axis": {"labelAngle": 0}},
            "xOffset": {"field": "method", "type": "nominal"},
            "y": {"field": "recall", "type": "quantitative", "title": "Recall@k (%)", "scale": {"domain": [0, 100]}},
            "color": {"field": "method", "type": "nominal", "title": "Method"},
            "tooltip": [{"field": "method"}, {"field": "k"}, {"field": "recall"}],
        },
        "config": {
            "axis": {"labelFontSize": 15, "titleFontSize": 16},
            "legend": {"labelFontSize": 15, "titleFontSize": 15},
        },
    }
    st.vega_lite_chart(pd.DataFrame(rows), chart, width="stretch")
    st.subheader("Per question")
    per = pd.DataFrame([question_row(q, list(result["methods"])) for q in result["questions"]])
    st.dataframe(
        per,
        hide_index=True,
        width="stretch",
        column_config={"question": st.column_config.TextColumn(width="medium")},  # the answers stay in view
    )
    pick = st.selectbox("Open a question on the Ask page", [q["question"] for q in result["questions"]], key="drill")
    if st.button(
        "Open in Ask",
        key="open_ask",
        help=f"Opens Ask on the benchmark's graph “{result['graph']}” with this question in; press Ask to run it.",
    ):
        select_graph(result["graph"])
        st.session_state["question"] = pick
        st.switch_page("pages/ask.py")

funnel_section(ws, current_graph(ws))

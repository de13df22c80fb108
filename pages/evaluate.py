"""Evaluate: Recall@k of naive vs graph retrieval on a HippoRAG-format benchmark folder."""

import json
import tempfile
from dataclasses import replace
from pathlib import Path

import pandas as pd
import streamlit as st

from ui.router import ensure_router
from ui.state import select_graph, workspace
from vgrag.bench import run_bench
from vgrag.bench_data import load_bench

ensure_router()

st.title("Evaluate")
st.write(
    "Runs naive dense retrieval and the graph pipeline on every question of a HippoRAG-format folder "
    "(corpus JSON, questions JSON, optional OpenIE JSON) and reports Recall@k. The benchmark's graph is kept in "
    "this database (named bench_…), so any question can be opened on the Ask page."
)
ws = workspace()
if ws is None:
    st.stop()
default = Path(__file__).resolve().parent.parent / "data" / "sample_bench"  # bundled: 12 passages, 6 questions
folder = st.text_input("Benchmark folder", str(default), key="bench_dir")
uploads = st.file_uploader(
    "…or upload the folder's files (corpus, questions, optional openie JSON)",
    type=["json"],
    accept_multiple_files=True,
    key="bench_files",
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


def run(folder: str, limit: int) -> None:
    """Load the benchmark, run it with a progress bar, and keep the result in the session."""
    try:
        data = load_bench(folder)
    except (FileNotFoundError, ValueError, KeyError, json.JSONDecodeError) as e:
        st.error(f"Cannot read the benchmark folder: {e}")
        return
    if limit:
        data = replace(data, questions=data.questions[:limit])
    bar = st.progress(0.0, text="Building the graph…")
    try:
        st.session_state["bench"] = run_bench(
            data,
            ws.embedder,
            extract=extract,
            measure_embed=False,
            on_progress=lambda s, d, t: bar.progress(d / t, text=f"question {d}/{t}"),
            db=ws.db,  # the benchmark graph stays in this database: "Open in Ask" asks it there
        )
    except FileNotFoundError as e:
        st.error(str(e))


if st.button("Run benchmark", type="primary", key="run_bench"):
    if uploads:  # the uploaded files live only as long as the run
        with tempfile.TemporaryDirectory(prefix="vgrag-upload-") as tmp:
            for f in uploads:
                (Path(tmp) / Path(f.name).name).write_bytes(f.getvalue())
            run(tmp, int(limit))
    else:
        run(folder, int(limit))

result = st.session_state.get("bench")
if result:
    st.caption(
        f"{result['dataset']}: {result['n_questions']} questions, graph “{result['graph']}” built from "
        f"{result['extract']} in {result['ingest_s']} s."
    )
    summary = pd.DataFrame(
        [
            {
                "method": m,
                **{f"R@{k}": r["recall"][k] for k in ("1", "2", "5", "10")},
                "median ms": r["latency_ms"]["median"],
                "p90 ms": r["latency_ms"]["p90"],
            }
            for m, r in result["methods"].items()
        ]
    )
    st.dataframe(summary, hide_index=True, width="stretch")
    rows = [
        {"method": m, "k": int(k), "recall": v} for m, r in result["methods"].items() for k, v in r["recall"].items()
    ]
    df = pd.DataFrame(rows)
    st.bar_chart(df.pivot(index="k", columns="method", values="recall"), stack=False)
    st.subheader("Per question")
    per = pd.DataFrame(
        [
            {"question": q["question"], "gold": q["n_gold"], **{f"{m} R@5": q[m]["5"] for m in result["methods"]}}
            for q in result["questions"]
        ]
    )
    st.dataframe(per, hide_index=True, width="stretch")
    pick = st.selectbox("Open a question on the Ask page", [q["question"] for q in result["questions"]], key="drill")
    if st.button("Open in Ask", key="open_ask", help=f"Asks it on the benchmark's graph “{result['graph']}”."):
        select_graph(result["graph"])
        st.session_state["question"] = pick
        st.switch_page("pages/ask.py")

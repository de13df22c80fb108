"""Evaluate's funnel through AppTest: your own questions file over the current (demo) graph, bad rows named, two
knob settings side by side, the benchmark's questions, and the drill-down into Ask at the losing step."""

from __future__ import annotations

from apptest import ROOT, app_workspace, page

GOOD = "Who is the escalation contact for the service that Beacon depends on?"


def _said(at, kind: str = "warning") -> list[str]:
    return [e.value.replace("\\", "") for e in getattr(at, kind)]


def _upload(at, name: str, data: bytes):
    at.file_uploader(key="own_questions").set_value([(name, data, "text/csv")])
    return at


def _demo_title(at) -> str:
    ws = app_workspace(at)
    return next(iter(ws.graph("demo", create=False).iter_passages())).title


def test_an_uploaded_csv_runs_over_the_current_graph_and_names_its_bad_rows(app_env):
    at = page("pages/evaluate.py")
    title = _demo_title(at)
    csv = (f"question,answer,sources\n{GOOD},Priya Raman,{title}\n,x,{title}\nWhat is Beacon?,,No Such Doc\n").encode()
    _upload(at, "mine.csv", csv)
    at.multiselect(key="funnel_methods").set_value(["naive", "graph"])
    at.button(key="run_funnel").click().run()
    assert not at.exception, at.exception
    said = _said(at)
    assert any(s.startswith("mine.csv, row 2: no question") for s in said), said
    assert any(s.startswith("mine.csv, row 3: not in graph “demo”: No Such Doc") for s in said), said
    table = at.dataframe[0].value
    assert list(table["run"]) == ["naive", "graph"]
    assert "seeds" in table.columns and "top-k" in table.columns and "search" in table.columns
    cols = list(table.columns)  # the stages in the order they run; a stage a method lacks is "—", not "None"
    assert cols.index("search") < cols.index("top-k") and cols.index("rerank") < cols.index("top-k")
    assert table.set_index("run").loc["naive", "seeds"] == "—" and not table.isna().any().any()
    # offline there is no short answer: the evidence's share is the measure, not an "answer contains" of 0
    assert "evidence contains %" in cols and "answer contains %" not in cols
    assert set(table["questions"]) == {1}  # row 1 only: row 3's one source is not in the graph
    r = at.session_state["funnel"]["results"]
    assert r["graph"].totals.stages[0] == "seeds" and r["graph"].results[0].funnel.n_gold == 1


def test_a_file_that_cannot_be_read_is_one_message_naming_it(app_env):
    at = page("pages/evaluate.py")
    _upload(at, "cols.csv", b"title,text\nA,B\n")
    at.button(key="run_funnel").click().run()
    assert not at.exception and "funnel" not in at.session_state
    assert any("cols.csv: no 'question' column" in e for e in _said(at, "error")), _said(at, "error")


def test_two_knob_settings_side_by_side_with_a_paired_interval(app_env):
    at = page("pages/evaluate.py")
    title = _demo_title(at)
    rows = "".join(f"{q},,{title}\n" for q in (GOOD, "Who leads the team that owns Tollgate?", "What is Beacon?"))
    _upload(at, "two.csv", ("question,answer,sources\n" + rows).encode())
    at.multiselect(key="funnel_methods").set_value(["graph"])
    at.checkbox(key="funnel_two").check().run()
    at.selectbox(key="fb_hops").select(0)
    at.button(key="run_funnel").click().run()
    assert not at.exception, at.exception
    runs = list(at.dataframe[0].value["run"])
    assert runs == ["graph · A", "graph · B"]
    paired = at.dataframe[1].value
    cell = paired["B − A [95 % paired interval]"][0]
    assert cell.count("[") == 1 and "," in cell
    r = at.session_state["funnel"]["results"]
    assert r["graph · B"].params.hops == 0 and "hop 1" not in r["graph · B"].totals.stages


def test_the_drill_down_opens_ask_at_the_losing_step_with_the_gold_marked(app_env):
    at = page("pages/evaluate.py")
    ws = app_workspace(at)
    far = [p.title for p in ws.graph("demo", create=False).iter_passages()][-1]
    _upload(at, "one.csv", f"question,sources\n{GOOD},{far}\n".encode())
    at.multiselect(key="funnel_methods").set_value(["graph"])
    at.button(key="run_funnel").click().run()
    f = at.session_state["funnel"]["results"]["graph"].results[0].funnel
    want = f.losing_step() or f.stages[-1].step
    at.button(key="funnel_open").click().run()
    assert not at.exception, at.exception
    assert at.session_state["trace"].question == GOOD and at.session_state["step"] == want.label
    assert at.session_state["gold_sources"] == far


def test_the_benchmarks_questions_give_the_funnel_of_its_graph(app_env):
    at = page("pages/evaluate.py")
    at.text_input(key="bench_dir").input(str(ROOT / "data" / "sample_bench"))
    at.multiselect(key="bench_methods").set_value(["graph"])
    at.checkbox(key="bench_answers").set_value(False)
    at.button(key="run_bench").click().run()
    at.multiselect(key="funnel_methods").set_value(["graph"])
    at.number_input(key="funnel_k").set_value(5)
    at.button(key="run_funnel").click().run()
    assert not at.exception, at.exception
    result = at.session_state["funnel"]["results"]["graph"]
    assert result.recall == at.session_state["bench"]["methods"]["graph"]["recall"]["5"]
    app_workspace(at).drop(at.session_state["bench"]["graph"])


def test_questions_marked_not_answerable_are_scored_by_the_verdict(app_env):
    """A user's unanswerable questions were left out ("nothing to score it by"): marked `answerable` = no they are
    asked, and the table says how often the verdict said "not in these documents" (right) or "found" (wrong)."""
    at = page("pages/evaluate.py")
    title = _demo_title(at)
    csv = (f"question,answer,sources,answerable\n{GOOD},Priya Raman,{title},yes\n"
           "Who is the chief executive of Globex Aerospace?,,,no\n").encode()  # fmt: skip
    _upload(at, "mixed.csv", csv)
    at.multiselect(key="funnel_methods").set_value(["graph"])
    at.button(key="run_funnel").click().run()
    assert not at.exception, at.exception
    assert not [s for s in _said(at) if "row 2" in s]  # not left out
    row = at.dataframe[0].value.set_index("run").loc["graph"]
    assert row["unanswerable: “not in”"] == "1 of 1" and row["unanswerable: “found”"] == "0 of 1", row
    assert row["answerable: “not in”"] == "0 of 1"
    (unanswerable,) = [x for x in at.session_state["funnel"]["results"]["graph"].results if not x.question.answerable]
    assert unanswerable.answer["not_in"] == 1.0 and unanswerable.funnel.n_gold == 0


def test_a_file_without_any_source_scores_answers_and_verdicts_and_draws_no_drill_down(app_env):
    """Only answers and unanswerable rows (no source): the per-question trace and its drill-down have nothing to
    show — the page raised a TypeError (the drill-down's empty picker gave None)."""
    at = page("pages/evaluate.py")
    csv = (f"question,answer,answerable\n{GOOD},Priya Raman,yes\n"
           "Who is the chief executive of Globex Aerospace?,,no\n").encode()  # fmt: skip
    _upload(at, "answers_only.csv", csv)
    at.multiselect(key="funnel_methods").set_value(["naive", "graph"])
    at.button(key="run_funnel").click().run()
    assert not at.exception, at.exception
    assert len(at.dataframe) == 1 and any("no step lost one" in c.value for c in at.caption)
    assert at.dataframe[0].value.set_index("run").loc["graph", "unanswerable: “not in”"] == "1 of 1"

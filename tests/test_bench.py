from __future__ import annotations

import json
from dataclasses import replace

import pytest
from conftest import BENCH, SAMPLE_BENCH

from vgrag.evaluation.bench import recall_at, run_bench
from vgrag.evaluation.data import load_bench, parse_questions
from vgrag.documents.triple_files import ImportedPassage


def test_recall_rule_matches_hand_computation():
    gold = frozenset({"a", "b"})
    assert recall_at(["a", "x", "b"], gold, 1) == 0.5
    assert recall_at(["a", "x", "b"], gold, 2) == 0.5
    assert recall_at(["a", "x", "b"], gold, 5) == 1.0
    assert recall_at([], gold, 5) == 0.0 and recall_at(["a"], frozenset(), 5) == 0.0


def test_gold_rules_for_both_formats():
    data = load_bench(SAMPLE_BENCH)
    assert len(data.questions) == 6 and len(data.corpus) == 12 and data.openie is not None
    q = data.questions[0]
    assert q.by_title and q.gold == frozenset({"Marisol Vega", "Lantern Library"})
    musique = json.loads((SAMPLE_BENCH / "musique_shape.json").read_text())
    [mq] = parse_questions(musique)
    gold = {f"{p['title']}\n{p['paragraph_text']}" for p in musique[0]["paragraphs"] if p["is_supporting"]}
    assert not mq.by_title and mq.gold == gold and len(gold) == 2


@pytest.mark.skipif(not (BENCH / "musique_train").exists(), reason="needs ../shared/bench (benchmark data)")
def test_gold_rule_on_real_musique_questions():
    musique = json.loads((BENCH / "musique_train" / "questions.json").read_text())[:3]
    mq = parse_questions(musique)
    gold0 = {f"{p['title']}\n{p['paragraph_text']}" for p in musique[0]["paragraphs"] if p["is_supporting"]}
    assert not mq[0].by_title and mq[0].gold == gold0 and len(gold0) >= 2


def test_bench_on_the_bundled_sample_known_values(minilm, tmp_path):
    """Measured with the offline MiniLM on data/sample_bench: the graph finds the second hop naive misses."""
    data = load_bench(SAMPLE_BENCH)
    r = run_bench(data, minilm, db_uri=str(tmp_path / "b.db"), measure_embed=False)
    assert r["n_questions"] == 6
    naive, graph = r["methods"]["naive"]["recall"], r["methods"]["graph"]["recall"]
    assert (naive["2"], naive["5"]) == (63.9, 91.7) and (graph["2"], graph["5"]) == (86.1, 100.0)
    third = next(q for q in r["questions"] if q["question"].startswith("Where was the librettist"))
    assert third["naive"]["5"] == 0.5 and third["graph"]["5"] == 1.0  # "Jonas Feld" is reached by a hop
    assert set(r["methods"]["graph"]["latency_ms"]) == {"median", "p90"}
    assert len(r["questions"]) == 6 and set(r["questions"][0]["graph"]) == {"1", "2", "5", "10"}


def test_rrf_and_the_paired_bootstrap_interval():
    from vgrag.evaluation.bench import paired_bootstrap
    from vgrag.query.baselines import rrf

    fused = rrf([["a", "b", "c"], ["c", "a", "d"]], k=60)
    assert [i for i, _ in fused] == ["a", "c", "b", "d"]  # a: 1/61 + 1/62 > c: 1/63 + 1/61 > b > d
    assert fused[0][1] == pytest.approx(1 / 61 + 1 / 62)
    per_q = [{"graph": {k: g for k in ("1", "2", "5", "10")}, "naive": {k: n for k in ("1", "2", "5", "10")}}
             for g, n in [(1, 0)] * 6 + [(0, 0)] * 4]  # fmt: skip
    ci = paired_bootstrap(per_q, ["naive", "graph"], n=2000)["graph-naive"]["5"]
    assert ci["diff"] == 60.0 and 20 < ci["ci95"][0] < 60 < ci["ci95"][1] <= 100
    same = [{"graph": {k: 1 for k in ("1", "2", "5", "10")}, "naive": {k: 1 for k in ("1", "2", "5", "10")}}] * 5
    assert paired_bootstrap(same, ["naive", "graph"])["graph-naive"]["2"] == {"diff": 0.0, "ci95": [0.0, 0.0]}


def test_bench_cli_with_hybrid_distractors_and_intervals(minilm, tmp_path, capsys, monkeypatch):
    """`bench` with a distractor folder (no triples: offline extraction) reports naive, hybrid and graph with
    intervals; the distractors' passages are in the graph and the gold passages are still found."""
    from vgrag.cli import main

    extra = tmp_path / "extra"
    extra.mkdir()
    rows = [{"title": f"Town {i}", "text": f"Town {i} has a market and a river called Brook {i}."} for i in range(30)]
    (extra / "corpus.json").write_text(json.dumps(rows))
    out = tmp_path / "r.json"
    code = main(["bench", "--data", str(SAMPLE_BENCH), "--distractors", str(extra), "--no-embed-baseline",
                 "--out", str(out)])  # fmt: skip
    assert code == 0
    r = json.loads(out.read_text())
    assert r["passages"] == 12 + 30 and r["distractors"] == ["extra"]
    assert set(r["methods"]) == {"naive", "hybrid", "graph"}
    assert r["methods"]["graph"]["recall"]["10"] == 100.0  # the distractors do not push gold out
    assert set(r["compare"]) == {"graph-naive", "graph-hybrid"}
    assert set(r["compare"]["graph-hybrid"]["5"]) == {"diff", "ci95"}
    table = capsys.readouterr().out
    assert "hybrid" in table and "graph-naive: R@1" in table and "+ distractors from extra" in table

    # again on a kept graph: the distractors, stored complete, are not extracted a second time; same results
    from vgrag.extraction import extract

    def no_second_extraction(*_a, **_k):
        raise AssertionError("extracted again")

    db = ["--db", str(tmp_path / "kept.db")]
    args = ["bench", "--data", str(SAMPLE_BENCH), "--distractors", str(extra), "--no-embed-baseline", *db]
    assert main([*args, "--out", str(out)]) == 0
    first = json.loads(out.read_text())
    monkeypatch.setattr(extract.OfflineExtractor, "extract_many", no_second_extraction)
    assert main([*args, "--out", str(out)]) == 0
    again = json.loads(out.read_text())
    assert again["passages"] == first["passages"] == 42
    assert again["methods"]["graph"]["recall"] == first["methods"]["graph"]["recall"]


def test_bench_answers_read_what_a_users_query_reads(minilm, tmp_path):
    """--answers: per method contains/EM/F1/abstained, answered/precision/evidence_contains and the answer step's
    time, each question's short answer (or none), confidence and evidence; answers read the user's top 5 passages
    (recall is measured on 10), so the answer step is timed as in the app."""
    data = load_bench(SAMPLE_BENCH)
    r = run_bench(data, minilm, methods=("naive", "graph"), db_uri=str(tmp_path / "b.db"), measure_embed=False,
                  answers=True)  # fmt: skip
    assert r["answer_top_k"] == 5 and r["params"]["passage_top_k"] == 10
    graph = r["methods"]["graph"]
    assert set(graph["answer"]) == {
        "contains",
        "em",
        "f1",
        "abstained",
        "contains_text",
        "answered",
        "precision",
        "evidence_contains",
    }
    assert graph["answer_ms"]["median"] > 0
    for q in r["questions"]:  # each question: the short answer or none, its confidence, the evidence shown first
        a = q["graph"]["answer"]
        assert (a["short"] is None) == (a["answered"] == 0.0) and 0.0 <= a["confidence"] <= 1.0 and a["evidence"]
    answered = [q["graph"]["answer"] for q in r["questions"] if q["graph"]["answer"]["answered"]]
    assert graph["answer"]["answered"] == round(100 * len(answered) / len(r["questions"]), 1)
    assert graph["answer"]["precision"] == (round(100 * sum(a["contains"] for a in answered) / len(answered), 1)
                                            if answered else 0.0)  # fmt: skip
    assert graph["answer"]["evidence_contains"] >= graph["answer"]["contains"]  # measured: 83.3 vs 16.7


def test_a_folder_name_with_other_letters_gives_an_ascii_graph_name():
    """`données` gave `bench_données`, which no graph may be called (isalnum() accepts any letter)."""
    from vgrag.evaluation.graph import graph_name
    from vgrag.storage.schema import check_graph_name

    accented = graph_name("données", "openie", "minilm", 0)
    assert check_graph_name(accented) == accented and accented.startswith("bench_donnees_")
    assert accented != graph_name("donnees", "openie", "minilm", 0)  # ASCII look-alikes keep graphs of their own
    assert graph_name("Ελληνικά", "offline", "e5-small", 2) != graph_name("Русский", "offline", "e5-small", 2)
    for name in ("Ελληνικά", "数据集" * 20, "", "-", "a b"):
        check_graph_name(graph_name(name, "offline", "e5-small", 12))
    assert graph_name("sample_bench", "openie", "minilm", 0) == "bench_sample_bench"  # ASCII names: as before
    assert graph_name("hotpotqa-dev", "offline", "minilm", 1) == "bench_hotpotqa_dev_off_d1"


@pytest.mark.parametrize(
    ("file", "content", "said"),
    [
        ("corpus.json", {"title": "A", "text": "B"}, "corpus.json: holds an object; it should hold a JSON list"),
        ("corpus.json", [["A", "B"]], "corpus.json: item 1 is a list, not an object"),
        ("corpus.json", [{"title": "A"}], "corpus.json: passage 1's text is missing"),
        ("questions.json", {"q": 1}, "questions.json: holds an object; it should hold a JSON list of questions"),
        ("questions.json", [{"question": "Q?"}], "questions.json: question 1 (0) has neither a 'paragraphs'"),
        ("questions.json", [{"question": 3, "supporting_facts": []}], "questions.json: question 1 (0) is missing"),
        ("questions.json", "[{", "questions.json: not readable JSON"),
    ],
)
def test_bench_files_in_another_shape_are_an_input_error_naming_the_file(tmp_path, file, content, said):
    """A corpus holding an object instead of a list raised AttributeError ('str' has no 'get')."""
    import shutil

    from vgrag.documents.inputs import InputError

    folder = tmp_path / "b"
    shutil.copytree(SAMPLE_BENCH, folder)
    (folder / file).write_text(content if isinstance(content, str) else json.dumps(content))
    with pytest.raises(InputError) as e:
        load_bench(folder)
    assert said in str(e.value), str(e.value)


def test_a_bench_run_never_drops_or_fills_a_graph_it_did_not_build(db, embedder):
    """run_bench dropped any graph with its derived name, a user's own graph too. Now: a graph that holds what a
    benchmark run did not write is refused and left whole; the benchmark's own graph is rebuilt on a re-run."""
    from vgrag.documents.inputs import InputError
    from vgrag.ingest import ingest_imported
    from vgrag.text import content_hash

    data = replace(load_bench(SAMPLE_BENCH), questions=load_bench(SAMPLE_BENCH).questions[:1])
    mine = db.open_graph("bench_sample_bench", embedder.model_id, embedder.dim)
    ingest_imported(
        mine, embedder, "my notes.json", content_hash("x"), [ImportedPassage("Mine", "My own text.", (), ())]
    )
    for keep in (False, True):
        with pytest.raises(InputError, match="a benchmark run did not build .*my notes.json"):
            run_bench(data, embedder, db=db, measure_embed=False, keep=keep)
        assert [
            d.name for d in db.open_graph("bench_sample_bench", embedder.model_id, embedder.dim).documents.all()
        ] == ["my notes.json"]
    db.drop_graph("bench_sample_bench")
    db.open_graph("bench_sample_bench", embedder.model_id, embedder.dim)  # an empty graph of a user's: not ours either
    with pytest.raises(InputError):
        run_bench(data, embedder, db=db, measure_embed=False)
    db.drop_graph("bench_sample_bench")
    try:
        first = run_bench(data, embedder, db=db, measure_embed=False)
        again = run_bench(data, embedder, db=db, measure_embed=False)  # the benchmark's own graph: rebuilt
        assert first["graph"] == again["graph"] == "bench_sample_bench" and first["passages"] == again["passages"]
    finally:
        db.drop_graph("bench_sample_bench")


def test_a_missing_openie_file_is_said_before_a_graph_is_made(db, embedder):
    """The run made (and kept) an empty bench graph before finding that the OpenIE file was missing."""
    data = replace(load_bench(SAMPLE_BENCH), openie=None)
    with pytest.raises(FileNotFoundError, match="no openie"):
        run_bench(data, embedder, db=db, measure_embed=False)
    assert db.graph_info("bench_sample_bench") is None


def test_bench_unanswerable_asks_each_question_again_without_its_gold_passages(minilm, tmp_path, capsys):
    """--answers --unanswerable: the second half excludes the gold passages through the query filter, and the
    verdict rates of both halves are reported per method, with intervals."""
    from vgrag.cli import main

    out = tmp_path / "r.json"
    args = ["bench", "--data", str(SAMPLE_BENCH), "--methods", "naive,graph", "--no-embed-baseline", "--answers",
            "--unanswerable", "--db", str(tmp_path / "u.db"), "--out", str(out)]  # fmt: skip
    assert main(args) == 0
    r = json.loads(out.read_text())
    gold = {q.id: q.gold for q in load_bench(SAMPLE_BENCH).questions}
    corpus = {p["title"]: p["text"] for p in json.loads((SAMPLE_BENCH / "corpus.json").read_text())}
    for m in ("naive", "graph"):
        v = r["methods"][m]["verdict"]
        assert v["unanswerable"]["n"] == v["answerable"]["n"] == len(r["questions"])
        for half in v.values():
            assert round(half["found"] + half["partly"] + half["missing"]) == 100 and len(half["missing_ci95"]) == 2
        for q in r["questions"]:
            hidden = " ".join(q[m]["excluded"]["evidence"])
            assert q[m]["excluded"]["verdict"] in ("found", "partly", "missing")
            assert not any(s in hidden for t in gold[q["id"]] for s in corpus.get(t, "\0").split(". ")[:1])
    assert "made unanswerable" in capsys.readouterr().out

from __future__ import annotations

import json
from conftest import BENCH

from vgrag.bench import load_bench, parse_questions, recall_at, run_bench


def test_recall_rule_matches_hand_computation():
    gold = frozenset({"a", "b"})
    assert recall_at(["a", "x", "b"], gold, 1) == 0.5
    assert recall_at(["a", "x", "b"], gold, 2) == 0.5
    assert recall_at(["a", "x", "b"], gold, 5) == 1.0
    assert recall_at([], gold, 5) == 0.0 and recall_at(["a"], frozenset(), 5) == 0.0


def test_gold_rules_for_both_formats():
    data = load_bench(BENCH / "test_sample")
    assert len(data.questions) == 10 and len(data.corpus) == 20 and data.openie is not None
    q = data.questions[0]
    assert q.by_title and q.gold == frozenset({"Albert Einstein"})
    musique = json.loads((BENCH / "musique_train" / "questions.json").read_text())[:3]
    mq = parse_questions(musique)
    assert not mq[0].by_title
    gold0 = {f"{p['title']}\n{p['paragraph_text']}" for p in musique[0]["paragraphs"] if p["is_supporting"]}
    assert mq[0].gold == gold0 and len(gold0) >= 2


def test_bench_on_test_sample_known_values(minilm, tmp_path):
    """Measured once with the offline MiniLM: naive 100 at k=5, graph 100 at k=5 on the 10 sample questions."""
    data = load_bench(BENCH / "test_sample")
    r = run_bench(data, minilm, db_uri=str(tmp_path / "b.db"), measure_embed=False)
    assert r["n_questions"] == 10
    assert r["methods"]["naive"]["recall"]["5"] == 100.0
    assert r["methods"]["graph"]["recall"]["5"] == 100.0
    assert r["methods"]["naive"]["recall"]["1"] == 55.0
    assert set(r["methods"]["graph"]["latency_ms"]) == {"median", "p90"}
    assert len(r["questions"]) == 10 and set(r["questions"][0]["graph"]) == {"1", "2", "5", "10"}

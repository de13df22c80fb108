"""The funnel's last stage is bench's Recall@k: the same graph, the same questions, the same runners, each method
(data/sample_bench with the offline MiniLM; the MuSiQue and HotpotQA figures: scripts/funnel_bench.py)."""

from __future__ import annotations

from conftest import SAMPLE_BENCH

from vgrag.evaluation.bench import run_bench
from vgrag.evaluation.data import load_bench
from vgrag.config import QueryParams
from vgrag.evaluation.funnel import bench_questions, paired_interval, run_funnels
from vgrag.storage.database import Database


def test_the_funnels_final_counts_equal_bench_recall_at_k_per_method(minilm, tmp_path):
    data = load_bench(SAMPLE_BENCH)
    db = Database(str(tmp_path / "b.db"))
    r = run_bench(data, minilm, methods=("naive", "hybrid", "graph"), db=db, measure_embed=False)
    graph = db.open_graph(r["graph"], minilm.model_id, minilm.dim)
    qs = bench_questions(graph, data.questions)
    assert all(g.passage_ids for q in qs for g in q.gold)  # every gold key names a passage of the graph
    for method in ("naive", "hybrid", "graph"):
        for k in (2, 5):
            m = run_funnels(graph, minilm, qs, method, QueryParams(), k=k)
            assert m.recall == r["methods"][method]["recall"][str(k)], (method, k)
            per_q = [q[method][str(k)] for q in r["questions"]]
            assert m.per_question() == per_q
    graph_run = run_funnels(graph, minilm, qs, "graph", k=5)
    assert graph_run.totals.stages[0] == "seeds" and graph_run.totals.stages[-1] == "top-k"
    assert sum(graph_run.totals.dropped) == graph_run.totals.n_gold - graph_run.totals.reached[-1]
    one_hop = run_funnels(graph, minilm, qs, "graph", QueryParams(hops=0), k=5)
    diff, lo, hi = paired_interval(one_hop.per_question(), graph_run.per_question())
    assert lo <= diff <= hi
    db.close()

"""The Ask page's "How this works" says what the code does with today's defaults: every knob value it names is
the QueryParams default, and a step that is off by default is not described as running."""

from __future__ import annotations

from dataclasses import replace

from vgrag.config import QueryParams
from vgrag.present.explain import HOW_IT_WORKS, how_it_works


def test_the_text_names_the_default_knob_values():
    p = QueryParams()
    assert HOW_IT_WORKS == how_it_works(p)
    for said in (
        f"the {p.entity_top_k} entities nearest to each span with no exact match (Entity top-k)",
        f"the {p.relation_top_k} relations nearest to the question (Relation top-k)",
        f"below a similarity of {p.sim_threshold:g} (Similarity threshold)",
        f"(Hops = {p.hops})",
        f"the {p.eviction_cap} candidates most similar to the question (Eviction cap)",
        f"keeping {p.rerank_keep} (Relations kept by rerank)",
        f"the question plus the top {p.evidence_relations} relations found",
        f"plus {p.relation_weight:g} times",
        f"the top {p.passage_top_k} (Passages)",
    ):
        assert said in HOW_IT_WORKS, said


def test_bm25_is_described_only_when_it_runs():
    assert QueryParams().lexical == "off"
    assert "no BM25 word search" in HOW_IT_WORKS and "fused" not in HOW_IT_WORKS
    fused = how_it_works(replace(QueryParams(), lexical="fused"))
    assert "fused by reciprocal rank with a BM25 word search" in fused
    assert "adds passages" in how_it_works(replace(QueryParams(), lexical="candidates"))


def test_other_knob_values_change_the_text():
    p = QueryParams(entity_top_k=7, hops=2, rerank="similarity", passage_top_k=9)
    text = how_it_works(p)
    assert "the 7 entities" in text and "2 hops (Hops = 2)" in text and "the top 9 (Passages)" in text
    assert "similarity to the question alone" in text and "LLM" not in text.split("(7)")[0]


def test_how_it_works_tells_the_runs_own_knobs_and_method():
    """The Ask page said the default knobs whatever the run used, and described the graph pipeline for naive runs."""
    said = how_it_works(QueryParams(hops=2, eviction_cap=50, passage_top_k=3))
    assert "2 hops (Hops = 2)" in said and "the 50 candidates" in said and "the top 3 (Passages)" in said
    naive = how_it_works(QueryParams(passage_top_k=3), "naive")
    assert naive.startswith("The naive method uses no graph") and "3 passages nearest" in naive
    hybrid = how_it_works(QueryParams(passage_top_k=4), "hybrid")
    assert "the 8 passages nearest" in hybrid and "reciprocal rank" in hybrid and "seeds" in hybrid


def test_an_eviction_that_changed_nothing_says_how_to_watch_it_work(graph, embedder):
    """On a small graph eviction never drops anything (walk22: "∅" in all 16 runs); the step says which cap would,
    and that cap does."""
    import re

    from test_retrieve import FACTS, Q

    from vgrag.present.explain import explain
    from vgrag.query.pipeline import run_query
    from vgrag.query.trace import Step
    from vgrag.storage.writer import SourceChunk, write_chunks

    write_chunks(graph, embedder, [SourceChunk("doc", "facts", t, i, (tr,)) for i, (t, tr) in enumerate(FACTS)])
    calm = run_query(Q, graph, embedder, QueryParams(hops=2))
    text = explain(calm, Step.EVICTION)
    hint = re.search(r"Set the cap below (\d+) to watch it drop the least similar", text)
    assert text.startswith("No change") and hint, text
    cap = int(hint.group(1)) - 1
    busy = run_query(Q, graph, embedder, QueryParams(hops=2, eviction_cap=cap))
    assert busy.eviction is not None and busy.eviction.evicted, busy.eviction
    assert "least similar to the question were dropped" in explain(busy, Step.EVICTION)

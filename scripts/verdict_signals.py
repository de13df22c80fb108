"""Dump candidate verdict signals per question, on both halves (as asked; with the gold passages excluded), from a
benchmark graph kept by `bench --db` — for scripts/fit_verdict.py (`--signals`).

Each signal is computed from the trace and the answer step the app builds (graph method, the app's defaults):
- ev_names / ev_words: the evidence sentences' coverage of the question's names / content words (#32's first pass);
- ev_linked: the share of content words said by evidence sentences that speak of the names (verdict.linked);
- exact: the share of the question's names the graph holds as an entity by exact name (inside the query's scope);
- name_sim: the weakest support of any name: 1 for an exact name, else its best entity search similarity;
- psg_names / psg_words: the same coverage as the evidence's, over every retrieved passage (title and text);
- titled: the share of the question's names that a retrieved passage is titled by (or whose title holds them);
- top_passage / top_relation: retrieval's best passage score and best selected relation's similarity;
- psg_gap / psg_margin: the best passage's score minus the 5th's / the 2nd's; rel_z: the best candidate relation's
  similarity in standard deviations above the candidates' mean; rel_margin: minus the best of another passage's;
- chain_sim: the similarity of the question to the best reasoning chain (its relations' vectors summed);
- verdict: the shipped verdict (query/verdict.py as it is when the dump is made).

    python scripts/verdict_signals.py /tmp/hv_mus.db bench_musique_train ../shared/bench/musique_train OUT.json
    python scripts/verdict_signals.py --upload tests/fixtures/observatory OUT.json   # a folder of files and its
    # questions.json ({"answerable": [[question, answer], ...], "unanswerable": [question, ...]}), ingested as a user
    # would (offline extraction, MiniLM) into a temporary Milvus Lite file
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vgrag.config import QueryParams  # noqa: E402
from vgrag.embed import make_embedder  # noqa: E402
from vgrag.evaluation.bench import answer_metrics, answer_scores  # noqa: E402
from vgrag.evaluation.data import load_bench  # noqa: E402
from vgrag.evaluation.verdict import gold_scope  # noqa: E402
from vgrag.query.answer import NO_READER, _chain_similarity, _evidence, extractive_answer, query_names  # noqa: E402
from vgrag.query.sentences import listed_sentences  # noqa: E402
from vgrag.query.verdict import linked  # noqa: E402
from vgrag.query.evidence import title_name  # noqa: E402
from vgrag.nlp import Lemmas  # noqa: E402
from vgrag.query.question import norm, read_question  # noqa: E402
from vgrag.query.retrieve import retrieve  # noqa: E402
from vgrag.query.trace import QueryTrace  # noqa: E402
from vgrag.storage.database import Database, quiet_storage_logs  # noqa: E402


LEX = Lemmas()


def _share(hit: list[bool]) -> float:
    return sum(hit) / len(hit) if hit else 1.0


def signals(trace: QueryTrace, step, golds: tuple[str, ...], graph) -> dict:  # type: ignore[no-untyped-def]
    names = query_names(trace)
    qents = trace.query_entities.entities if trace.query_entities else ()
    exact_texts = {norm(q.text) for q in qents if q.method == "exact-name"}
    best: dict[str, float] = {}
    if trace.seeds is not None:
        for s in trace.seeds.entity_hits + trace.seeds.below_threshold:
            best[norm(s.via)] = max(best.get(norm(s.via), 0.0), s.score)
    support = [1.0 if norm(n) in exact_texts else best.get(norm(n), 0.0) for n in names]
    passages = trace.passages.passages if trace.passages else ()
    texts = [f" {norm(p.title)} {norm(p.text)} " for p in passages]
    titles = [f" {title_name(p.title)} " for p in passages]
    asked = read_question(trace.question, names, LEX)
    every = frozenset().union(*asked.lemmas) if asked.lemmas else frozenset()
    have = LEX.found(every, " ".join(p.text for p in passages)) if every and passages else frozenset()
    v = step.verdict
    listed = listed_sentences(passages, graph.tags)
    split = listed.split
    chosen = _evidence(listed, asked, names, NO_READER)[0] if passages else []
    near = set().union(*(c.words for c in linked(names, chosen, split))) if chosen else set()
    state = trace.state
    chains = [_chain_similarity(state.vector, [state.relation_vectors[r] for r in p if r in state.relation_vectors])
              for p in step.paths] if state is not None else []  # fmt: skip
    ranked = sorted(trace.relations, key=lambda r: -r.similarity)
    other = [r.similarity for r in ranked[1:] if ranked and not set(r.passage_ids) & set(ranked[0].passage_ids)]
    rel_sims = sorted((r.similarity for r in trace.relations), reverse=True)
    sel = set(trace.rerank.selected) if trace.rerank else set()
    sims = [r.similarity for r in trace.relations if r.id in sel]
    return {
        "names": list(names),
        "words": list(asked.words),
        "verdict": v.kind if v else None,
        "name_share": v.name_share if v else 0.0,  # the shipped verdict's own name share (its names, its passages)
        "ev_names": _share([any(n in c.names for c in chosen) for n in names]),
        "ev_words": v.word_share if v else 0.0,
        "exact": _share([norm(n) in exact_texts for n in names]),
        "name_sim": min(support) if support else 1.0,
        "psg_names": _share([any(f" {norm(n)} " in t for t in texts) for n in names]),
        "psg_words": _share([bool(w & have) for w in asked.lemmas]),
        "titled": _share(
            [any(f" {norm(n)} " in t or t.strip() and t in f" {norm(n)} " for t in titles) for n in names]
        ),  # fmt: skip
        "ev_linked": _share([i in near for i in range(len(asked.words))]),
        "top_passage": passages[0].score if passages else 0.0,
        "psg_gap": passages[0].score - passages[-1].score if passages else 0.0,
        "rel_z": (rel_sims[0] - float(np.mean(rel_sims))) / (float(np.std(rel_sims)) or 1.0) if rel_sims else 0.0,
        "top_relation": max(sims) if sims else 0.0,
        "chain_sim": chains[0] if chains else 0.0,
        "rel_margin": ranked[0].similarity - (other[0] if other else 0.0) if ranked else 0.0,
        "psg_margin": passages[0].score - passages[1].score if len(passages) > 1 else 0.0,
        "best_chain": max(chains) if chains else 0.0,
        "sources": [p.source for p in passages],
        "evidence": [e.sentence for e in step.evidence],
        "evidence_contains": answer_metrics(step, golds)["evidence_contains"],
        "passages_contain": answer_scores(" ".join(p.text for p in passages), golds)["contains"],
    }


def upload(folder: Path, out: Path) -> None:
    import tempfile

    from vgrag.workspace import Workspace
    from vgrag.config import Settings

    spec = json.loads((folder / "questions.json").read_text())
    if isinstance(spec, list):  # the demo's shape: questions.json and unanswerable.json, lists of questions
        spec = {
            "answerable": [[q, ""] for q in spec],
            "unanswerable": json.loads((folder / "unanswerable.json").read_text()),
        }
    kinds = (".md", ".txt", ".html", ".pdf", ".docx")
    files = sorted(p for p in folder.iterdir() if p.suffix in kinds and p.stem != "README")
    triples = sorted(p for p in folder.iterdir() if p.suffix == ".jsonl")
    with tempfile.TemporaryDirectory(prefix="vgrag-upload-") as tmp:
        ws = Workspace.open(Settings(milvus_uri=str(Path(tmp) / "u.db"), graph="upload"))
        if files:
            ws.add_documents(files)
        for t in triples:
            ws.import_triples(t)
        g = ws.graph()
        rows = []
        asked = [(q, (a,), True) for q, a in spec["answerable"]] + [(q, (), False) for q in spec["unanswerable"]]
        for q, gold, answerable in asked:
            trace = retrieve(q, g, ws.embedder, QueryParams())
            row = signals(trace, extractive_answer(trace, ws.embedder, g), gold, g)
            rows.append({"question": q, "gold": list(gold), "answerable": answerable, "asked": row})
        ws.close()
    out.write_text(json.dumps({"upload": str(folder), "questions": rows}, indent=1))


def main() -> None:
    if sys.argv[1:2] == ["--upload"]:
        quiet_storage_logs()
        return upload(Path(sys.argv[2]), Path(sys.argv[3]))
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("db")
    ap.add_argument("graph")
    ap.add_argument("data")
    ap.add_argument("out")
    a = ap.parse_args()
    quiet_storage_logs()
    embedder = make_embedder("minilm")
    graph = Database(a.db).open_graph(a.graph, embedder.model_id, embedder.dim, create=False)
    data = load_bench(a.data)
    key_of = (lambda p: p.title) if data.questions[0].by_title else (lambda p: f"{p.title}\n{p.text}")
    scope_of = gold_scope(graph, key_of)
    params = replace(QueryParams())
    rows = []
    for q in data.questions:
        row: dict = {"id": q.id, "question": q.question, "gold": list(q.answers)}
        for half, scope in (("asked", None), ("hidden", scope_of(q.gold))):
            trace = retrieve(q.question, graph, embedder, params, scope=scope)
            row[half] = signals(trace, extractive_answer(trace, embedder, graph), q.answers, graph)
        rows.append(row)
    Path(a.out).write_text(json.dumps({"graph": a.graph, "data": a.data, "questions": rows}, indent=1))


if __name__ == "__main__":
    main()

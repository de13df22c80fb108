"""The answer step: reasoning paths over the selected relations; offline, an extractive evidence chain with
citations; with an LLM, one bounded (optionally streamed) call citing the numbered passages."""

from __future__ import annotations

import re
import time
from collections import defaultdict
from collections.abc import Callable, Sequence

import numpy as np

from .embed import Embedder, embed_queries
from .llm import NO_DEADLINE, Deadline, LLMError, OpenAILLM, call_record
from .question import norm, stems
from .reader import read_answer
from .store import Graph
from .text import split_sentences
from .trace import AnswerStep, Citation, LLMCall, QueryTrace, RankedPassage, RelationView, ms_since

MAX_PATHS = 300  # candidate chains enumerated per query
RESCORE_PATHS = 4  # of those, the best by the cheap score are re-scored as a whole


def _candidate_paths(trace: QueryTrace, max_len: int) -> list[tuple[RelationView, ...]]:
    """Chains of selected relations starting at the question's entities (or at seed relations' subjects)."""
    rels = [r for r in (trace.relation(i) for i in trace.rerank.selected) if r is not None]  # type: ignore[union-attr]
    adj: dict[str, list[tuple[str, RelationView]]] = defaultdict(list)
    for r in rels:
        adj[r.subject_id].append((r.object_id, r))
        adj[r.object_id].append((r.subject_id, r))
    starts = [s.id for s in trace.seeds.entity_hits]  # type: ignore[union-attr]
    if not starts:
        starts = [r.subject_id for r in (trace.relation(s.id) for s in trace.seeds.relation_hits) if r]  # type: ignore[union-attr]
    found: list[tuple[RelationView, ...]] = []

    def walk(node: str, path: tuple[RelationView, ...], visited: frozenset[str]) -> None:
        if len(found) >= MAX_PATHS:
            return
        if path:
            found.append(path)
        if len(path) >= max_len:
            return
        for nxt, r in adj.get(node, []):
            if nxt not in visited and r not in path:
                walk(nxt, path + (r,), visited | {nxt})

    for s in dict.fromkeys(starts):
        walk(s, (), frozenset({s}))
    return found


def path_score(question_stems: frozenset[str], similarity: float, path: Sequence[RelationView]) -> float:
    """Half similarity, half coverage of the question's content words; a relation adding no covered word costs."""
    covered: set[str] = set()
    idle = 0
    for r in path:
        new = (stems(r.text) & question_stems) - covered
        idle += not new
        covered |= new
    coverage = len(covered) / max(len(question_stems), 1)
    return 0.5 * similarity + 0.5 * coverage - 0.05 * idle


def reasoning_paths(
    trace: QueryTrace, embedder: Embedder | None = None, graph: Graph | None = None, max_len: int = 3, limit: int = 5
) -> tuple[tuple[str, ...], ...]:
    """The chains that best explain the question (see path_score): their similarity to the question and how many of
    the question's content words they account for. All chains are first scored with the mean of their relations'
    similarities (computed by retrieval); with the embedder and the graph, the best RESCORE_PATHS are re-scored by the
    similarity of the question to the chain as a whole (a chain can match the question better than any of its
    relations): the sum of its relations' stored vectors, so no text is embedded. Embedding the chains' texts
    instead cost ~10 ms a query and gave the same answer metrics on both dev sets."""
    if trace.rerank is None or trace.seeds is None:
        return ()
    paths = _candidate_paths(trace, max_len)
    if not paths:
        return ()
    q = stems(trace.question)
    scores = [path_score(q, sum(r.similarity for r in p) / len(p), p) for p in paths]
    if embedder is not None and graph is not None:
        keep = sorted(range(len(paths)), key=lambda i: -scores[i])[:RESCORE_PATHS]
        paths = [paths[i] for i in keep]
        question = embed_queries(embedder, [trace.question])[0]  # cached by retrieval
        ids = list(dict.fromkeys(r.id for p in paths for r in p))
        stored = {rel.id: v for rel, v in graph.get_with_vectors("relations", ids)}
        scores = [path_score(q, _chain_similarity(question, [stored[r.id] for r in p if r.id in stored]), p)
                  for p in paths]  # fmt: skip
    order = sorted(range(len(paths)), key=lambda i: (-scores[i], len(paths[i])))
    out: list[tuple[str, ...]] = []
    for i in order:
        ids = tuple(r.id for r in paths[i])
        if not any(set(ids) <= set(o) for o in out):
            out.append(ids)
        if len(out) >= limit:
            break
    return tuple(out)


def _chain_similarity(question: np.ndarray, vectors: list[np.ndarray]) -> float:
    """Cosine between the question and the sum of a chain's relation vectors (0 without any)."""
    if not vectors:
        return 0.0
    total = np.sum(vectors, axis=0)
    size = float(np.linalg.norm(total) * np.linalg.norm(question))
    return float(total @ question) / size if size else 0.0


_PRONOUN = re.compile(r"^(He|She|It|They|Its|His|Her|Their)\b")


def _with_subject(sentence: str, title: str) -> str:
    """A quoted sentence that starts with a pronoun gets its passage's title, so it reads on its own."""
    return f"{title}: {sentence}" if title and _PRONOUN.match(sentence) else sentence


Picked = tuple[str, str, str, str]  # (sentence, passage id, passage title, passage text)


def extractive_answer(
    trace: QueryTrace, embedder: Embedder, graph: Graph | None = None, n_sentences: int = 2
) -> AnswerStep:
    """Offline answer: the reader's short answer (or an abstention) followed by the evidence: along the best
    reasoning path, each relation's best supporting sentence, cited; without a path, the sentences of the top
    passages closest to the question."""
    t0 = time.perf_counter()
    ranked = {p.id: p for p in (trace.passages.passages if trace.passages else ())}
    paths = reasoning_paths(trace, embedder, graph)
    picked = _chain_sentences(trace, paths[0], graph, ranked) if paths and graph is not None else []
    if not picked:
        if not ranked:
            ms = ms_since(t0)
            return AnswerStep("No passage in the graph matches this question.", (), paths, "extractive", ms)
        picked = _closest_sentences(trace.question, embedder, list(ranked.values())[:3], n_sentences)
    # the reader: the short answer of the asked type the evidence supports best, or an honest abstention
    pool = list(dict.fromkeys([(p.id, p.title, p.text) for p in ranked.values()]
                              + [(pid, t, x) for _, pid, t, x in picked if pid not in ranked]))  # fmt: skip
    names = sorted({n for r in trace.relations for n in (r.subject, r.object)})
    tags = graph.tags if graph is not None else None  # tagged at ingest: no NER waits for the question
    read = read_answer(trace.question, [(t, x) for _, t, x in pool], _bridge(trace, paths), names, tags)
    if read.sentence:
        pid, title, ptext = pool[read.passage_index]
        picked = [(read.sentence, pid, title, ptext)] + [x for x in picked if x[0] != read.sentence]
    evidence, cites = _cite(ranked, picked)
    if read.abstained:
        text = f"The documents don't say ({read.why}). Closest evidence: {evidence}"
    else:
        text = f"{read.short} — {evidence}"
    return AnswerStep(
        text=text,
        citations=cites,
        paths=paths,
        method="extractive",
        ms=ms_since(t0),
        short=read.short,
        abstained=read.abstained,
        asked=read.asked,
        how=read.how,
    )


def _chain_sentences(
    trace: QueryTrace, path: tuple[str, ...], graph: Graph, ranked: dict[str, RankedPassage]
) -> list[Picked]:
    """For each relation of the chain, the sentence of its passage (a retrieved one when it has one) that states
    it: the one with most of the relation's words, the first on ties; each sentence once."""
    chain = [r for r in (trace.relation(i) for i in path) if r is not None]
    need = [pid for r in chain for pid in r.passage_ids[:1] if pid not in ranked]
    texts = {p.id: (p.title, p.text) for p in graph.get_passages(need)}
    texts.update({pid: (p.title, p.text) for pid, p in ranked.items()})
    picked: list[Picked] = []
    for r in chain:
        pid = next((p for p in r.passage_ids if p in ranked), r.passage_ids[0] if r.passage_ids else None)
        if pid is None or pid not in texts:
            continue
        title, text = texts[pid]
        words = stems(r.text)
        best = max(split_sentences(text) or [text], key=lambda x: len(stems(x) & words))
        if all(best != x[0] for x in picked):
            picked.append((best, pid, title, text))
    return picked


def _closest_sentences(question: str, embedder: Embedder, passages: list[RankedPassage], n: int) -> list[Picked]:
    """The n sentences of these passages most similar to the question, in reading order."""
    sents = [(s, p) for p in passages for s in split_sentences(p.text)]
    vecs = np.concatenate([embed_queries(embedder, [question]), embedder.embed([s for s, _ in sents])])
    best = np.argsort(-(vecs[1:] @ vecs[0]))[:n]
    return [(sents[i][0], sents[i][1].id, sents[i][1].title, sents[i][1].text) for i in sorted(best)]


def _cite(ranked: dict[str, RankedPassage], picked: list[Picked]) -> tuple[str, tuple[Citation, ...]]:
    """The evidence text with [n] marks, and its citations. A passage's number is its place in the retrieved list
    (as the page, the JSON and the replay show it); a chain passage outside the top k continues the numbering."""
    number: dict[str, int] = {pid: n for n, pid in enumerate(ranked, 1)}
    for _, pid, _, _ in picked:
        number.setdefault(pid, len(number) + 1)
    evidence = " ".join(f"{_with_subject(s, title)} [{number[pid]}]" for s, pid, title, _ in picked)
    cites: dict[str, Citation] = {}
    for _, pid, title, ptext in picked:
        cites.setdefault(pid, Citation(number[pid], pid, title, ptext))
    return evidence, tuple(cites.values())


def _bridge(trace: QueryTrace, paths: tuple[tuple[str, ...], ...]) -> dict[str, float]:
    """What the best reasoning chains say about each entity as an answer: a chain's end entities are reached
    (weighted by the chain's rank: 0.2, 0.1, 0.05); the best chain's middle entities are bridges, usually not the
    answer (-0.1, not excluded: a chain may run one hop too far). Names normalised like candidate answers. The
    weights are half what they were: on both dev sets a chain's end was as often the bridge or a name of the
    question's own entity as the answer."""
    out: dict[str, float] = {}
    for rank, (weight, path) in enumerate(zip((0.2, 0.1, 0.05), paths, strict=False)):
        rels = [r for r in (trace.relation(i) for i in path) if r is not None]
        seen: dict[str, int] = {}
        for r in rels:
            for name in (r.subject, r.object):
                seen[norm(name)] = seen.get(norm(name), 0) + 1
        for name, count in seen.items():
            if count == 1:
                out[name] = max(out.get(name, 0.0), weight)
            elif rank == 0:
                out[name] = min(out.get(name, 0.0), -0.1)
    return out


def answer_messages(trace: QueryTrace) -> list[dict]:
    passages = trace.passages.passages if trace.passages else ()
    context = "\n\n".join(f"[{n}] {p.title}\n{p.text}" for n, p in enumerate(passages, 1))
    return [
        {
            "role": "system",
            "content": "Answer the question using only the numbered passages. Cite every claim "
            "with the passage numbers in brackets, like [1] or [2][3]. If the passages "
            "do not contain the answer, say that the context is not enough.",
        },
        {"role": "user", "content": f"Passages:\n{context}\n\nQuestion: {trace.question}"},
    ]


def cited_answer(trace: QueryTrace, text: str, call: LLMCall | None, ms: float, error: str | None = None) -> AnswerStep:
    """An answer text citing the trace's passages as [n]: citations resolved, numbers outside the list noted."""
    passages = trace.passages.passages if trace.passages else ()
    nums = [int(x) for x in re.findall(r"\[(\d+)\]", text)]
    used = sorted({n for n in nums if 1 <= n <= len(passages)})
    cites = tuple(Citation(n, passages[n - 1].id, passages[n - 1].title, passages[n - 1].text) for n in used)
    bad = sorted({n for n in nums if not 1 <= n <= len(passages)})
    notes = [x for x in (error, f"cited missing passage(s) {bad}" if bad else None) if x]
    if not text.strip():
        notes.append("empty answer")
    return AnswerStep(text.strip(), cites, (), "llm", ms, call, "; ".join(notes) or None)


def answer_llm(
    llm: OpenAILLM,
    trace: QueryTrace,
    on_delta: Callable[[str], None] | None = None,
    deadline: Deadline = NO_DEADLINE,
) -> AnswerStep:
    """One bounded call: an answer grounded in the retrieved passages, citing them as [1], [2] …; streamed
    piece by piece to on_delta when given. A reply cut at the cap or the deadline keeps its text and says so."""
    t0 = time.perf_counter()
    messages = answer_messages(trace)
    try:
        if on_delta is not None:
            r = llm.stream("answer", messages, on_delta, deadline=deadline)
        else:
            r = llm.complete("answer", messages, use_cache=False, deadline=deadline)
    except LLMError as e:
        call = call_record(llm, "answer", messages, failure=e)
        ms = ms_since(t0)
        if e.partial:  # a stream that broke midway: keep what arrived
            return cited_answer(trace, e.partial, call, ms, str(e))
        return AnswerStep("", (), (), "llm", ms, call, str(e))
    call = call_record(llm, "answer", messages, r)
    note = None
    if r.truncated == "deadline":
        note = f"stopped at the query deadline ({deadline.seconds:g} s); the text so far is shown"
    elif r.truncated:
        note = call.error
    return cited_answer(trace, r.text, call, ms_since(t0), note)

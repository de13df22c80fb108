"""The answer step: reasoning paths over the selected relations; offline, an extractive evidence chain with
citations; with an LLM, one bounded (optionally streamed) call citing the numbered passages."""

from __future__ import annotations

import re
import time
from collections import defaultdict
from collections.abc import Callable, Sequence

import numpy as np

from .embed import Embedder
from .llm import NO_DEADLINE, Deadline, LLMError, OpenAILLM, call_record
from .nlp import STOPWORDS
from .store import Graph
from .text import split_sentences
from .trace import AnswerStep, Citation, LLMCall, QueryTrace, RelationView

MAX_PATHS = 300  # candidate chains enumerated per query
EMBED_PATHS = 24  # of those, the best by coverage and rerank score are embedded and scored fully


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


_WORD = re.compile(r"\w+", re.UNICODE)


def _stems(text: str) -> set[str]:
    """Content words cut to 5 letters: a crude, language-light stem ("operates" ~ "operated")."""
    return {w[:5] for w in _WORD.findall(text.casefold()) if w not in STOPWORDS and len(w) > 1}


def path_score(question_stems: set[str], similarity: float, path: Sequence[RelationView]) -> float:
    """Half similarity, half coverage of the question's content words; a relation adding no covered word costs."""
    covered: set[str] = set()
    idle = 0
    for r in path:
        new = (_stems(r.text) & question_stems) - covered
        idle += not new
        covered |= new
    coverage = len(covered) / max(len(question_stems), 1)
    return 0.5 * similarity + 0.5 * coverage - 0.05 * idle


def reasoning_paths(
    trace: QueryTrace, embedder: Embedder | None = None, max_len: int = 3, limit: int = 5
) -> tuple[tuple[str, ...], ...]:
    """The chains that best explain the question: the question's similarity to the chain's text plus how many of
    the question's content words the chain accounts for (see path_score); rerank scores without an embedder."""
    if trace.rerank is None or trace.seeds is None:
        return ()
    paths = _candidate_paths(trace, max_len)
    if not paths:
        return ()
    rs = {c.id: c.score for c in trace.rerank.candidates}
    q = _stems(trace.question)
    cheap = [path_score(q, sum(rs.get(r.id, 0.0) for r in p) / len(p), p) for p in paths]
    if embedder is not None:  # embed only the most promising chains (embedding dominates the answer step)
        keep = sorted(range(len(paths)), key=lambda i: -cheap[i])[:EMBED_PATHS]
        paths = [paths[i] for i in keep]
        vecs = embedder.embed([trace.question] + [". ".join(r.text for r in p) for p in paths])
        scores = [path_score(q, float(sim), p) for sim, p in zip(vecs[1:] @ vecs[0], paths, strict=True)]
    else:
        scores = cheap
    order = sorted(range(len(paths)), key=lambda i: (-scores[i], len(paths[i])))
    out: list[tuple[str, ...]] = []
    for i in order:
        ids = tuple(r.id for r in paths[i])
        if not any(set(ids) <= set(o) for o in out):
            out.append(ids)
        if len(out) >= limit:
            break
    return tuple(out)


_PRONOUN = re.compile(r"^(He|She|It|They|Its|His|Her|Their)\b")


def _with_subject(sentence: str, title: str) -> str:
    """A quoted sentence that starts with a pronoun gets its passage's title, so it reads on its own."""
    return f"{title}: {sentence}" if title and _PRONOUN.match(sentence) else sentence


def extractive_answer(
    trace: QueryTrace, embedder: Embedder, graph: Graph | None = None, n_sentences: int = 2
) -> AnswerStep:
    """Offline answer: along the best reasoning path, each relation's best supporting sentence, cited;
    without a path, the sentences of the top passages closest to the question."""
    t0 = time.perf_counter()
    paths = reasoning_paths(trace, embedder)
    ranked = {p.id: p for p in (trace.passages.passages if trace.passages else ())}
    picked: list[tuple[str, str, str, str]] = []  # (sentence, passage id, title, passage text)
    if paths and graph is not None:
        chain = [r for r in (trace.relation(i) for i in paths[0]) if r is not None]
        need = [pid for r in chain for pid in r.passage_ids[:1] if pid not in ranked]
        texts = {p.id: (p.title, p.text) for p in graph.get_passages(need)}
        texts.update({pid: (p.title, p.text) for pid, p in ranked.items()})
        steps = []  # (relation, passage id, that passage's sentences)
        for r in chain:
            pid = next((p for p in r.passage_ids if p in ranked), r.passage_ids[0] if r.passage_ids else None)
            if pid is not None and pid in texts:
                steps.append((r, pid, split_sentences(texts[pid][1]) or [texts[pid][1]]))
        # one embedding call for every relation and every candidate sentence of the chain
        vecs = embedder.embed([r.text for r, _, _ in steps] + [x for _, _, sents in steps for x in sents])
        offset = len(steps)
        for n, (_r, pid, sents) in enumerate(steps):
            sims = vecs[offset : offset + len(sents)] @ vecs[n]
            offset += len(sents)
            best = sents[int(np.argmax(sims))]
            if all(best != x[0] for x in picked):
                picked.append((best, pid, texts[pid][0], texts[pid][1]))
    if not picked:
        passages = list(ranked.values())[:3]
        if not passages:
            return AnswerStep(
                "No passage in the graph matches this question.",
                (),
                paths,
                "extractive",
                round((time.perf_counter() - t0) * 1000, 2),
            )
        sents = [(s, p) for p in passages for s in split_sentences(p.text)]
        vecs = embedder.embed([trace.question] + [s for s, _ in sents])
        best = np.argsort(-(vecs[1:] @ vecs[0]))[:n_sentences]
        picked = [(sents[i][0], sents[i][1].id, sents[i][1].title, sents[i][1].text) for i in sorted(best)]
    # citations carry the passage's number in the retrieved list (as the page, the JSON and the replay show it);
    # a chain passage outside the top k continues the numbering
    number: dict[str, int] = {pid: n for n, pid in enumerate(ranked, 1)}
    for _, pid, _, _ in picked:
        number.setdefault(pid, len(number) + 1)
    text = " ".join(f"{_with_subject(s, title)} [{number[pid]}]" for s, pid, title, _ in picked)
    seen: set[str] = set()
    cites = []
    for _, pid, title, ptext in picked:
        if pid not in seen:
            seen.add(pid)
            cites.append(Citation(number[pid], pid, title, ptext))
    return AnswerStep(text, tuple(cites), paths, "extractive", round((time.perf_counter() - t0) * 1000, 2))


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
        ms = round((time.perf_counter() - t0) * 1000, 2)
        if e.partial:  # a stream that broke midway: keep what arrived
            return cited_answer(trace, e.partial, call, ms, str(e))
        return AnswerStep("", (), (), "llm", ms, call, str(e))
    call = call_record(llm, "answer", messages, r)
    note = None
    if r.truncated == "deadline":
        note = f"stopped at the query deadline ({deadline.seconds:g} s); the text so far is shown"
    elif r.truncated:
        note = call.error
    return cited_answer(trace, r.text, call, round((time.perf_counter() - t0) * 1000, 2), note)

"""The answer step: reasoning paths over the selected relations; offline, the evidence sentences (cited, names
marked) and a verdict on them (found / partly found / not in these documents, verdict.py) — a short answer only from
a Reader given explicitly (none by default: no offline reader reached 50 % held-out precision); with an LLM, one
bounded (optionally streamed) call citing the numbered passages, whose "not in the documents" is the same verdict."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence

from ..embed import Embedder
from ..llm import NO_DEADLINE, Deadline, LLMError, OpenAILLM, call_record
from ..storage.store import Graph
from .evidence import Sentence, choose, describe
from ..nlp import Lemmas, stop_words
from .question import Asked, norm, read_question
from .reader import Chain, Reader, Reading
from .sentences import Sentences, listed_sentences
from .trace import AnswerStep, Citation, Evidence, LLMCall, Mark, QueryTrace, ms_since
from .absent import not_mentioned
from .aliases import alias_forms, stated_by_alias
from .paths import _chain_similarity, reasoning_paths  # noqa: F401  (re-exported: pipeline, scripts)
from .elsewhere import written_elsewhere
from .filler import own_answer
from .referents import referents, resolved_names, restated
from .scope import scope_for
from .verdict import NOT_IN_DOCUMENTS, judge, model_verdict, relation_z

_FIGURE = re.compile(r"(?<![\w.,:])\d+(?:[.,:]\d+)*(?![\w])")

def _joined(names: list[str], question: str) -> list[str]:
    """Names that overlap where the question writes them, as the one name they are part of ("9 February" and
    "February 2026" of "on 9 February 2026": the date, not two names the evidence must each state)."""
    low = question.casefold()
    for a, b in ((a, b) for a in names for b in names if a != b):
        i, j = low.find(a.casefold()), low.find(b.casefold())
        if 0 <= i < j < i + len(a) < j + len(b):  # a's end overlaps b's start: the span from a's start to b's end
            return _joined(list(dict.fromkeys(question[i : j + len(b)] if n in (a, b) else n for n in names)), question)
    return names


def _only_names(span: str, names: set[str]) -> bool:
    """Whether the (normalised) span is nothing but these names side by side ("bellhaven sauvignon blanc")."""
    left = f" {span} "
    for k in sorted(names, key=len, reverse=True):
        left = left.replace(f" {k} ", " ")
    return not left.strip()


def cut_at_point(name: str, question: str) -> bool:
    """Whether the question writes the name only as the start of a dotted figure ("Larkspur 3" of "Larkspur 3.2.1",
    a version or a section number cut at its first point): the name is what comes before the figure ("Larkspur",
    "TLS" of "TLS 1.3"); the figure is one of the question's own (`query_names`)."""
    hits = [m.end() for m in re.finditer(re.escape(name), question)]
    return bool(hits) and all(re.match(r"\.\d", question[e : e + 2]) for e in hits)


def query_names(trace: QueryTrace) -> tuple[str, ...]:
    """The question's names as retrieval found them (its query entities, not parsed again): the capitalised ones or
    figures ("film", "wrote" are words it asks with, not names), without a span that only glues a leading question
    word to names also found alone ("Are Christopher Nolan and Sathish Kalathil"), without a capitalised span that
    no entity is named and that is only names the graph has, side by side ("Bellhaven Sauvignon Blanc": "Bellhaven"
    and "Sauvignon Blanc"; "Black Hawk Township" stays a name beside "Black Hawk"), and with every figure the question
    writes ("… won a trophy in 2022?": the year is part of what is asked, as a name the evidence must state)."""
    if trace.query_entities is None:
        return ()
    ents = trace.query_entities.entities
    found = [re.sub(r"['’]s$", "", e.text.strip()) for e in ents]
    names = list(dict.fromkeys(n for n in found if n[:1].isupper() or n[:1].isdigit()))
    stop = stop_words()
    names = [n for n in names if not (n.split()[0].lower() in stop and any(m != n and m in n for m in names))]
    exact = {norm(e.text) for e in ents if e.entity_id is not None and (e.text[:1].isupper() or e.text[:1].isdigit())}
    spans = {norm(n) for e, n in zip(ents, found, strict=True) if e.entity_id is None} - exact
    names = [n for n in names if not (norm(n) in spans and _only_names(norm(n), exact - {norm(n)}))]
    names = [re.sub(r"\W*\d+$", "", n) if cut_at_point(n, trace.question) else n for n in names]  # "TLS 1" → "TLS"
    names = _joined(list(dict.fromkeys(n for n in names if n)), trace.question)
    figures = [f for f in _FIGURE.findall(trace.question) if not any(f" {norm(f)} " in f" {norm(n)} " for n in names)]
    return tuple(dict.fromkeys([*names, *figures]))


def chain_of(trace: QueryTrace, paths: tuple[tuple[str, ...], ...]) -> Chain:
    """Where the best chains end (names not at their start), and each name's distance in selected relations from
    the question's entities."""
    rels = [r for r in (trace.relation(i) for i in trace.rerank.selected) if r is not None] if trace.rerank else []
    start = {s.id for s in trace.seeds.entity_hits} if trace.seeds else set()
    dist = {e: 0 for e in start}
    frontier = set(start)
    for depth in (1, 2):
        nxt = set()
        for r in rels:
            for a, b in ((r.subject_id, r.object_id), (r.object_id, r.subject_id)):
                if a in frontier and b not in dist:
                    dist[b] = depth
                    nxt.add(b)
        frontier = nxt
    reach = {norm(trace.entity_name(e)): d for e, d in dist.items() if d}
    ends: set[str] = set()
    for path in paths[:3]:
        chain = [r for r in (trace.relation(i) for i in path) if r is not None]
        if chain:
            ends |= {norm(chain[-1].object), norm(chain[-1].subject)} - {norm(chain[0].subject)}
    names = {norm(trace.entity_name(e)) for e in start}
    return Chain(frozenset(ends - names), reach)


def _marks(sentence: str, names: Sequence[str], answer: str) -> tuple[Mark, ...]:
    """Where the question's names and the short answer stand in the sentence (case-insensitive, whole spans)."""
    out: list[Mark] = []
    low = sentence.casefold()
    for text, kind in [(n, "name") for n in names] + ([(answer, "answer")] if answer else []):
        for m in re.finditer(re.escape(text.casefold()), low):
            if not any(m.start() < x.end and x.start < m.end() for x in out):
                out.append(Mark(m.start(), m.end(), kind))  # type: ignore[arg-type]
    return tuple(sorted(out, key=lambda x: x.start))


def _evidence(
    sentences: Sentences, asked: Asked, names: tuple[str, ...], reading: Reading, resolved: Sequence[Sequence[str]]
) -> tuple[list[Sentence], frozenset[int]]:
    """The evidence sentences (evidence.choose) from every sentence of the retrieved passages (the one `Sentences`
    the reader reads too, with the named entities stored at ingest and the names their pronouns stand for), the short
    answer's first when one is shown; and the question's content words (indices) any of those sentences says."""
    said = describe(asked.lemmas, names, sentences.split, sentences.tags, asked.lex, resolved)
    best = reading.best if reading.short else None
    first = next((s for s in said if best and s.passage == best.passage_index and s.text == best.sentence), None)
    return choose(said, first), frozenset().union(*(s.words for s in said))


NO_READER = Reading("", 0.0, None, "offline answers are the cited evidence and its verdict", "")


def extractive_answer(
    trace: QueryTrace,
    embedder: Embedder,
    graph: Graph | None = None,
    reader: Reader | None = None,
    lex: Lemmas | None = None,
) -> AnswerStep:
    """Offline answer: the evidence sentences first (from the retrieved passages only, so every [n] is a passage
    of the list shown) and the verdict on them; a short answer only from `reader` (none by default) when its
    confidence reaches its threshold. `lex`: the words' lemmas remembered across questions (default: a new one)."""
    t0 = time.perf_counter()
    lex = lex if lex is not None else Lemmas()
    passages = list(trace.passages.passages) if trace.passages else []
    paths = reasoning_paths(trace, embedder, graph, lex=lex)
    if not passages:
        verdict = judge((), (), ())
        return AnswerStep(verdict.said, (), paths, "extractive", ms_since(t0), abstained=True,
                          verdict=verdict)  # fmt: skip
    names = query_names(trace)
    asked = read_question(trace.question, names, lex)
    # as stored with the passages at ingest (older passages: split and tagged now, kept in the graph's memory);
    # the reader, the evidence and the verdict share them
    sentences = listed_sentences(passages, graph.tags if graph is not None else None)
    reading = reader.read(asked, sentences, chain_of(trace, paths)) if reader is not None else NO_READER
    spelt = stated_by_alias(sentences.split, alias_forms(graph, names))  # other spellings the graph records
    chosen, heard = _evidence(sentences, asked, names, reading, spelt)
    # who the evidence's "she", "the company" are: shown, and stated for the verdict
    found = referents(passages, sentences.split, {(s.passage, s.text) for s in chosen})
    also = [(*a, *b) for a, b in zip(spelt, resolved_names(found), strict=True)]
    chosen = restated(chosen, sentences.split, also, names)
    verdict = judge(names, asked.words, chosen, split=sentences.split, rel_z=relation_z(trace.relations),
                    kind=asked.kind_words, owners=asked.owners, anchors=asked.anchors, value=asked.value,
                    value_word=asked.value_word, lex=asked.lex, ties=asked.ties, governed=asked.governed,
                    resolved=also, predicate=asked.predicate)  # fmt: skip
    scope = trace.state.scope if trace.state is not None else None  # the documents retrieval read
    if verdict.kind == "missing" and graph is not None:  # read from the retrieved passages: are the others silent?
        verdict = written_elsewhere(verdict, asked, graph, scope or scope_for(graph, trace.params))
    if verdict.kind != "missing" and (asked.phrases or asked.value or asked.slot):  # a phrase, a value's verb or a
        # "who" question's role never mentioned
        verdict = not_mentioned(asked, heard, sentences.split, graph, trace.params, scope, chosen) or verdict
    verdict = own_answer(asked, chosen, verdict)  # "who … before X?" answered only by X
    refs = {(i, text): r for (i, _, text), r in zip(sentences.split, found, strict=True)}
    evidence = tuple(
        Evidence(s.passage + 1, passages[s.passage].id, passages[s.passage].title, s.text,
                 _marks(s.text, names, reading.short), refs.get((s.passage, s.text), ()))
        for s in chosen
    )  # fmt: skip
    cited = " ".join(f"{e.shown()} [{e.n}]" for e in evidence)
    if reading.short:
        text = f"{reading.short} — {cited}"
    else:
        text = f"{verdict.said} Evidence: {cited}"
    cites = {e.passage_id: Citation(e.n, e.passage_id, e.title, passages[e.n - 1].text) for e in evidence}
    return AnswerStep(
        text=text,
        citations=tuple(sorted(cites.values(), key=lambda c: c.n)),
        paths=paths,
        method="extractive",
        ms=ms_since(t0),
        short=reading.short,
        abstained=not reading.short,
        asked=asked.wh + (f" {asked.noun}" if asked.noun else ""),
        how=reading.signals,
        confidence=round(reading.confidence, 3),
        evidence=evidence,
        verdict=verdict,
    )


def answer_messages(trace: QueryTrace) -> list[dict]:
    passages = trace.passages.passages if trace.passages else ()
    context = "\n\n".join(f"[{n}] {p.title}\n{p.text}" for n, p in enumerate(passages, 1))
    return [
        {
            "role": "system",
            "content": "Answer the question using only the numbered passages. Cite every claim "
            "with the passage numbers in brackets, like [1] or [2][3]. If the passages "
            f"do not contain the answer, reply exactly: {NOT_IN_DOCUMENTS}.",
        },
        {"role": "user", "content": f"Passages:\n{context}\n\nQuestion: {trace.question}"},
    ]


def cited_answer(trace: QueryTrace, text: str, call: LLMCall | None, ms: float, error: str | None = None) -> AnswerStep:
    """An answer text citing the trace's passages as [n]: citations resolved, numbers outside the list noted."""
    passages = trace.passages.passages if trace.passages else ()
    nums = [int(x) for x in re.findall(r"\[(\d{1,9})\]", text)]  # [<5,000 digits>] is no citation (int() refuses it)
    used = sorted({n for n in nums if 1 <= n <= len(passages)})
    cites = tuple(Citation(n, passages[n - 1].id, passages[n - 1].title, passages[n - 1].text) for n in used)
    bad = sorted({n for n in nums if not 1 <= n <= len(passages)})
    if bad:  # every [n] shown is a passage of the list shown: a number outside it is marked, not shown as a citation
        text = re.sub(r"\[(\d{1,9})\]", lambda m: m.group(0) if 1 <= int(m.group(1)) <= len(passages)
                      else f"[not a listed passage: {m.group(1)}]", text)  # fmt: skip
    notes = [x for x in (error, f"cited missing passage(s) {bad}" if bad else None) if x]
    if not text.strip():
        notes.append("empty answer")
    return AnswerStep(text.strip(), cites, (), "llm", ms, call, "; ".join(notes) or None, verdict=model_verdict(text))


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

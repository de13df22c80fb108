"""The query's LLM calls — at most two: one rerank of candidate relations, one grounded answer."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import replace

from .config import LLMSettings
from .extract import parse_json_loose
from .llm import LLMError, OpenAILLM, make_llm
from .rerank import RerankInput, rerank_graph
from .trace import AnswerStep, Citation, LLMCall, QueryTrace, RerankStep, ScoredId

MAX_CANDIDATES = 60  # relations shown to the model, pre-ordered by the offline graph rerank


def _prompt_text(messages: list[dict]) -> str:
    return "\n\n".join(f"[{m['role']}]\n{m['content']}" for m in messages)


def parse_selected_ids(raw: str, n: int) -> tuple[list[int], int]:
    """Chosen 1-based ids in order from a reply ({"selected": [...]}, a list, or bare numbers); invalid ones counted."""
    data = parse_json_loose(raw)
    if isinstance(data, dict):
        data = data.get("selected") or data.get("ids") or data.get("relations") or []
    items = data if isinstance(data, list) else re.findall(r"\d+", raw)
    out: list[int] = []
    bad = 0
    for x in items:
        try:
            i = int(str(x).strip().strip("[]#"))
        except ValueError:
            bad += 1
            continue
        if 1 <= i <= n and i not in out:
            out.append(i)
        else:
            bad += 1
    return out, bad


def llm_rerank(llm: OpenAILLM, model: str, inp: RerankInput) -> RerankStep:
    """One call: the model picks the relations that answer the question, by short numeric ids."""
    t0 = time.perf_counter()
    offline = rerank_graph(inp)
    shown = [c.id for c in offline.candidates[:MAX_CANDIDATES]]
    lines = "\n".join(f"{n}. {inp.rels[rid].text}" for n, rid in enumerate(shown, 1))
    messages = [
        {
            "role": "system",
            "content": "You select the facts needed to answer a multi-hop question. Reply with JSON "
            '{"selected": [ids]} listing the ids of the useful facts, most useful first, '
            "including the bridge facts that connect the question to the answer.",
        },
        {"role": "user", "content": f"Question: {inp.question}\n\nFacts:\n{lines}\n\nReply with JSON only."},
    ]
    prompt = _prompt_text(messages)
    try:
        r = llm.complete(model, messages, json_mode=True, use_cache=False)
    except LLMError as e:
        call = LLMCall(
            "rerank", model, prompt, "", error=str(e), latency_ms=round((time.perf_counter() - t0) * 1000, 1)
        )
        return replace(offline, llm=call, error=f"LLM rerank failed ({e}); used the offline graph rerank")
    picked, bad = parse_selected_ids(r.text, len(shown))
    call = LLMCall(
        "rerank",
        model,
        prompt,
        r.text,
        r.prompt_tokens,
        r.completion_tokens,
        r.latency_ms,
        f"{bad} invalid id(s) ignored" if bad else None,
        r.cached,
    )
    if not picked:
        return replace(offline, llm=call, error="the LLM selected no valid relation; used the offline graph rerank")
    chosen = [shown[i - 1] for i in picked][: inp.params.rerank_keep]
    scores = {rid: 1.0 - n / (len(chosen) + 1) for n, rid in enumerate(chosen)}
    rest = [c for c in offline.candidates if c.id not in scores]
    cands = tuple(ScoredId(rid, round(s, 4), "llm") for rid, s in scores.items()) + tuple(
        ScoredId(c.id, 0.0, "not selected") for c in rest
    )
    return RerankStep("llm", cands, tuple(chosen), round((time.perf_counter() - t0) * 1000, 2), llm=call)


def llm_answer(
    llm: OpenAILLM, model: str, trace: QueryTrace, on_delta: Callable[[str], None] | None = None
) -> AnswerStep:
    """One call: an answer grounded in the retrieved passages, citing them as [1], [2] …"""
    t0 = time.perf_counter()
    passages = trace.passages.passages if trace.passages else ()
    context = "\n\n".join(f"[{n}] {p.title}\n{p.text}" for n, p in enumerate(passages, 1))
    messages = [
        {
            "role": "system",
            "content": "Answer the question using only the numbered passages. Cite every claim "
            "with the passage numbers in brackets, like [1] or [2][3]. If the passages "
            "do not contain the answer, say that the context is not enough.",
        },
        {"role": "user", "content": f"Passages:\n{context}\n\nQuestion: {trace.question}"},
    ]
    prompt = _prompt_text(messages)
    try:
        r = llm.stream(model, messages, on_delta) if on_delta else llm.complete(model, messages, use_cache=False)
    except LLMError as e:
        call = LLMCall("answer", model, prompt, "", error=str(e))
        return AnswerStep("", (), (), "llm", round((time.perf_counter() - t0) * 1000, 2), call, str(e))
    nums = [int(x) for x in re.findall(r"\[(\d+)\]", r.text)]
    used = sorted({n for n in nums if 1 <= n <= len(passages)})
    cites = tuple(Citation(n, passages[n - 1].id, passages[n - 1].title, passages[n - 1].text) for n in used)
    bad = sorted({n for n in nums if not 1 <= n <= len(passages)})
    call = LLMCall(
        "answer",
        model,
        prompt,
        r.text,
        r.prompt_tokens,
        r.completion_tokens,
        r.latency_ms,
        f"cited missing passage(s) {bad}" if bad else None,
        r.cached,
    )
    return AnswerStep(
        r.text.strip(),
        cites,
        (),
        "llm",
        round((time.perf_counter() - t0) * 1000, 2),
        call,
        None if r.text.strip() else "empty answer",
    )


def query_hooks(
    settings: LLMSettings,
    cache_dir: str | None = None,
    llm: OpenAILLM | None = None,
    on_delta: Callable[[str], None] | None = None,
) -> dict[str, Callable]:
    """Keyword arguments for run_query: the LLM rerank and answer (two calls per query at most);
    with on_delta the answer is streamed piece by piece."""
    client = llm or make_llm(settings, cache_dir)
    return {
        "llm_rerank": lambda inp: llm_rerank(client, settings.model_rerank, inp),
        "llm_answer": lambda tr: llm_answer(client, settings.model_answer, tr, on_delta),
    }

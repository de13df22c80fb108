"""OpenAI-compatible chat client with bounded calls.

Every call carries a per-role `max_tokens` and may carry a `Deadline`; retries (tenacity) wait only where waiting
can help: rate limits and timeouts back off, an unreachable endpoint gets one quick retry, anything else (key,
model, request, server errors) fails at once with what to fix. JSON mode and `max_tokens` fall back when a
server lacks them. Responses can be cached in an sqlite file; tokens are counted.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import tenacity

from ..config import LLMSettings
from ..documents.inputs import clean_text
from .failures import LLMError, StreamBroke, describe, fix_message, retry_after, transient
from .wire import (
    NO_DEADLINE,
    Deadline,
    DeadlineReached,
    ReplyTooLarge,
    bounded_bytes,
    delta_of,
    json_body,
    message_of,
    sse_events,
)
from .record import LLMCall

log = logging.getLogger(__name__)

Role = Literal["extract", "glean", "rerank", "answer"]
QUICK_RETRY_S = 0.25  # the one retry after "connection refused" / unknown host
MAX_BACKOFF_S = 20.0


@dataclass(frozen=True)
class LLMResult:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: float = 0.0
    cached: bool = False
    truncated: str | None = None  # why the reply stopped early: "max_tokens", "deadline" or None
    max_tokens: int = 0
    attempts: tuple[str, ...] = ()


class ResponseCache:
    """sqlite file keyed by model, messages and parameters; safe across threads and processes."""

    def __init__(self, path: str | Path) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._path = str(path)
        self._lock = threading.Lock()
        with self._conn() as c:
            c.execute("CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, text TEXT, pt INT, ct INT)")

    def _conn(self) -> sqlite3.Connection:
        c = sqlite3.connect(self._path, timeout=30)
        c.execute("PRAGMA journal_mode=WAL")
        return c

    @staticmethod
    def key(model: str, messages: list[dict], temperature: float, json_mode: bool, max_tokens: int) -> str:
        raw = json.dumps([model, messages, temperature, json_mode, max_tokens], sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(raw.encode("utf-8")).hexdigest()

    def get(self, key: str) -> LLMResult | None:
        with self._lock, self._conn() as c:
            row = c.execute("SELECT text, pt, ct FROM responses WHERE key = ?", (key,)).fetchone()
        return LLMResult(row[0], row[1], row[2], 0.0, cached=True) if row else None

    def put(self, key: str, r: LLMResult) -> None:
        with self._lock, self._conn() as c:
            c.execute(
                "INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?)",
                (key, r.text, r.prompt_tokens, r.completion_tokens),
            )


class OpenAILLM:
    """Chat completions through the official `openai` client against any base URL; one instance per endpoint."""

    def __init__(
        self,
        settings: LLMSettings,
        client: object | None = None,
        cache: ResponseCache | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if client is None:
            from openai import OpenAI

            # retries are ours (see _call): the SDK would wait on a refused connection as long as on a rate limit
            client = OpenAI(
                base_url=settings.base_url or None,
                api_key=settings.api_key or "not-needed",
                timeout=settings.timeout_s,
                max_retries=0,
            )
        self._client = client
        self.settings = settings
        self.cache = cache
        self._sleep = sleep
        self._json_ok = settings.json_mode
        self._cap_param = "max_tokens"  # newer OpenAI models want max_completion_tokens: switched on their 400
        self.calls = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self._count_lock = threading.Lock()

    # ---------- the policy
    def _call(self, role: Role, request: Callable[[float, str, dict], LLMResult], deadline: Deadline) -> LLMResult:
        """Run one request under the retry policy and the deadline; adapt once to servers lacking JSON mode or
        `max_tokens`; raise LLMError saying what was tried."""
        import openai

        s = self.settings
        model = s.model_for(role)
        t0 = time.perf_counter()
        tried: list[str] = []

        def attempt() -> LLMResult:
            left = deadline.remaining()
            if left <= 0.05:
                raise TimeoutError(f"the query deadline of {deadline.seconds:g} s was reached")
            kwargs = {self._cap_param: s.max_tokens_for(role)}
            if self._json_ok and role != "answer":
                kwargs["response_format"] = {"type": "json_object"}
            t = time.perf_counter()
            why = (
                f"the query deadline of {deadline.seconds:g} s was reached before the reply was complete"
                if left < s.timeout_s
                else f"no complete reply within the {s.timeout_s:g} s request limit (timeout_s)"
            )
            try:
                return request(min(s.timeout_s, left), why, kwargs)
            except Exception as e:
                tried.append(f"attempt {len(tried) + 1}: {describe(e)} after {(time.perf_counter() - t) * 1000:.0f} ms")
                raise

        def wait(rs: tenacity.RetryCallState) -> float:
            e = rs.outcome.exception() if rs.outcome else None
            if transient(e) == "unreachable":
                return QUICK_RETRY_S
            return min(retry_after(e) or 2.0 ** (rs.attempt_number - 1), MAX_BACKOFF_S)

        def stop(rs: tenacity.RetryCallState) -> bool:
            e = rs.outcome.exception() if rs.outcome else None
            limit = 2 if transient(e) == "unreachable" else s.max_retries + 1
            return rs.attempt_number >= limit or deadline.remaining() <= wait(rs)

        retrying = tenacity.Retrying(
            retry=tenacity.retry_if_exception(lambda e: transient(e) is not None),
            wait=wait,
            stop=stop,
            sleep=self._sleep,
            reraise=True,
            before_sleep=lambda rs: log.warning("LLM %s: %s; retrying", role, tried[-1] if tried else "?"),
        )
        for _adaptation in range(3):
            try:
                r = retrying(attempt)
                break
            except openai.BadRequestError as e:
                msg = str(e)
                if self._json_ok and role != "answer" and "response_format" in msg:
                    log.info("endpoint has no JSON mode; continuing without it")
                    self._json_ok = False
                elif self._cap_param == "max_tokens" and "max_tokens" in msg:
                    log.info("endpoint wants max_completion_tokens instead of max_tokens")
                    self._cap_param = "max_completion_tokens"
                else:
                    raise self._error(e, model, tried, t0) from e
            except Exception as e:  # noqa: BLE001 - every failure becomes one LLMError that says what to fix
                raise self._error(e, model, tried, t0) from e
        else:
            raise LLMError("the endpoint refused every form of the request", tuple(tried))
        with self._count_lock:
            self.calls += 1
            self.prompt_tokens += r.prompt_tokens
            self.completion_tokens += r.completion_tokens
        return LLMResult(
            r.text,
            r.prompt_tokens,
            r.completion_tokens,
            round((time.perf_counter() - t0) * 1000, 1),
            truncated=r.truncated,
            max_tokens=s.max_tokens_for(role),
            attempts=tuple(tried),
        )

    def _error(self, e: BaseException, model: str, tried: list[str], t0: float) -> LLMError:
        if isinstance(e, DeadlineReached):
            msg, unreachable = f"Stopped waiting: {e}", False
        elif isinstance(e, ReplyTooLarge):
            msg, unreachable = f"Refused: {e}", False
        elif isinstance(e, TimeoutError) and "deadline" in str(e):
            msg, unreachable = f"Skipped: {e}", False
        else:
            msg, unreachable = fix_message(e, model, self.settings.base_url, max(len(tried), 1))
        return LLMError(
            msg,
            tuple(tried),
            round((time.perf_counter() - t0) * 1000, 1),
            unreachable,
            partial=getattr(e, "partial", ""),
        )

    def _reply(self, limit: float, why: str, **request: Any) -> Generator[bytes, None, None]:
        """The raw reply to one request, within `limit` seconds from now and `max_reply_mb` (llm_wire.py)."""
        end = time.monotonic() + limit
        opener = self._client.chat.completions.with_streaming_response.create  # type: ignore[attr-defined]
        return bounded_bytes(
            lambda: opener(temperature=self.settings.temperature, timeout=limit, **request),
            lambda: end - time.monotonic(),
            int(self.settings.max_reply_mb * 2**20),
            why,
        )

    # ---------- the calls
    def complete(
        self,
        role: Role,
        messages: list[dict],
        use_cache: bool = True,
        deadline: Deadline = NO_DEADLINE,
    ) -> LLMResult:
        """One bounded chat completion for a role (JSON mode for every role but the answer); cached when asked.
        A reply cut at max_tokens comes back with `truncated="max_tokens"` and is never cached."""
        model, cap = self.settings.model_for(role), self.settings.max_tokens_for(role)
        key = ResponseCache.key(model, messages, self.settings.temperature, self._json_ok and role != "answer", cap)
        if use_cache and self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                return hit

        def request(limit: float, why: str, extra: dict) -> LLMResult:
            body = json_body(self._reply(limit, why, model=model, messages=messages, **extra))
            text, pt, ct, finish = message_of(body)
            return LLMResult(clean_text(text), pt, ct, truncated="max_tokens" if finish == "length" else None)

        r = self._call(role, request, deadline)
        if use_cache and self.cache is not None and r.text and not r.truncated:
            self.cache.put(key, r)
        return r

    def stream(
        self, role: Role, messages: list[dict], on_delta: Callable[[str], None], deadline: Deadline = NO_DEADLINE
    ) -> LLMResult:
        """A bounded streamed completion: on_delta gets each piece. At max_tokens or the deadline the reply ends
        with `truncated` set; a stream that breaks after delivering text is not retried (LLMError.partial)."""
        model = self.settings.model_for(role)

        def request(limit: float, why: str, extra: dict) -> LLMResult:
            parts: list[str] = []
            usage: dict = {}
            finish = None
            deltas = 0  # servers that send no usage (llama.cpp) stream about one token a delta: the fallback count
            chunks = self._reply(
                limit, why, model=model, messages=messages, stream=True, stream_options={"include_usage": True}, **extra
            )
            try:
                for ev in sse_events(chunks):
                    piece, finish_now, usage_now = delta_of(ev)
                    usage, finish = usage_now or usage, finish_now or finish
                    if piece:
                        deltas += 1
                        parts.append(clean_text(piece))
                        on_delta(parts[-1])
                    if deadline.expired:
                        finish = "deadline"
                        break
            except DeadlineReached:
                if not parts:
                    raise
                finish = "deadline"  # the text so far is the answer
            except Exception as e:
                if parts:
                    raise StreamBroke("".join(parts), e) from e
                raise
            finally:
                chunks.close()
            return LLMResult(
                "".join(parts),
                int(usage.get("prompt_tokens") or 0),
                int(usage.get("completion_tokens") or 0) or deltas,
                truncated={"length": "max_tokens", "deadline": "deadline"}.get(finish or ""),
            )

        return self._call(role, request, deadline)


def make_llm(settings: LLMSettings, cache_dir: str | None = None, client: object | None = None) -> OpenAILLM:
    cache = ResponseCache(Path(cache_dir) / "llm_cache.sqlite") if (settings.cache and cache_dir) else None
    return OpenAILLM(settings, client=client, cache=cache)


def estimate_tokens(texts: list[str], prompt_overhead: int = 450) -> int:
    """A rough token estimate (4 characters a token) for a cost preview before a large ingest."""
    return sum(len(t) // 4 + prompt_overhead for t in texts)


def prompt_text(messages: list[dict]) -> str:
    """The messages as one readable text, as the trace shows the prompt."""
    return "\n\n".join(f"[{m['role']}]\n{m['content']}" for m in messages)


def call_record(
    llm: OpenAILLM,
    role: Role,
    messages: list[dict],
    result: LLMResult | None = None,
    failure: LLMError | None = None,
    note: str | None = None,
) -> LLMCall:
    """The trace's record of one call: the prompt, the raw reply (or what a broken stream delivered), the cap,
    the attempts and the error or note."""
    r = result or LLMResult(failure.partial if failure else "")
    error = str(failure) if failure else note
    if result is not None and result.truncated == "max_tokens":
        cut = f"the reply was cut at the {result.max_tokens}-token cap (max_tokens_{role})"
        error = f"{cut}; {error}" if error else cut
    return LLMCall(
        role=role,
        model=llm.settings.model_for(role),
        prompt=prompt_text(messages),
        raw_response=r.text,
        prompt_tokens=r.prompt_tokens,
        completion_tokens=r.completion_tokens,
        latency_ms=failure.elapsed_ms if failure else r.latency_ms,
        error=error,
        cached=r.cached,
        max_tokens=llm.settings.max_tokens_for(role),
        attempts=failure.attempts if failure else r.attempts,
        unreachable=bool(failure and failure.unreachable),
    )

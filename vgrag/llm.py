"""OpenAI-compatible chat client: targeted retries, JSON-mode fallback, token accounting, persistent cache."""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from .config import LLMSettings

log = logging.getLogger(__name__)


class LLMError(RuntimeError):
    """A failure the user must fix (key, model name, URL); not retried."""


@dataclass(frozen=True)
class LLMResult:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: float = 0.0
    cached: bool = False


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
    def key(model: str, messages: list[dict], temperature: float, json_mode: bool) -> str:
        raw = json.dumps([model, messages, temperature, json_mode], sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(raw.encode("utf-8")).hexdigest()

    def get(self, key: str) -> LLMResult | None:
        with self._lock, self._conn() as c:
            row = c.execute("SELECT text, pt, ct FROM responses WHERE key = ?", (key,)).fetchone()
        return LLMResult(row[0], row[1], row[2], 0.0, True) if row else None

    def put(self, key: str, r: LLMResult) -> None:
        with self._lock, self._conn() as c:
            c.execute(
                "INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?)",
                (key, r.text, r.prompt_tokens, r.completion_tokens),
            )


class OpenAILLM:
    """Chat completions through the official `openai` client against any base URL."""

    def __init__(
        self,
        settings: LLMSettings,
        client: object | None = None,
        cache: ResponseCache | None = None,
        sleep: object = time.sleep,
    ) -> None:
        if client is None:
            from openai import OpenAI

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
        self.calls = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self._count_lock = threading.Lock()

    def _with_policy(self, model: str, request) -> LLMResult:  # request: Callable[[], LLMResult]
        """Run one request with the error policy: retry rate limits, timeouts and connection errors with
        backoff; surface key, model, request and server errors at once as LLMError saying what to fix."""
        import openai

        delay = 1.0
        for attempt in range(self.settings.max_retries + 1):
            try:
                r = request()
            except (openai.RateLimitError, openai.APITimeoutError, openai.APIConnectionError) as e:
                if attempt >= self.settings.max_retries or getattr(e, "partial", False):
                    raise LLMError(f"{type(e).__name__} after {attempt + 1} attempts: {e}") from e
                log.warning("LLM %s (attempt %d), retrying in %.1fs", type(e).__name__, attempt + 1, delay)
                self._sleep(delay)  # type: ignore[operator]
                delay *= 2
                continue
            except openai.AuthenticationError as e:
                raise LLMError(
                    "The LLM endpoint rejected the API key (401): check the key on the Settings page or OPENAI_API_KEY."
                ) from e
            except openai.NotFoundError as e:
                raise LLMError(
                    f"Model {model!r} or the endpoint was not found (404): check the model name and base URL."
                ) from e
            except openai.BadRequestError as e:
                raise LLMError(f"The LLM endpoint refused the request (400): {e}") from e
            except openai.APIStatusError as e:
                raise LLMError(f"The LLM endpoint failed ({e.status_code}): {e}") from e
            with self._count_lock:
                self.calls += 1
                self.prompt_tokens += r.prompt_tokens
                self.completion_tokens += r.completion_tokens
            return r
        raise LLMError("the endpoint gave no usable response")

    def complete(self, model: str, messages: list[dict], json_mode: bool = False, use_cache: bool = True) -> LLMResult:
        """One chat completion (cached when asked); JSON mode is dropped for good if the server lacks it."""
        import openai

        want_json = json_mode and self._json_ok
        key = ResponseCache.key(model, messages, self.settings.temperature, want_json)
        if use_cache and self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                return hit

        def request() -> LLMResult:
            t0 = time.perf_counter()
            kwargs: dict = {"model": model, "messages": messages, "temperature": self.settings.temperature}
            if want_json:
                kwargs["response_format"] = {"type": "json_object"}
            resp = self._client.chat.completions.create(**kwargs)  # type: ignore[attr-defined]
            text = (resp.choices[0].message.content or "") if resp.choices else ""
            usage = getattr(resp, "usage", None)
            return LLMResult(
                text,
                getattr(usage, "prompt_tokens", 0) or 0,
                getattr(usage, "completion_tokens", 0) or 0,
                round((time.perf_counter() - t0) * 1000, 1),
            )

        try:
            r = self._with_policy(model, request)
        except LLMError as e:
            if not (want_json and isinstance(e.__cause__, openai.BadRequestError) and "response_format" in str(e)):
                raise
            log.info("endpoint has no JSON mode; continuing without it")
            self._json_ok = want_json = False
            r = self._with_policy(model, request)
        if use_cache and self.cache is not None and r.text:
            self.cache.put(key, r)
        return r

    def stream(self, model: str, messages: list[dict], on_delta) -> LLMResult:  # on_delta: Callable[[str], None]
        """A streamed completion: on_delta gets each text piece; same error policy as complete(), but a stream
        that already delivered text is not retried (the pieces are on screen)."""

        def request() -> LLMResult:
            t0 = time.perf_counter()
            parts: list[str] = []
            usage = None
            events = self._client.chat.completions.create(  # type: ignore[attr-defined]
                model=model,
                messages=messages,
                temperature=self.settings.temperature,
                stream=True,
                stream_options={"include_usage": True},
            )
            try:
                for ev in events:
                    usage = getattr(ev, "usage", None) or usage
                    for ch in ev.choices or []:
                        piece = getattr(ch.delta, "content", None) or ""
                        if piece:
                            parts.append(piece)
                            on_delta(piece)
            except Exception as e:
                e.partial = bool(parts)  # type: ignore[attr-defined]
                raise
            return LLMResult(
                "".join(parts),
                getattr(usage, "prompt_tokens", 0) or 0,
                getattr(usage, "completion_tokens", 0) or 0,
                round((time.perf_counter() - t0) * 1000, 1),
            )

        return self._with_policy(model, request)


def make_llm(settings: LLMSettings, cache_dir: str | None = None, client: object | None = None) -> OpenAILLM:
    cache = ResponseCache(Path(cache_dir) / "llm_cache.sqlite") if (settings.cache and cache_dir) else None
    return OpenAILLM(settings, client=client, cache=cache)


def estimate_tokens(texts: list[str], prompt_overhead: int = 450) -> int:
    """A rough token estimate (4 characters a token) for a cost preview before a large ingest."""
    return sum(len(t) // 4 + prompt_overhead for t in texts)

"""One model call as a trace keeps it (the query trace's steps and the extraction report carry these)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LLMCall:
    """One model call as the trace keeps it: what was sent, what came back (raw), its bounds and any error."""

    role: str  # "rerank" or "answer" (or "extract")
    model: str
    prompt: str
    raw_response: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: float = 0.0
    error: str | None = None
    cached: bool = False
    max_tokens: int = 0  # the cap the call was sent with
    attempts: tuple[str, ...] = ()  # failed attempts before the result (or the error): what, and how long
    unreachable: bool = False  # the endpoint could not be reached: the query's next call is skipped

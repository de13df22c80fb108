"""A scripted OpenAI-compatible server behind httpx2.MockTransport: the real openai client talks to it."""

from __future__ import annotations

import json
from collections.abc import Callable

import httpx2
import openai

from vgrag.config import LLMSettings
from vgrag.llm import OpenAILLM, ResponseCache


def completion(text: str, pt: int = 10, ct: int = 5, finish: str = "stop") -> dict:
    return {
        "id": "x",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [{"index": 0, "finish_reason": finish, "message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": pt, "completion_tokens": ct, "total_tokens": pt + ct},
    }


class Cut(str):
    """A reply the server cut at max_tokens (finish_reason "length")."""


def sse(text: str, size: int = 7, finish: str = "stop") -> bytes:
    """The reply as server-sent events, `size` characters a chunk, a finish reason, a usage chunk and [DONE]."""
    out = []
    for i in range(0, len(text), size):
        out.append(
            {
                "id": "x",
                "object": "chat.completion.chunk",
                "created": 0,
                "model": "m",
                "choices": [{"index": 0, "delta": {"content": text[i : i + size]}, "finish_reason": None}],
            }
        )
    out.append(
        {
            "id": "x",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": "m",
            "choices": [{"index": 0, "delta": {}, "finish_reason": finish}],
        }
    )
    out.append(
        {
            "id": "x",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": "m",
            "choices": [],
            "usage": {"prompt_tokens": 30, "completion_tokens": 9, "total_tokens": 39},
        }
    )
    return "".join(f"data: {json.dumps(o)}\n\n" for o in out).encode() + b"data: [DONE]\n\n"


class ScriptedServer:
    """Answers /chat/completions from a list of replies (text, status code, or a callable); records requests."""

    def __init__(self, replies: list) -> None:
        self.replies = list(replies)
        self.requests: list[dict] = []

    def handler(self, request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.content)
        self.requests.append(body)
        reply = self.replies.pop(0) if len(self.replies) > 1 else self.replies[0]
        if isinstance(reply, Callable):  # type: ignore[arg-type]
            reply = reply(body)
        if isinstance(reply, httpx2.Response):
            return reply
        if isinstance(reply, int):
            return httpx2.Response(reply, json={"error": {"message": f"status {reply}", "type": "x"}})
        if isinstance(reply, Exception):
            raise reply
        finish = "length" if isinstance(reply, Cut) else "stop"
        if body.get("stream"):
            return httpx2.Response(
                200, headers={"content-type": "text/event-stream"}, content=sse(reply, finish=finish)
            )
        return httpx2.Response(200, json=completion(str(reply), finish=finish))

    def llm(self, cache_dir=None, sleeps: list | None = None, sleep=None, **kw) -> OpenAILLM:
        """The real client over this server; waits are recorded in `sleeps` (or handed to `sleep`), never slept."""
        client = openai.OpenAI(
            base_url="http://llm.test/v1",
            api_key="k",
            max_retries=0,
            http_client=httpx2.Client(transport=httpx2.MockTransport(self.handler)),
        )
        settings = LLMSettings(base_url="http://llm.test/v1", api_key="k", **kw)
        cache = ResponseCache(cache_dir / "c.sqlite") if cache_dir else None
        sleeps = [] if sleeps is None else sleeps
        return OpenAILLM(settings, client=client, cache=cache, sleep=sleep or sleeps.append)

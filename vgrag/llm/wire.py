"""A chat completion read off the wire under a whole-call time limit and a byte cap.

The request is sent and its body read in a worker thread; the caller takes the bytes through a queue and never
waits past the limit (a server dripping one byte a second cannot hold a query) nor takes more than the cap (a
50 MB reply cannot fill memory or the page). Streamed replies are parsed as server-sent events here, so the
limit is checked at every byte that arrives, not only at whole events.
"""

from __future__ import annotations

import json
import math
import queue
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

_END = object()


class Deadline:
    """A moment after which a query stops waiting for the model (None: no deadline)."""

    def __init__(self, seconds: float | None, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.seconds = seconds
        self._end = clock() + seconds if seconds else math.inf

    def remaining(self) -> float:
        return self._end - self._clock()

    @property
    def expired(self) -> bool:
        return self.remaining() <= 0


NO_DEADLINE = Deadline(None)


class DeadlineReached(TimeoutError):
    """The whole-call limit passed while the request was sent or the reply read."""


class ReplyTooLarge(Exception):
    """The endpoint sent more bytes for one reply than the cap allows."""

    def __init__(self, cap: int, partial: str = "") -> None:
        super().__init__(
            f"the LLM endpoint sent more than {cap / 2**20:g} MB for one reply (is max_tokens ignored?); "
            "the rest was refused"
        )
        self.cap = cap
        self.partial = partial


def bounded_bytes(
    open_response: Callable[[], AbstractContextManager[Any]],
    remaining: Callable[[], float],
    cap: int,
    why: str,
) -> Iterator[bytes]:
    """The reply's body as it arrives; DeadlineReached(`why`) once `remaining()` is used up, ReplyTooLarge past
    `cap` bytes. The worker stops at its next piece (or its read timeout) once the caller has gone."""
    pieces: queue.Queue = queue.Queue()
    stop = threading.Event()

    def work() -> None:
        try:
            with open_response() as resp:
                got = 0
                for piece in resp.iter_bytes():
                    if stop.is_set():
                        return
                    pieces.put(piece)
                    got += len(piece)
                    if got > cap:  # the caller refuses it; reading on would only fill memory
                        return
            pieces.put(_END)
        except BaseException as e:  # noqa: BLE001 - handed to the caller, who raises it
            pieces.put(e)

    threading.Thread(target=work, name="llm-reply", daemon=True).start()
    total = 0
    try:
        while True:
            left = remaining()
            if left <= 0:
                raise DeadlineReached(why)
            try:
                item = pieces.get(timeout=None if math.isinf(left) else left)
            except queue.Empty:
                raise DeadlineReached(why) from None
            if item is _END:
                return
            if isinstance(item, BaseException):
                raise item
            total += len(item)
            if total > cap:
                raise ReplyTooLarge(cap)
            yield item
    finally:
        stop.set()


def json_body(chunks: Iterator[bytes]) -> dict:
    """A non-streamed completion's JSON body."""
    raw = b"".join(chunks)
    try:
        body = json.loads(raw)
    except ValueError as e:
        raise ValueError(f"the LLM endpoint's reply is not JSON: {raw[:200]!r}") from e
    if not isinstance(body, dict):
        raise ValueError(f"the LLM endpoint's reply is not a JSON object: {raw[:200]!r}")
    return body


def sse_events(chunks: Iterator[bytes]) -> Iterator[dict]:
    """The JSON events of a server-sent event stream, up to `data: [DONE]`."""
    buf = b""
    for piece in chunks:
        buf += piece
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            line = line.strip()
            if not line.startswith(b"data:"):
                continue
            data = line[5:].strip()
            if data == b"[DONE]":
                return
            try:
                event = json.loads(data)
            except ValueError:
                continue  # a keep-alive or comment the server chose to format oddly
            if isinstance(event, dict):
                if event.get("error"):
                    raise ValueError(f"the LLM endpoint reported an error mid-stream: {str(event['error'])[:300]}")
                yield event


def message_of(body: dict) -> tuple[str, int, int, str | None]:
    """(text, prompt tokens, completion tokens, finish reason) of a non-streamed completion."""
    choices = body.get("choices") or [{}]
    choice = choices[0] if isinstance(choices[0], dict) else {}
    message = choice.get("message") or {}
    usage = body.get("usage") or {}
    text = message.get("content") if isinstance(message, dict) else None
    return (
        text if isinstance(text, str) else "",
        int(usage.get("prompt_tokens") or 0),
        int(usage.get("completion_tokens") or 0),
        choice.get("finish_reason"),
    )


def delta_of(event: dict) -> tuple[str, str | None, dict]:
    """(text piece, finish reason, usage) of one streamed event."""
    piece, finish = "", None
    for ch in event.get("choices") or []:
        if isinstance(ch, dict):
            content = (ch.get("delta") or {}).get("content")
            piece += content if isinstance(content, str) else ""
            finish = ch.get("finish_reason") or finish
    return piece, finish, event.get("usage") or {}

"""A tiny OpenAI-compatible HTTP server on 127.0.0.1 for browser tests: the rerank call gets JSON at once, the
answer streams slowly, word by word, so a test can stop it midway. Records whether a stream was cut short."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PICK = '{"selected": [1, 2, 3]}'


class SlowLLM:
    def __init__(self, answer_words: list[str], delay_s: float = 0.25) -> None:
        self.words, self.delay = answer_words, delay_s
        self.streams_started = 0
        self.streams_cut = 0  # the client closed the connection before the last word

    def handler(self) -> type[BaseHTTPRequestHandler]:
        llm = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # quiet
                return

            def do_POST(self) -> None:  # noqa: N802 - the http.server API
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                if not body.get("stream"):
                    reply = {
                        "id": "x",
                        "object": "chat.completion",
                        "created": 0,
                        "model": body["model"],
                        "choices": [
                            {
                                "index": 0,
                                "finish_reason": "stop",
                                "message": {"role": "assistant", "content": '{"selected": [1, 2, 3]}'},
                            }
                        ],
                        "usage": {"prompt_tokens": 5, "completion_tokens": 5, "total_tokens": 10},
                    }
                    data = json.dumps(reply).encode()
                    self.send_response(200)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    return
                llm.streams_started += 1
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.end_headers()
                try:
                    for w in llm.words:
                        chunk = {
                            "id": "x",
                            "object": "chat.completion.chunk",
                            "created": 0,
                            "model": body["model"],
                            "choices": [{"index": 0, "delta": {"content": w + " "}, "finish_reason": None}],
                        }
                        self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                        self.wfile.flush()
                        time.sleep(llm.delay)
                    self.wfile.write(b"data: [DONE]\n\n")
                except (BrokenPipeError, ConnectionResetError):
                    llm.streams_cut += 1

        return Handler


@contextlib.contextmanager
def serving(llm: SlowLLM) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), llm.handler())
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


class HostileLLM:
    """A server a probe would meet: `drip` sends the reply one byte a second (its headers too with
    `drip_headers`); `huge` sends a reply of `huge_mb` megabytes as fast as it can. Streamed or not, as asked."""

    def __init__(self, mode: str, byte_every_s: float = 1.0, huge_mb: int = 50) -> None:
        self.mode, self.every, self.huge_mb = mode, byte_every_s, huge_mb
        self.bytes_sent = 0

    def body(self, stream: bool) -> bytes:
        if self.mode == "huge":
            text = "blah " * (self.huge_mb * 2**20 // 5)
        else:
            text = '{"selected": [1]}' if not stream else "Acme is in Springfield [1]."
        step = 4096 if self.mode == "huge" else 8  # a dripped stream: a piece every few words
        if not stream:
            reply = {"id": "x", "object": "chat.completion", "created": 0, "model": "m",
                     "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant",
                                                                                   "content": text}}]}  # fmt: skip
            return json.dumps(reply).encode()
        events = [
            {"id": "x", "object": "chat.completion.chunk", "created": 0, "model": "m",
             "choices": [{"index": 0, "delta": {"content": text[i : i + step]}, "finish_reason": None}]}
            for i in range(0, len(text), step)
        ]  # fmt: skip
        return b"".join(f"data: {json.dumps(e)}\n\n".encode() for e in events) + b"data: [DONE]\n\n"

    def handler(self) -> type[BaseHTTPRequestHandler]:
        llm = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                return

            def drip(self, data: bytes) -> None:
                for i in range(len(data)):
                    self.wfile.write(data[i : i + 1])
                    self.wfile.flush()
                    llm.bytes_sent += 1
                    time.sleep(llm.every)

            def do_POST(self) -> None:  # noqa: N802 - the http.server API
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                data = llm.body(bool(body.get("stream")))
                kind = "text/event-stream" if body.get("stream") else "application/json"
                head = f"HTTP/1.1 200 OK\r\ncontent-type: {kind}\r\ncontent-length: {len(data)}\r\n\r\n".encode()
                try:
                    if llm.mode == "drip_headers":
                        self.drip(head + data)
                    elif llm.mode == "drip":
                        self.wfile.write(head)
                        self.drip(data)
                    else:
                        self.wfile.write(head)
                        for i in range(0, len(data), 1 << 16):
                            self.wfile.write(data[i : i + (1 << 16)])
                            llm.bytes_sent += len(data[i : i + (1 << 16)])
                except (BrokenPipeError, ConnectionResetError):
                    return
                self.close_connection = True

        return Handler

"""Model replies that must not crash or hang a query or an ingest (#34): deep nesting, huge numbers, thousands of
triples, control characters in names, and an embeddings endpoint that returns too few vectors or never answers
(the real openai client against a real local HTTP server)."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from test_retrieve import FACTS, Q

from vgrag.config import QueryParams
from vgrag.embed import EmbeddingError, OpenAIEmbedder
from vgrag.extraction.parse import MAX_NAME_CHARS, MAX_TRIPLES_PER_CHUNK, parse_json_loose, parse_triples_output
from vgrag.query.answer import cited_answer
from vgrag.query.pipeline import retrieve_trace
from vgrag.query.rerank import parse_selected_ids
from vgrag.storage.writer import SourceChunk, write_chunks


def test_a_rerank_reply_nested_60k_deep_is_no_crash() -> None:
    raw = "[" * 60_000 + "1" + "]" * 60_000  # json.loads: RecursionError before
    assert parse_json_loose(raw) is None
    ids, _ = parse_selected_ids(raw, 5)
    assert ids == [1]  # the bare number is still read


def test_an_answer_citing_a_5000_digit_number_is_answered(graph, embedder) -> None:  # noqa: ANN001
    write_chunks(graph, embedder, [SourceChunk("doc", "facts", t, i, (tr,)) for i, (t, tr) in enumerate(FACTS)])
    trace = retrieve_trace(Q, graph, embedder, QueryParams())
    step = cited_answer(trace, "Springfield [1] and [" + "9" * 5000 + "].", None, 0.0)  # int(): ValueError before
    assert [c.n for c in step.citations] == [1]
    assert step.text.startswith("Springfield [1]")


def test_an_extraction_reply_of_20004_triples_for_one_sentence_is_capped() -> None:
    rows = [[f"Subject {i}", "relates to", f"Object {i}"] for i in range(20_004)]
    triples, _, error = parse_triples_output(json.dumps({"triples": rows}))
    assert len(triples) == MAX_TRIPLES_PER_CHUNK
    assert error and "20,004 triples for one chunk" in error


def test_names_lose_control_characters_and_overlong_names_are_dropped() -> None:
    raw = json.dumps({
        "triples": [["Ada\x00 Love\x1b[31mlace", "worked\x07 with", "Charles\x9b Babbage"],
                    ["x" * (MAX_NAME_CHARS + 1), "is", "long"]],
        "entities": ["Ada\x00 Lovelace", "y" * 5000],
    })  # fmt: skip
    triples, entities, error = parse_triples_output(raw)
    assert [(t.subject, t.predicate, t.object) for t in triples] == [
        ("Ada Love [31mlace", "worked with", "Charles Babbage")
    ]
    assert entities == ("Ada Lovelace",)
    assert error == "1 malformed triple(s) skipped"


class _Embeddings:
    """A local /v1/embeddings server: "short" returns one vector too few, "stall" never answers."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.release = threading.Event()

    def handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                return

            def do_POST(self) -> None:  # noqa: N802 - the http.server API
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                if server.mode == "stall":
                    server.release.wait(30)
                    return
                texts = body["input"][:-1] if server.mode == "short" else body["input"]
                data = [{"object": "embedding", "index": i, "embedding": [1.0, 0.0, 0.5]} for i in range(len(texts))]
                reply = json.dumps({"object": "list", "data": data, "model": body["model"],
                                    "usage": {"prompt_tokens": 1, "total_tokens": 1}}).encode()  # fmt: skip
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

        return Handler


@contextlib.contextmanager
def _serving(fake: _Embeddings) -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), fake.handler())
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    finally:
        fake.release.set()
        httpd.shutdown()
        httpd.server_close()


def test_an_embeddings_reply_one_vector_short_is_a_clear_error() -> None:
    with _serving(_Embeddings("short")) as url:
        emb = OpenAIEmbedder("m", base_url=url, api_key="x")
        with pytest.raises(EmbeddingError, match=r"returned 1 vector\(s\) for 2 text\(s\)"):  # IndexError before
            emb.embed(["one", "two"])
        with pytest.raises(EmbeddingError, match=r"The embeddings endpoint \(m\)"):  # no vector at all
            emb.embed(["one"])


def test_an_embeddings_endpoint_that_never_answers_times_out_with_a_message() -> None:
    with _serving(_Embeddings("stall")) as url:
        emb = OpenAIEmbedder("m", base_url=url, api_key="x", timeout_s=1.5)
        with pytest.raises(EmbeddingError, match=r"no complete reply within 1.5 s"):  # before: waited on
            emb.embed(["one"])

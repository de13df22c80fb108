"""Test doubles that implement the real interfaces."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from vgrag.embed import normalize_rows


class HashEmbedder:
    """Deterministic, meaningful embeddings: hashed bag of words plus character trigrams.

    Texts sharing words get high cosine similarity, unrelated texts near zero; no model needed.
    """

    model_id = "test-hash-bow"
    dim = 256

    def __init__(self) -> None:
        self.calls: list[int] = []

    def _bucket(self, token: str) -> tuple[int, float]:
        h = int.from_bytes(hashlib.md5(token.encode("utf-8")).digest()[:4], "little")
        return h % self.dim, (1.0 if (h >> 31) & 1 else -1.0)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(len(texts))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            words = re.findall(r"\w+", t.casefold())
            for w in words:
                b, s = self._bucket("w:" + w)
                out[i, b] += 2.0 * s
                padded = f"#{w}#"
                for j in range(len(padded) - 2):
                    b, s = self._bucket("c:" + padded[j : j + 3])
                    out[i, b] += 0.3 * s
            if not words:
                out[i, 0] = 1.0
        return normalize_rows(out)

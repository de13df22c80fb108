"""What retrieval already computed for one question, handed to the answer step with the trace: the question's
vector and the stored vectors of the candidate relations it read. The answer step re-scores reasoning chains with
these, so a query embeds its question once and reads no relation twice — nothing is remembered between queries.

The question as parsed (its name spans and the entities they matched) is in the trace itself
(`QueryTrace.query_entities`). A trace rebuilt from JSON has no state; its answer step embeds and reads again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from .scope import Scope


@dataclass(frozen=True)
class QueryState:
    question: str
    vector: np.ndarray  # the question's query vector (unit length)
    relation_vectors: Mapping[str, np.ndarray] = field(default_factory=dict)  # candidate relations' stored vectors
    scope: Scope | None = None  # the passages retrieval could read (None: the params' document scope)

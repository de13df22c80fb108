"""The offline answer step on hand-written passages, for the evidence and verdict tests."""

from __future__ import annotations

from fakes import HashEmbedder

from vgrag.config import QueryParams
from vgrag.query.answer import extractive_answer
from vgrag.query.trace import PassageStep, QueryEntitiesStep, QueryEntity, QueryTrace, RankedPassage


def offline_answer(question: str, passages: list[tuple[str, str]], names: tuple[str, ...]):
    """The answer step over `passages` ((title, text), ranked in this order) for a question with these names."""
    ranked = tuple(RankedPassage(f"psg-{i}", t, x, 1.0 - i / 10, "dense") for i, (t, x) in enumerate(passages))
    trace = QueryTrace(
        question, "graph", QueryParams(),
        query_entities=QueryEntitiesStep(tuple(QueryEntity(n, "name-span") for n in names), 0.0),
        passages=PassageStep(ranked, tuple(p.id for p in ranked), (), 0.0),
    )  # fmt: skip
    return extractive_answer(trace, HashEmbedder(), None)

"""Explore's name search: the entities found by meaning, re-ordered by how their names (or the spellings merged into
them) match what was typed — the name itself, then names that begin with it, then names whose words begin with its
words, then the rest; within each, the entity with more relations first, then the order of the search by meaning."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from ..text import normalize_name

T = TypeVar("T")
EXACT, PREFIX, WORD_PREFIX, OTHER = range(4)


def _key(name: str) -> str:
    return normalize_name(name).removeprefix("the ")  # "The Northwind" is Northwind


def match_tier(typed: str, name: str) -> int:
    """How a name matches the typed text: EXACT, PREFIX (the name begins with it), WORD_PREFIX
    (each typed word begins a word of the name, in order) or OTHER."""
    q, n = _key(typed), _key(name)
    if not q:
        return OTHER
    if n == q:
        return EXACT
    if n.startswith(q):
        return PREFIX
    words, at = n.split(), 0
    for w in q.split():
        while at < len(words) and not words[at].startswith(w):
            at += 1
        if at == len(words):
            return OTHER
        at += 1
    return WORD_PREFIX


def rank_by_name(typed: str, hits: Sequence[T], names: dict[int, Iterable[str]], relations: dict[int, int]) -> list[T]:
    """`hits` (in the order found by meaning) re-ordered: best match tier over each hit's names (`names[i]`: the
    name and its aliases of hit i), then most relations (`relations[i]`), then the order found."""
    tier = {i: min((match_tier(typed, n) for n in names.get(i, ())), default=OTHER) for i in range(len(hits))}
    order = sorted(range(len(hits)), key=lambda i: (tier[i], -relations.get(i, 0), i))
    return [hits[i] for i in order]

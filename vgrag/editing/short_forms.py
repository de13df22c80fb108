"""Uncertain duplicates that no spelling rule joins, for a person to decide (suggest.duplicates):

- a one-word name that is the first word of exactly one longer name of its documents ("Larkspur" beside "Larkspur
  MQ"), not counting the titles of its documents' passages ("Larkspur MQ Changelog" is the document);
- an abbreviation in brackets right after a name, whatever its letters ("Halvorsen Therapeutics (HTX)"), when both
  are entities (the initials-only rule is suggest._defined);
- a name that is another name of its documents with the next cells of a table row run on: a number and more words
  after it ("Aisha Khan 2026-07- 15 Add" beside "Aisha Khan", from the row "Aisha Khan | 2026-07-15 | Add …"). A
  number alone after a name is part of it ("Windows 10", "Larkspur 3.3.0").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..models import Entity
from ..text import entity_id
from .folding import fold


_BRACKET = re.compile(r"((?:[^\W\d_][\w'’&.-]*[ ,]+){1,8}?)\(([A-Z][A-Z&]+)\)")


def bracketed(text: str, entities: dict[str, Entity]) -> list[tuple[str, str]]:
    """(name, abbreviation) for each "Name (ABBR)" of a text whose name, the words right before the bracket, is an
    entity (the longest such run of words)."""
    out = []
    for m in _BRACKET.finditer(text):
        words = m.group(1).replace(",", " ").split()
        for k in range(len(words)):
            if entity_id(" ".join(words[k:])) in entities:
                out.append((" ".join(words[k:]), m.group(2)))
                break
    return out


def shortened(v: Any, e: Entity) -> list[tuple[Entity, str]]:
    """The one longer name starting with `e`'s one-word name, its other words capitalised too (a name going on:
    "Larkspur MQ", not "HTX medical lead"), in `e`'s documents, else in the graph; and why."""
    first = fold(e.name)
    if not first or " " in first:
        return []
    longer = {x.id: x for x in v.entities.values() if x.id != e.id and len(x.name.split()) >= 2 and
              fold(x.name.split()[0]) == first and all(w[:1].isupper() for w in x.name.split()) and
              fold(x.name) not in v.titles}  # fmt: skip
    near = {i: x for i, x in longer.items() if v.docs_of[i] & v.docs_of[e.id]}
    longer = near or longer
    if len(longer) != 1:
        return []
    (x,) = longer.values()
    return [(x, f"{e.name!r} may be short for {x.name!r}, the one longer name starting with it")]


def run_on_cells(v: Any) -> Iterator[tuple[Entity, Entity, str]]:
    """(name with cells run on, the name it starts with, why) for each such pair sharing a document."""
    for e in v.entities.values():
        words = e.name.split()
        for k in range(len(words) - 2, 0, -1):
            rest = words[k:]
            if not rest[0][:1].isdigit():
                continue
            head = v.entities.get(entity_id(" ".join(words[:k])))
            if head is not None and head.id != e.id and v.docs_of[head.id] & v.docs_of[e.id]:
                yield e, head, f"{e.name!r} is {head.name!r} with the next cells of a table row run on"
                break

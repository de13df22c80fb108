"""An evidence sentence clipped for the answer step: a "sentence" can be a table or a list read as one run of text
(hundreds of words), and shown whole it pushes the graph out of a 1280×720 window. The clipped form keeps every
marked piece (the question's names, the answer) whole, with a few words of context on each side, and stands "…"
for what it leaves out; the page shows the full sentence on hover and in the step's passages."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ..query.trace import Evidence, QueryTrace

GAP = " … "


def _head(text: str, n: int) -> str:
    """At most `n` characters from the start of `text`, ending at a word's end."""
    if len(text) <= n:
        return text
    cut = text[:n]
    space = cut.rfind(" ")
    return cut[:space] if space > n // 2 else cut


def _tail(text: str, n: int) -> str:
    """At most `n` characters from the end of `text`, starting at a word's start."""
    if len(text) <= n:
        return text
    cut = text[-n:]
    space = cut.find(" ")
    return cut[space + 1 :] if 0 <= space < n // 2 else cut


def _anchored(parts: Sequence[tuple[str, str]], keep: Iterable[str]) -> list[tuple[str, str]]:
    """The pieces with each whole-word occurrence of a `keep` name in plain text made a piece of kind "keep"."""
    names = sorted({k for k in keep if k.strip()}, key=len, reverse=True)
    if not names:
        return list(parts)
    pattern = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, names)) + r")(?!\w)")
    out: list[tuple[str, str]] = []
    for text, kind in parts:
        if kind:
            out.append((text, kind))
            continue
        out += [(t, "keep" if i % 2 else "") for i, t in enumerate(pattern.split(text)) if t]
    return out


def clip_parts(
    parts: Sequence[tuple[str, str]], budget: int = 260, context: int = 60, keep: Iterable[str] = ()
) -> list[tuple[str, str]]:
    """The (text, kind) pieces of a sentence (kind "" for plain text), clipped when they run over `budget`
    characters: plain text keeps `context` characters beside each marked piece and each name in `keep` (a word
    boundary), marked pieces stay whole, and each cut is a plain "…". A sentence within the budget, or one with
    nothing marked or kept cut to its first `budget` characters, comes back as it is / with one "…" at its end."""
    if sum(len(t) for t, _ in parts) <= budget:
        return list(parts)
    parts = _anchored(parts, keep)
    if not any(k for _, k in parts):
        text = "".join(t for t, _ in parts)
        return [(_head(text, budget).rstrip() + " …", "")]
    out: list[tuple[str, str]] = []
    last = len(parts) - 1
    for i, (text, kind) in enumerate(parts):
        if kind:
            out.append((text, kind))
            continue
        before, after = i > 0, i < last  # a marked piece on that side (pieces alternate plain/marked)
        if len(text) <= (2 if before and after else 1) * context + len(GAP):
            out.append((text, ""))
        elif before and after:
            out.append((_head(text, context) + GAP + _tail(text, context), ""))
        elif after:  # the sentence's opening, before its first mark
            out.append(("… " + _tail(text, context), ""))
        else:  # its end, after its last mark
            out.append((_head(text, context) + " …", ""))
    return [(t, "" if k == "keep" else k) for t, k in out]


def bridge_names(trace: QueryTrace) -> dict[int, tuple[str, ...]]:
    """For each evidence sentence (by its index), the names of the selected relations' entities it shares with
    another evidence sentence or cited passage's title: the hop between two cited passages ("Guyana" in a member
    table, whose own passage is also cited) stays in view when the sentence is clipped."""
    a = trace.answer
    if a is None:
        return {}
    chosen = set(trace.rerank.selected) if trace.rerank else set()
    names = {n for r in trace.relations if not chosen or r.id in chosen for n in (r.subject, r.object) if n}
    out: dict[int, tuple[str, ...]] = {}
    for i, e in enumerate(a.evidence):
        others = [f"{o.title}\n{o.sentence}" for o in a.evidence if o.passage_id != e.passage_id]
        out[i] = tuple(n for n in names if _has(e.sentence, n) and any(_has(o, n) for o in others))
    return out


def _has(text: str, name: str) -> bool:
    return re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text) is not None


def clipped(e: Evidence, keep: Iterable[str] = ()) -> list[tuple[str, str]]:
    """An evidence sentence's pieces as the answer step shows them."""
    return clip_parts(e.parts(), keep=keep)

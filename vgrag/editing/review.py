"""What the Review page reads: a document's passages sentence by sentence, each sentence with the triples
extracted from it and the words of their subjects and objects marked. Pure reads; no Streamlit."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..models import Passage, Relation
from ..storage.store import Graph
from ..storage.tags import decode_sentences
from ..text import split_texts

_WORDS = re.compile(r"[^\W_]{3,}")


@dataclass(frozen=True)
class SentenceView:
    text: str
    parts: tuple[tuple[str, str], ...]  # (text, "" | "subject" | "object"): the sentence in order, names marked
    relations: tuple[Relation, ...]  # the triples placed on this sentence
    hidden: int = 0  # the triples placed on it that a filter (`only`) leaves out


@dataclass(frozen=True)
class PassageView:
    passage: Passage
    sentences: tuple[SentenceView, ...]
    unplaced: tuple[Relation, ...]  # triples none of whose words the passage's sentences write


def _words(text: str) -> set[str]:
    return {w.casefold() for w in _WORDS.findall(text)}


def _spans(sentence: str, name: str) -> list[tuple[int, int]]:
    """Where the sentence writes `name` (case-insensitively), else each of its words of 3+ letters."""
    low = sentence.casefold()
    at = low.find(name.casefold())
    if at >= 0 and len(name) == len(name.casefold()):
        return [(at, at + len(name))]
    out = []
    for w in _words(name):
        out += [(m.start(), m.end()) for m in re.finditer(r"(?<!\w)" + re.escape(w) + r"(?!\w)", low)]
    return out


def marked(sentence: str, relations: Sequence[Relation]) -> tuple[tuple[str, str], ...]:
    """The sentence cut into parts, the words of the relations' subjects and objects marked (subject wins)."""
    kind = [""] * len(sentence)
    for which in ("object", "subject"):
        for r in relations:
            for a, b in _spans(sentence, r.subject if which == "subject" else r.object):
                kind[a:b] = [which] * (b - a)
    parts: list[tuple[str, str]] = []
    for i, c in enumerate(sentence):
        if parts and parts[-1][1] == kind[i]:
            parts[-1] = (parts[-1][0] + c, kind[i])
        else:
            parts.append((c, kind[i]))
    return tuple(parts)


def place(sentences: Sequence[str], relations: Sequence[Relation]) -> tuple[list[list[Relation]], list[Relation]]:
    """Each relation on the sentence that writes a word of most of its three parts — subject, predicate, object —,
    then most of their words (the first of equals); those no sentence writes any word of, apart. The predicate
    counts as much as a name: by the names alone, "Skerry Point Lighthouse | reached on foot along | Cliff Path" went
    to the sentence naming the lighthouse before "It stands … reached on foot along the Cliff Path" (a pronoun for
    its subject), and a triple moved to another sentence when its subject was edited (a new user's walk)."""
    bags = [_words(s) for s in sentences]
    on: list[list[Relation]] = [[] for _ in sentences]
    apart = []
    for r in relations:
        parts = [_words(r.subject), _words(r.predicate), _words(r.object)]
        every = set().union(*parts)
        scores = [sum(len(w & b) > 0 for w in parts) + len(every & b) / 100 for b in bags]
        best = max(range(len(scores)), key=lambda i: scores[i], default=None)
        if best is None or scores[best] == 0:
            apart.append(r)
        else:
            on[best].append(r)
    return on, apart


def review_passages(graph: Graph, passages: Sequence[Passage], only: set[str] | None = None) -> list[PassageView]:
    """The passages sentence by sentence with their triples (`only`: just these relation ids). Every triple is
    placed, then the filter applied, so a sentence keeps its triples' count ("Suggested fixes only" said "no triple
    from this sentence" of sentences with three, walk24) and a triple its sentence whatever is filtered."""
    rel_ids = [r for p in passages for r in p.relation_ids]
    rels = {r.id: r for r in graph.get_relations(list(dict.fromkeys(rel_ids)))}
    out = []
    stored = [decode_sentences(p.text, p.sentences) for p in passages]  # split at ingest; older passages: now
    fresh = iter(split_texts([p.text for p, s in zip(passages, stored, strict=True) if s is None]))

    def shown(rs: list[Relation]) -> tuple[Relation, ...]:
        return tuple(r for r in rs if only is None or r.id in only)

    for p, s in zip(passages, stored, strict=True):
        sentences = list(s[0]) if s is not None else next(fresh)
        on, apart = place(sentences, [rels[r] for r in p.relation_ids if r in rels])
        views = tuple(SentenceView(s, marked(s, shown(rs)), shown(rs), len(rs) - len(shown(rs)))
                      for s, rs in zip(sentences, on, strict=True))  # fmt: skip
        out.append(PassageView(p, views, shown(apart)))
    return out


def focus_on(view: PassageView, entity_id: str) -> tuple[PassageView, PassageView]:
    """A passage split for one entity: the sentences holding a triple that names it (as subject or object; a name
    merged into it is the same id), with only those triples; then the whole passage with its other triples. Filtered
    by "Thomas Rudd", the page listed every triple of his passage, "… | shows | tidal marshes" first (walk23)."""

    def split(rs: tuple[Relation, ...], its: bool) -> tuple[Relation, ...]:
        return tuple(r for r in rs if (entity_id in (r.subject_id, r.object_id)) == its)

    def part(its: bool) -> PassageView:
        kept = [(s, split(s.relations, its)) for s in view.sentences]
        sentences = tuple(SentenceView(s.text, marked(s.text, rs), rs, 0 if its else s.hidden)
                          for s, rs in kept if rs or not its)  # fmt: skip
        return PassageView(view.passage, sentences, split(view.unplaced, its))

    return part(True), part(False)


def passages_to_review(graph: Graph, doc_id: str | None, entity_id: str | None) -> list[Passage]:
    """A document's passages in order, or an entity's (within the document when both are given)."""
    if entity_id:
        ents = graph.get_entities([entity_id])
        psgs = graph.get_passages(list(ents[0].passage_ids)) if ents else []
        psgs = [p for p in psgs if doc_id in (None, p.doc_id)]
        return sorted(psgs, key=lambda p: (p.doc_id, p.chunk_index))
    return graph.passages_of_doc(doc_id) if doc_id else []

"""Who an evidence sentence's "he", "she", "it", "they" or "the company" is: read at answer time with the
extractor's own code (extraction/pronouns.py, persons.py: `ClauseReader.arg`), so the answer step shows the name
beside the pronoun ("She [= Katarzyna Pyrek] married Jan Pyrek, …") and the verdict counts the sentence as naming
it. The inserted name is the tool's, never the document's: a `Referent` is kept apart from the sentence's text.

Only the subject a sentence opens with is resolved (after a date or a phrase set off by a comma: "On 4 February 1902
he married …"; not "the pilot" of "The captain was the pilot flying", nor the "he" of "Władek is sixteen and since
the summer he works …", whose sentence names Władek itself: the reader there is the one to judge). Nothing is
resolved to a name the sentence already writes. The passage is read as a text with no topic (its heading is not the
passage's subject: an upload's "Notes on the transcription" is no person); the topic a passage was given at ingest is
not stored with it. Only the evidence chosen is read (evidence.choose: the choice itself does not see the
referents); one parse per passage holding one, from BACK sentences before the first to the last (a definite noun's
earlier mention further back is not seen). The graph's recorded spellings (query/aliases.py) are read before the choice.
"""

from __future__ import annotations

import re
from dataclasses import replace
from collections.abc import Collection, Sequence
from typing import Any, Protocol

from ..extraction.clauses import PERSONAL, ClauseReader
from ..extraction.pronouns import bare
from ..extraction.shapes import SUBJ
from ..nlp import load_spacy
from .evidence import Sentence, states
from .question import norm
from .trace import Referent

# a sentence opening with its subject pronoun or a definite noun (after a date or a short phrase and a comma: "On 4
# February 1902 he married …", "In 1975, the company …")
_CANDIDATE = re.compile(r"^(?:[^,;:]{0,40}?(?:\d|,)\s*)??(he|she|it|they|the|this)\b", re.IGNORECASE)
BACK = 4  # sentences read before the first candidate: "he"/"she" look one back, a chain of them four (persons.py)
_SUBJECT_PRONOUNS = {"he", "she", "it", "they"}
_NUMERIC = {"DATE", "TIME", "CARDINAL", "ORDINAL", "PERCENT", "QUANTITY", "MONEY"}


class _Text(Protocol):
    text: str


def referents(
    passages: Sequence[_Text], split: Sequence[tuple[int, str, str]], only: Collection[tuple[int, str]] | None = None
) -> tuple[tuple[Referent, ...], ...]:
    """Per sentence of `split` ((passage index, title, sentence) as listed_sentences gives them), the subjects the
    extractor resolves to a name the sentence does not write: (start, end) of the pronoun in the sentence, the
    name. `only`: the (passage index, sentence) pairs to read (the evidence chosen); the others get (). Empty
    without spaCy."""
    out: list[tuple[Referent, ...]] = [()] * len(split)
    wanted = [k for k, (i, _, x) in enumerate(split) if (only is None or (i, x) in only) and _CANDIDATE.search(x)]
    nlp = load_spacy() if wanted else None
    if nlp is None:
        return tuple(out)
    by_passage: dict[int, list[int]] = {}
    for k, (i, _, _) in enumerate(split):
        by_passage.setdefault(i, []).append(k)
    windows: list[tuple[int, str, list[int]]] = []  # (start in the passage, text read, sentences resolved)
    places_of: dict[int, int] = {}
    for i, ks in by_passage.items():
        text = passages[i].text if i < len(passages) else ""
        at, places = 0, {}
        for k in ks:  # where each sentence stands in its passage's text
            j = text.find(split[k][2], at)
            if j >= 0:
                places[k], at = j, j + len(split[k][2])
        places_of.update(places)
        todo = [k for k in ks if k in places and k in wanted]
        if todo:
            first = [k for k in ks if k in places and k <= todo[0]][-BACK - 1 :][0]
            end = max(places[k] + len(split[k][2]) for k in todo)
            windows.append((places[first], text[places[first] : end], todo))
    docs = nlp.pipe([w for _, w, _ in windows])  # type: ignore[attr-defined]
    for (begin, _, todo), doc in zip(windows, docs, strict=True):
        reader = ClauseReader(doc, "")
        for k in todo:
            out[k] = _resolved(reader, places_of[k] - begin, split[k][2])
    return tuple(out)


def _resolved(reader: ClauseReader, start: int, sentence: str) -> tuple[Referent, ...]:
    """The referents of one sentence standing at `start` in the reader's text."""
    doc = reader.doc
    span = doc.char_span(start, start + len(sentence), alignment_mode="expand")
    if span is None:
        return ()
    m = _CANDIDATE.search(sentence)
    if m is None:
        return ()
    for tok in span:  # the subject whose first word is the sentence's opening "she" / "the"
        first = tok if tok.lower_ in PERSONAL else tok.left_edge  # "the company", not "company"
        if tok.dep_ not in SUBJ or first.idx - start != m.start(1) or not (tok.lower_ in _SUBJECT_PRONOUNS or
                                                                             bare(tok)):  # fmt: skip
            continue
        if any(_named(reader, t) for t in doc[span.start : first.i]):
            return ()  # the sentence names something before it ("In Leeds, it …"): the reader can judge
        a: Any = reader.arg(tok)
        a0, a1 = first.idx - start, tok.idx + len(tok.text) - start
        if a is None or a.kind != "name" or not a.text or a.text.casefold() in sentence.casefold() or \
                not 0 <= a0 < a1 <= len(sentence):  # fmt: skip
            return ()
        return (Referent(a0, a1, a.text),)
    return ()


def _named(reader: ClauseReader, tok: Any) -> bool:
    ent = reader.ent_of.get(tok.i)
    return ent is not None and ent.label_ not in _NUMERIC


def resolved_names(found: Sequence[Sequence[Referent]]) -> tuple[tuple[str, ...], ...]:
    """The names each sentence's referents stand for."""
    return tuple(tuple(r.name for r in rs) for rs in found)


def restated(
    chosen: Sequence[Sentence], split: Sequence[tuple[int, str, str]], also: Sequence[Sequence[str]],
    names: Sequence[str],
) -> list[Sentence]:
    """The chosen sentences, each also stating the question's names that the names it stands for (`also`, per
    sentence of `split`) state: "She [= Katarzyna Pyrek] married …" states "Katarzyna Pyrek"."""
    by = {(i, x): a for (i, _, x), a in zip(split, also, strict=False) if a}
    out = []
    for s in chosen:
        extra = " " + " ".join(norm(n) for n in by.get((s.passage, s.text), ())) + " "
        more = {n for n in names if n not in s.names and extra.strip() and states(norm(n), extra)}
        out.append(replace(s, names=s.names | more, name_keys=s.name_keys | {norm(n) for n in more},
                           padded=s.padded + extra.lstrip()) if more or extra.strip() else s)  # fmt: skip
    return out

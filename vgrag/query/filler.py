"""Whether the evidence names anyone but the question's own names in the place a "who" question asks about.

"Who was the managing director before Tom Henshaw?" asks for someone other than Tom Henshaw; "Our managing director
is Tom Henshaw" says every word of the question of Tom Henshaw, and the verdict's word-by-word reading (verdict.py)
finds it all. But the one the sentence names as the managing director is the question's own name, and a question
never asks for a name it gives ("before", "after", "instead of", "other than": whatever the preposition, the answer
is not the name). So a "found" verdict on a "who" question stands only when some evidence sentence saying its role
or its verb (parse.slot_of) names, in the parse's place for the answer, something that is not one of the question's
names; when every such place holds one of them, the answer is "partly found", saying so. The places (spaCy's
dependency parse of the evidence sentence, no word list):

- a role noun ("director"): the other side of its copula ("The director is X", "X is the director"), its
  appositive ("our winemaker, X"; "X, our winemaker");
- a verb ("designed"): its subject ("X designed …"), or the object of its passive "by" ("… was designed by X").

A sentence where none of these places is found decides nothing (the verdict stands).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..nlp import load_spacy
from .evidence import Sentence, states
from .question import Asked, norm
from .verdict import Verdict, _quote


def _span(t: object) -> str:
    """The token with its compound and flat parts before it ("Tom Henshaw", "Mrs Helen Darby"), normalised."""
    parts = [c for c in t.children if c.dep_ in ("compound", "flat") and c.i < t.i]  # type: ignore[attr-defined]
    return norm(" ".join([*(c.text for c in parts), t.text]))  # type: ignore[attr-defined]


def places(sentence: str, lemmas: frozenset[str]) -> list[str]:
    """What the parse of `sentence` puts where the answer goes, for each token whose lemma is one of `lemmas`
    (the role or verb asked): normalised spans (see the module doc)."""
    nlp = load_spacy()
    if nlp is None:
        return []
    out = []
    for t in nlp(sentence):  # type: ignore[operator]
        if t.lemma_.lower() not in lemmas and t.lower_ not in lemmas:
            continue
        found = []
        if t.pos_ == "VERB":
            found += [c for c in t.children if c.dep_ == "nsubj"]
            found += [g for c in t.children if c.dep_ == "agent" for g in c.children if g.dep_ == "pobj"]
        else:
            if t.dep_ in ("nsubj", "attr") and t.head.lemma_ == "be":
                found += [c for c in t.head.children if c.dep_ in ("nsubj", "attr") and c.i != t.i]
            found += [c for c in t.children if c.dep_ == "appos"]
            if t.dep_ == "appos":
                found.append(t.head)
        out += [_span(x) for x in found]
    return out


def own_answer(asked: Asked, chosen: Sequence[Sentence], verdict: Verdict) -> Verdict:
    """The verdict, or "partly found" when it is "found" for a "who" question and every place for the answer that
    the evidence sentences saying its role or verb fill holds one of the question's own names (module doc)."""
    if verdict.kind != "found" or not asked.slot or not asked.names:
        return verdict
    head = asked.slot[-1]
    lemmas = asked.lemmas[head] | {asked.words[head]}
    keys = [f" {norm(n)} " for n in asked.names]
    filled = [p for s in chosen if head in s.words for p in places(s.text, lemmas)]
    if not filled or not all(any(states(p, k) or states(k[1:-1], f" {p} ") for k in keys) for p in filled):
        return verdict
    own = [n for n in asked.names if any(states(norm(n), f" {p} ") or states(p, f" {norm(n)} ") for p in filled)]
    role = " ".join(asked.words[i] for i in asked.slot)
    what = f"the one who “{role}”" if asked.slot == (asked.predicate,) else f"“{role}”"
    said = (f"Partly found: the evidence names only {_quote(own or asked.names, 'and')} as {what}, and the "
            "question asks for someone else.")  # fmt: skip
    return Verdict("partly", said, (), (), verdict.name_share, verdict.word_share, verdict.by)

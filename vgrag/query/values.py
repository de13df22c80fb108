"""Whether a sentence states the value a question asks for: a count of the counted thing ("how many days": "27 days
of annual leave"), or a date or time of what the asked word says ("when was it built": "… was built in 1850", not
"consent … was granted on 3 March 2026"). Used by the verdict (verdict.judge) for "found"."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..nlp import Lemmas, load_spacy
from .evidence import Sentence
from .parse import COUNT, DATE_TIME, like_num
from .question import norm


def states_value(
    group: Sequence[Sentence],
    names: Sequence[str],
    value: frozenset[str],
    word: int,
    counted: frozenset[str] = frozenset(),
    lex: Lemmas | None = None,
    verb: frozenset[str] = frozenset(),
) -> bool:
    """Whether a sentence of `group` saying the question's word `word` (any of its words when -1) states the value
    asked: for a count (`value` COUNT: "how many days", `counted`: the lemmas of "days"), a number within the three
    words before the counted word ("27 days of annual leave", "a 28-bed ward"; not "closes to passengers on 2
    January") — and with `verb` (the lemmas of the question's main verb: "how many people *work* …"), a count of
    what that verb says (`counted_by`); otherwise an entity of a label in `value` that is not one of the question's
    own names (its own year is no answer)."""
    own = {norm(n) for n in names}
    for s in group:
        if not (word in s.words if word >= 0 else s.words):
            continue
        if counted and lex is not None and value == COUNT:
            toks = [t.casefold() for t in re.findall(r"\w+", s.text)]
            forms = lex.of([t for t in toks if t[:1].isalpha()])
            lemmas = iter(forms)
            at = [bool(next(lemmas) & counted) if t[:1].isalpha() else False for t in toks]
            if any(a and any(like_num(x) for x in toks[max(0, k - 3) : k]) for k, a in enumerate(at)):
                if not verb or counted_by(s.text, counted, verb):
                    return True
        elif any(lab in value and t not in own for t, lab in s.typed):
            if not (counted and value & DATE_TIME) or dated(s.text, value, counted, own):
                return True
    return False


def dated(text: str, value: frozenset[str], counted: frozenset[str], own: set[str]) -> bool:
    """Whether a date or time of the sentence is one of what the question's word says: in spaCy's parse, the word
    (`counted`: its lemmas) is on the path from the date up to the first verb governing it, or is that verb's
    conjunct. "… was built in 1850" and "built and opened in 1850" state when it was built; "Listed building consent
    … was granted … on 3 March 2026" states when the consent was granted, not when the church was built (its
    "building" says *build* only as a noun inside another phrase). True without spaCy (nothing to check with)."""
    nlp = load_spacy()
    if nlp is None:
        return True
    for ent in nlp(text).ents:  # type: ignore[operator]
        if ent.label_ not in value or norm(ent.text) in own:
            continue
        path, t = [ent.root], ent.root
        while t.pos_ not in ("VERB", "AUX") and t.head.i != t.i:
            t = t.head
            path.append(t)
        path += [c for c in t.children if c.dep_ == "conj"] + ([t.head] if t.dep_ == "conj" else [])
        if any(x.lemma_.lower() in counted or x.lower_ in counted for x in path):
            return True
    return False


def counted_by(text: str, counted: frozenset[str], verb: frozenset[str]) -> bool:
    """Whether a counted word of the sentence (`counted`: its lemmas) with a number is what the question's verb
    (`verb`: its lemmas) says, in spaCy's parse: the verb is on the path from the counted word up to the first verb
    governing it, that verb's conjunct, or a clause of the counted word itself. "The company employs 340 people, 120
    of whom work in Leeds" counts people who work; "… supplies drinking water to about 212,000 people" counts
    people supplied, not people working (its "treatment works" says *work* only as a noun). True without spaCy."""
    nlp = load_spacy()
    if nlp is None:
        return True
    for t in nlp(text):  # type: ignore[operator]
        if not (t.lemma_.lower() in counted or t.lower_ in counted) or not any(c.like_num for c in t.subtree):
            continue
        path, u = [t, *(c for c in t.children if c.dep_ in ("acl", "relcl"))], t
        while u.pos_ not in ("VERB", "AUX") and u.head.i != u.i:
            u = u.head
            path.append(u)
        path += [c for c in u.children if c.dep_ in ("conj", "xcomp")] + ([u.head] if u.dep_ == "conj" else [])
        if any(x.pos_ == "VERB" and (x.lemma_.lower() in verb or x.lower_ in verb) for x in path):
            return True
    return False


def bare_value(group: Sequence[Sentence], value: frozenset[str], names: Sequence[str]) -> bool:
    """Whether a sentence of `group` states a value of a label in `value` (not one of the question's names) that no
    verb of its own governs: up the parse from the value, the first verb is none or a copula ("The ban was in force
    from 14 July to 22 September 2025", a table row "Viaduct: 1866"). Such a value may be the one asked, its verb
    left unwritten; one a verb governs ("who joined us in 2019", "fell to 41 per cent in August") is that verb's.
    True without spaCy (nothing to check with)."""
    nlp = load_spacy()
    if nlp is None:
        return True
    own = {norm(n) for n in names}
    for s in group:
        if not any(lab in value and t not in own for t, lab in s.typed):
            continue
        for ent in nlp(s.text).ents:  # type: ignore[operator]
            if ent.label_ not in value or norm(ent.text) in own:
                continue
            t = ent.root
            while t.pos_ not in ("VERB", "AUX") and t.head.i != t.i:
                t = t.head
            if t.pos_ != "VERB":
                return True
    return False

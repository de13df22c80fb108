"""Who and what a question is about, read from spaCy's parse of it, for the verdict (verdict.py):

- `owners`: for each content word, the question's names nearest it in the dependency tree. "Where did Daniel Osei
  work before Fernleaf Analytics?" asks "work" of Daniel Osei (its subject), not of Fernleaf Analytics; "How many
  hectares of Pinot Noir does Bellhaven farm?" asks "hectares" of Pinot Noir. The verdict needs each word said of
  its own name, not of any name of the question.
- `anchors`: a question naming nothing the graph knows ("How many beds does the discharge lounge have?") is about
  its noun phrases; a word said only in sentences about something else is not said of them.
- `ties`: the pairs of the question's names it asks about together ("Where did Dr Kwame Boateng do his PhD?": the
  PhD is Boateng's), all but names nested in one another and names coordinated ("X or Y", "X and Y": each asked
  alone). The evidence must state each such pair together: one name in a sentence that speaks of the other.
- `value`, `value_word`: the kind of value its answer is, when the question's form says it ("when": a date or a
  time; "how many"/"how much": a number, an amount, a quantity), and the word whose sentence must state it ("how many
  passengers": passengers; "when … built": built). These are spaCy's entity labels, the same for every domain.
- `predicate`: the question's main verb (the parse's root, a verb among its content words): what a value asked is
  a value *of* ("When was it founded?", "How much are invigilators paid?").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

DATE_TIME = frozenset({"DATE", "TIME"})
COUNT = frozenset({"CARDINAL", "QUANTITY"})  # "how many": a number said before the counted word (verdict.py)
AMOUNT = frozenset({"CARDINAL", "QUANTITY", "MONEY", "PERCENT"})  # "how much": a number, amount or share
# the asked noun after "what"/"which" whose answer is a date or a time ("what year", "at what time")
_NOUN_VALUE = {"year": frozenset({"DATE"}), "date": frozenset({"DATE"}), "time": frozenset({"TIME"})}
_PHRASE = ("NOUN", "PROPN", "ADJ")
_FUNCTION = ("ADP", "DET", "PART", "SCONJ", "CCONJ", "AUX")  # a name's way up to the word governing it


def like_num(word: str) -> bool:
    """Whether a word is a number ("27", "1,200", "forty"): spaCy's English lexical attribute, else digits."""
    try:
        from spacy.lang.en.lex_attrs import like_num as spacy_like_num
    except ImportError:
        return word.replace(",", "").replace(".", "").isdigit()
    return bool(spacy_like_num(word))


def _path(t: object) -> list[object]:
    return [t, *t.ancestors]  # type: ignore[attr-defined]


def distance(a: object, b: object) -> int:
    """Edges between two tokens in the dependency tree."""
    pa, pb = _path(a), _path(b)
    at = {t.i: i for i, t in enumerate(pb)}  # type: ignore[attr-defined]
    return next((i + at[t.i] for i, t in enumerate(pa) if t.i in at), len(pa) + len(pb))  # type: ignore[attr-defined]


def _tokens_of(doc: object, words: Sequence[str]) -> list[object | None]:
    """The question token each content word (as written, case-folded) is, or None."""
    used: set[int] = set()
    out: list[object | None] = []
    for w in words:
        t = next((t for t in doc if t.lower_ == w and t.i not in used), None)  # type: ignore[attr-defined]
        if t is not None:
            used.add(t.i)  # type: ignore[attr-defined]
        out.append(t)
    return out


def _name_tokens(doc: object, name: str) -> list[object]:
    m = re.search(re.escape(name), doc.text, re.IGNORECASE)  # type: ignore[attr-defined]
    if not m:
        return []
    return [t for t in doc if m.start() <= t.idx < m.end()]  # type: ignore[attr-defined]


def owners_of(doc: object, names: Sequence[str], tokens: Sequence[object | None]) -> tuple[tuple[str, ...], ...]:
    """Per content word, the names nearest it in the parse; () when the question has fewer than two names found in
    it, or the word is not found (then any name will do)."""
    spans = {n: ts for n in names if (ts := _name_tokens(doc, n))}
    if len(spans) < 2:
        return ()
    out = []
    for t in tokens:
        if t is None:
            out.append(())
            continue
        far = {n: min(distance(t, x) for x in ts) for n, ts in spans.items()}
        best = min(far.values())
        near = {x.i for n, ts in spans.items() if far[n] == best for x in ts}  # type: ignore[attr-defined]
        mine = tuple(n for n, ts in spans.items() if near & {x.i for x in ts})  # type: ignore[attr-defined]
        out.append(mine if len(mine) < len(spans) else ())  # names nested in the nearest one are its own
    return tuple(out)


def _root(ts: Sequence[object]) -> object:
    """The token of a name's span whose head is outside it."""
    ids = {t.i for t in ts}  # type: ignore[attr-defined]
    return next((t for t in ts if t.head.i not in ids or t.head.i == t.i), ts[0])  # type: ignore[attr-defined]


def _between(a: object, b: object) -> set[int] | None:
    """The tokens on the dependency path between two tokens, both excluded; None when they are in different
    sentences (no common ancestor)."""
    pa, pb = _path(a), _path(b)
    ib = [t.i for t in pb]  # type: ignore[attr-defined]
    for k, t in enumerate(pa):
        if t.i in ib:  # type: ignore[attr-defined]
            return {x.i for x in pa[1:k]} | set(ib[1 : ib.index(t.i)]) | ({t.i} - {a.i, b.i})  # type: ignore[attr-defined]
    return None


def ties_of(doc: object, names: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """The pairs of the question's names (both found in it) asked about together: in one sentence of the question,
    with no other name on the dependency path between them (the pair's tie goes through that name's: "Indian film
    photographer Jagdish Mali, known for … Shabana Azmi"), not nested in one another ("Lena Hartmann" in "Professor
    Lena Hartmann") and not coordinated ("Mark King or Nick Hexum": a conjunct of the other, or both conjuncts of one
    head), which the question asks of each alone."""
    spans = {n: ts for n in names if (ts := _name_tokens(doc, n))}
    out = []
    for k, a in enumerate(spans):
        for b in list(spans)[k + 1 :]:
            ia, ib = {t.i for t in spans[a]}, {t.i for t in spans[b]}  # type: ignore[attr-defined]
            if ia & ib:
                continue
            ra, rb = _root(spans[a]), _root(spans[b])
            path = _between(ra, rb)
            others = {t.i for n, ts in spans.items() if n not in (a, b) for t in ts} - ia - ib  # type: ignore[attr-defined]
            if path is None or (path - ia - ib) & others:
                continue
            conj = (ra.dep_ == "conj" and ra.head.i in ib) or (rb.dep_ == "conj" and rb.head.i in ia)  # type: ignore[attr-defined]
            sibling = ra.dep_ == rb.dep_ == "conj" and ra.head.i == rb.head.i  # type: ignore[attr-defined]
            if not (conj or sibling):
                out.append((a, b))
    return tuple(out)


def governed_of(
    doc: object, names: Sequence[str], tokens: Sequence[object | None]
) -> tuple[tuple[str, int], ...]:
    """The (name, content-word index) pairs where one word of the question governs two or more of its names: the
    first content word up the parse from each name's root, through function words only ("approved" governs
    ORCHID-2, its object, and Germany, through "in", in "Which ethics committee approved ORCHID-2 in Germany?"). Such a
    word is asked of each of those names, not only of the nearest (`owners_of`): the approval asked is ORCHID-2's *in
    Germany*. A name whose way up meets a word that is no content word of the question (another name's, or a word
    of a name: "Which Bellhaven wine won …" — Bellhaven is the wine's) governs nothing here (no pair)."""
    spans = {n: ts for n in names if (ts := _name_tokens(doc, n))}
    at = {t.i: k for k, t in enumerate(tokens) if t is not None}  # type: ignore[attr-defined]
    inside = {t.i for ts in spans.values() for t in ts}  # type: ignore[attr-defined]
    by: dict[int, list[str]] = {}
    for n, ts in spans.items():
        own = {t.i for t in ts}  # type: ignore[attr-defined]
        t = _root(ts).head  # type: ignore[attr-defined]
        while t.pos_ in _FUNCTION and t.head.i != t.i:  # type: ignore[attr-defined]
            t = t.head  # type: ignore[attr-defined]
        if t.i in at and t.i not in inside and t.i not in own:  # type: ignore[attr-defined]
            by.setdefault(at[t.i], []).append(n)  # type: ignore[attr-defined]
    return tuple((n, k) for k, ns in sorted(by.items()) if len(ns) >= 2 for n in ns)


def anchors_of(tokens: Sequence[object | None], asking: object | None) -> tuple[frozenset[int], ...]:
    """The question's noun phrases of two words or more (runs of adjacent nouns and adjectives ending in a noun) as
    sets of content-word indices, leaving out the phrase the question word asks about ("which floor", "how many
    beds"). The phrase's last word is its head: a sentence saying it speaks of the phrase ("the committee" of "the
    planning committee")."""
    at = {t.i: k for k, t in enumerate(tokens) if t is not None}  # type: ignore[attr-defined]
    doc = next((t.doc for t in tokens if t is not None), None)  # type: ignore[attr-defined]
    if doc is None:
        return ()
    runs: list[list[object]] = [[]]
    for t in doc:
        if t.pos_ in _PHRASE and t.i in at:  # type: ignore[attr-defined]
            runs[-1].append(t)
        elif runs[-1]:
            runs.append([])
    out = []
    for run in runs:
        while run and run[-1].pos_ == "ADJ":  # type: ignore[attr-defined]
            run = run[:-1]
        asked = asking is not None and any(_determines(asking, t) for t in run)
        if len(run) >= 2 and not asked:
            out.append(frozenset(at[t.i] for t in run))  # type: ignore[attr-defined]
    return tuple(out)


def _determines(asking: object, t: object) -> bool:
    """Whether the question word determines the token: its determiner ("which floor", "whose office") or the adverb
    of its quantifier ("how many beds": "how" → "many" → "beds"). Not a question word modifying a verb ("When does
    the committee meet?", even with "meet" mis-tagged a noun)."""
    head = asking.head  # type: ignore[attr-defined]
    if asking.dep_ in ("det", "poss"):  # type: ignore[attr-defined]
        return head.i == t.i  # type: ignore[attr-defined]
    return asking.dep_ == "advmod" and head.dep_ == "amod" and head.head.i == t.i  # type: ignore[attr-defined]


def value_of(
    doc: object, asking: object | None, noun: str, tokens: Sequence[object | None]
) -> tuple[frozenset[str], int]:
    """The entity labels the answer has when the question's form says ("when", "what year", "how many"), and the
    index of the content word whose sentence must state it (-1: any)."""
    if asking is None:
        return frozenset(), -1
    at = {t.i: k for k, t in enumerate(tokens) if t is not None}  # type: ignore[attr-defined]
    wh, nxt = asking.lower_, doc[asking.i + 1] if asking.i + 1 < len(doc) else None  # type: ignore[attr-defined,index]
    if wh == "how" and nxt is not None and nxt.lower_ in ("many", "much"):
        counted = next((t for t in doc[nxt.i + 1 :] if t.pos_ in ("NOUN", "PROPN")), None)  # type: ignore[index]
        return COUNT if nxt.lower_ == "many" else AMOUNT, at.get(counted.i, -1) if counted is not None else -1
    labels = DATE_TIME if wh == "when" else _NOUN_VALUE.get(noun, frozenset()) if wh in ("what", "which") else None
    if not labels:
        return frozenset(), -1
    root = next((t for t in doc if t.dep_ == "ROOT"), None)  # type: ignore[attr-defined]
    return labels, at.get(root.i, -1) if root is not None else -1


def predicate_of(doc: object, tokens: Sequence[object | None]) -> int:
    """The index of the content word that is the question's main verb (its parse's root, tagged VERB; "is", "has"
    and other words no content word are none), -1 when there is none."""
    at = {t.i: k for k, t in enumerate(tokens) if t is not None}  # type: ignore[attr-defined]
    root = next((t for t in doc if t.dep_ == "ROOT"), None)  # type: ignore[attr-defined]
    return at.get(root.i, -1) if root is not None and root.pos_ == "VERB" else -1  # type: ignore[attr-defined]


def slot_of(asking: object | None, tokens: Sequence[object | None]) -> tuple[int, ...]:
    """What a "who" question says of the one it asks for (the content-word indices, head last): the role of "Who is
    the deputy headteacher?" (the copula's other noun, with its modifiers: deputy, headteacher), or the main verb of
    "Who designed the café?" / "Who did Anna marry?" (the question word its subject or object). () otherwise."""
    if asking is None or asking.lower_ not in ("who", "whom"):  # type: ignore[attr-defined]
        return ()
    at = {t.i: k for k, t in enumerate(tokens) if t is not None}  # type: ignore[attr-defined]
    head = asking.head  # type: ignore[attr-defined]
    if head.pos_ == "VERB" and asking.dep_ in ("nsubj", "nsubjpass", "dobj") and head.i in at:  # type: ignore[attr-defined]
        return (at[head.i],)  # type: ignore[attr-defined]
    if head.lemma_ != "be" or asking.dep_ not in ("nsubj", "attr"):  # type: ignore[attr-defined]
        return ()
    role = next((c for c in head.children if c.dep_ in ("nsubj", "attr") and c.i != asking.i  # type: ignore[attr-defined]
                 and c.pos_ == "NOUN" and c.i in at), None)  # fmt: skip
    if role is None:
        return ()
    mods = [c for c in role.children if c.dep_ in ("compound", "amod", "nmod") and c.i in at and c.i < role.i]  # type: ignore[attr-defined]
    return tuple(at[t.i] for t in [*mods, role])  # type: ignore[attr-defined]


def parsed(doc: object, names: Sequence[str], words: Sequence[str], asking: Sequence[object]) -> tuple:
    """(owners, anchors, value, value_word, ties, phrases, governed, predicate, slot) of a parsed question (see the
    module doc; `phrases`: its noun phrases of two words or more, with names or without; `governed`: `governed_of`;
    `slot`: `slot_of`)."""
    tokens = _tokens_of(doc, words)
    ask = asking[-1] if asking else None
    noun = ""
    if ask is not None and ask.lower_ in ("what", "which"):  # type: ignore[attr-defined]
        noun = next((t.lemma_.lower() for t in doc[ask.i + 1 :] if t.pos_ in ("NOUN", "PROPN")), "")  # type: ignore[attr-defined,index]
    value, value_word = value_of(doc, ask, noun, tokens)
    phrases = anchors_of(tokens, ask)
    return (owners_of(doc, names, tokens), () if names else phrases, value, value_word, ties_of(doc, names), phrases,
            governed_of(doc, names, tokens), predicate_of(doc, tokens), slot_of(ask, tokens))

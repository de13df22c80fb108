"""The offline reader: what a question asks for, the candidate answers of that type in the retrieved passages,
and which one the evidence supports best — or that none is supported (abstain).

No reader model ships with weights on PyPI, so this is built from spaCy's small English pipeline (named entities,
already installed for extraction) and the query's own signals: question-word overlap of the candidate's sentence,
the passage's retrieval rank, whether the reasoning chain reaches the candidate, and how many hops its sentence is
from the question's names (a nested question, "the city where X…", is answered one hop beyond X). What the question
asks is `question.py`; how a sentence writes a candidate (titled, named after the asked noun, …) is `phrases.py`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from .nlp import load_spacy
from .phrases import PLACE_LABELS, named_as, owns_asked, reaches, titled, whole_word, with_asked_noun, with_region
from .question import Question, analyse, hops, norm, question_names, relation_stems, stems
from .tags import SentenceTags, tag_sentences
from .text import split_sentences

# spaCy entity labels per answer type; "thing" takes any named entity
LABELS: dict[str, frozenset[str]] = {
    "person": frozenset({"PERSON"}),
    "place": frozenset({"GPE", "LOC", "FAC"}),
    "date": frozenset({"DATE", "TIME"}),
    "number": frozenset({"CARDINAL", "QUANTITY", "MONEY", "PERCENT"}),
    "organisation": frozenset({"ORG", "NORP"}),
    "work": frozenset({"WORK_OF_ART", "PRODUCT", "EVENT", "LAW", "ORG", "PERSON"}),
    "language": frozenset({"LANGUAGE"}),
    "group": frozenset({"NORP"}),
    "event": frozenset({"EVENT", "DATE"}),
}
UNTYPED_OK = frozenset({"organisation", "work", "thing"})  # where graph names / titles may answer (NER misses them)


@dataclass(frozen=True)
class Candidate:
    text: str
    label: str
    sentence: str
    passage_index: int  # rank of its passage in the retrieved list (0 = first)
    score: float
    bridge: float = 0.0  # how strongly the reasoning chain reaches it


_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")
_FIGURE = re.compile(
    r"(?:\b(?:about|around|approximately|nearly|over|some|almost|more than|fewer than|less than)\s+)?"
    r"(?<![\w.,])\d[\d,]*(?:\.\d+)?(?:\s*(?:%|percent|million|billion|thousand|hundred)\b)?"
)
_DATE_LIKE = re.compile(r"\d|centur|january|february|march|april|may|june|july|august|september|october|"
                        r"november|december|spring|summer|autumn|fall|winter", re.I)  # fmt: skip


@dataclass(frozen=True)
class _Sentence:
    rank: int
    title: str
    text: str
    low: str  # normalised, padded with spaces for whole-word look-ups
    coverage: float
    level: int | None


def candidates(
    q: Question,
    passages: Sequence[tuple[str, str]],
    bridge: dict[str, float],
    names: Sequence[str] = (),
    tags: SentenceTags | None = None,
) -> list[Candidate]:
    """Typed candidates in (title, text) passages, best first. Score = how many of the question's relation words
    the sentence has (0.5) + retrieval rank (0.3) + the reasoning chain reaching the candidate (bridge, ≤ 0.2)
    + the asked noun in it or its title (0.2 / 0.1) + stated where the question's hops end (0.2; -0.1 for the
    bridge a nested description names, see `_levels`) + a little for being mentioned in several passages; names
    the question already contains are never answers.

    Only sentences with the question's relation words or a name the chain reaches are read, and of those only the
    ones some hop from the question's names reaches (see `_levels`) when there are any: the NER that tags them is
    most of the reader's time (reading the unreached ones too cost 8-10 ms a question and changed no answer metric
    on either dev set). Reading the most promising first and stopping once no untagged sentence could hold a better
    answer was tried: the bound is loose, so it saved nothing and batching cost 1-9 ms."""
    nlp = load_spacy()
    if nlp is None or not passages:
        return []
    qn = norm(q.text)
    rel_words = relation_stems(q.text)
    cue_words = set(q.noun.split())
    labels = LABELS.get(q.type)
    untyped = q.type in UNTYPED_OK
    bridge_names = [name for name, w in bridge.items() if w > 0]
    asked_years = set(_YEAR.findall(q.text))  # like its names, a year the question states is not what it asks
    known = [(n, norm(n)) for n in names if n[:1].isupper()]
    h = hops(q.text)
    off_time = q.type == "thing" and bool(cue_words) and not cue_words & _TEMPORAL
    split = [(rank, title, x, f" {norm(x)} ") for rank, (title, body) in enumerate(passages)
             for x in (split_sentences(body) or [body])]  # fmt: skip
    level, reach = _levels(q.text, split, names)
    work: list[_Sentence] = []
    for rank, title, sentence, low in split:
        have = stems(sentence)
        if not (have & rel_words or any(f" {b} " in low for b in bridge_names)):
            continue  # read_answer returns only these: the question's words or the chain lead to them
        # the asked relation's words say the sentence answers; the question's names only say it is about the
        # right thing (retrieval used them) and a first-hop sentence has them all: they do not count
        coverage = 0.5 * len(have & rel_words) / max(len(rel_words), 1)
        work.append(_Sentence(rank, title, sentence, low, coverage, level.get((rank, sentence))))
    if any(w.level is not None for w in work):  # read only what the question's names lead to, when they lead on
        work = [w for w in work if w.level is not None]
    found: dict[str, Candidate] = {}
    mentions: dict[str, int] = {}

    def score(w: _Sentence, ents: list[tuple[str, str]]) -> None:
        pool = list(ents)
        if q.type == "date":
            pool += [(y, "DATE") for y in _YEAR.findall(w.text)]
        if q.type == "number":  # the small NER misses plain figures ("carries about 900 passengers"): a figure
            # counts when the words right after it say what the question counts
            pool += [
                (m.group(0).strip(), "CARDINAL")
                for m in _FIGURE.finditer(w.text)
                if stems(" ".join(w.text[m.end() :].split()[:3])) & rel_words
            ]
        if untyped:  # names the graph knows, and the passage's title, wherever the sentence states them
            tagged = {norm(t) for t, _ in ents}
            pool += [
                (n, "NAME")
                for n, k in ((w.title, norm(w.title)), *known)
                if n[:1].isupper() and k not in tagged and f" {k} " in w.low
            ]
        title_words = set(norm(w.title).split())
        regions = {t for t, lab in ents if lab in PLACE_LABELS}
        for text, label in pool:
            text = whole_word(re.sub(r"\s*['’]s$", "", text), w.text)  # "Kim Jong-il's": Kim Jong-il
            text = with_asked_noun(text, w.text, q.noun)
            key = norm(text)
            typed = labels is None or label in labels
            if not key or not (typed or (untyped and label == "NAME")) or key in qn or label == "ORDINAL":
                continue  # ("first", "third": a rank alone answers nothing asked here)
            if q.type == "date" and not _DATE_LIKE.search(text):  # "seven-year", "little over a year"
                continue
            if off_time and label in ("DATE", "TIME"):  # "what body of water", "what treaty": a date answers "when"
                continue
            if q.type == "date" and set(_YEAR.findall(text)) & asked_years:  # the question's own date
                continue
            near = [v for name, v in bridge.items() if reaches(key, name)]
            b = max(near, key=abs, default=0.0)
            # the asked noun in the candidate itself ("… International Airport") or else in its passage's title
            cue = 0.2 if cue_words & set(key.split()) else 0.1 if cue_words & title_words else 0.0
            if not cue and (titled(text, w.text, rel_words) or named_as(text, w.text, q.noun)):
                cue = 0.2
            value = w.coverage + 0.3 / (1 + w.rank) + b + cue - (0.1 if label == "NAME" else 0.0)
            if owns_asked(text, w.text, rel_words):
                value -= 0.1  # "X's first wife": X is what the asked relation is of, like a bridge, not its value
            if w.level is not None and w.level == h and reach.get(key, _FAR) > h:
                value += 0.2  # stated where the hops from the question's names end, and not met on the way
            elif h and reach.get(key, _FAR) <= h:
                value -= 0.1  # met on the way there: the thing the nested description names (the bridge)
            mentions[key] = mentions.get(key, 0) + 1
            if key not in found or value > found[key].score:
                shown = with_region(text, w.text, regions) if label in PLACE_LABELS else text  # said, not weighed
                found[key] = Candidate(shown, label, w.text, w.rank, value, b)

    for w, ents in zip(work, tag_sentences(nlp, [w.text for w in work], tags), strict=True):
        score(w, ents)
    ranked = [
        Candidate(c.text, c.label, c.sentence, c.passage_index, c.score + 0.05 * math.log(mentions[k]), c.bridge)
        for k, c in found.items()
    ]
    return sorted(ranked, key=lambda c: (-c.score, c.passage_index, c.text))


# nouns that ask for a date or a time ("what period", "what time"): other "what <noun>" questions never ask one
_TEMPORAL = frozenset(
    "time times date dates day days year years month months century centuries decade decades era period age season "
    "hour night morning evening week weeks".split()
)
_FAR = 99  # the reach of a name no hop from the question's names arrives at


def _levels(
    question: str, split: Sequence[tuple[int, str, str, str]], names: Sequence[str]
) -> tuple[dict[tuple[int, str], int], dict[str, int]]:
    """How many hops each sentence is from the question's own names. A sentence "mentions" its passage's title (a
    passage is about its title) and the known names (graph names, titles) it states; not the NER's entities, which
    exist only for the sentences the reader tags (with them, contains fell 13.3 -> 10.0 % on MuSiQue). Level 0: it
    mentions a name the question states; level n + 1: it mentions a name first mentioned at level n. `split` holds
    each sentence once, as (passage index, passage title, sentence, normalised sentence). Returns ((passage index,
    sentence) -> level, normalised name -> the level of its first mention + 1, 0 for the question's own names)."""
    qn = f" {norm(question)} "
    known = {norm(n) for n in (*names, *(title for _, title, _, _ in split)) if n[:1].isupper()}
    known = {n for n in known if len(n) > 2}
    reach = {n: 0 for n in known if f" {n} " in qn}
    reach.update({norm(m): 0 for m in question_names(question) if len(norm(m)) > 2})
    sentences = [((i, x), {norm(title)} | {n for n in known if f" {n} " in low}) for i, title, x, low in split]
    level: dict[tuple[int, str], int] = {}
    for depth in range(3):
        for key, mentioned in sentences:
            if key not in level and any(reach.get(m) == depth for m in mentioned):
                level[key] = depth
                for m in mentioned:
                    reach.setdefault(m, depth + 1)
    return level, reach


def yes_or_no(q: Question, passages: Sequence[tuple[str, str]]) -> tuple[str, str, int] | None:
    """A yes/no question ("Are X and Y both Z?", "Is X a Y?"): "yes" when every thing it asks about has a passage
    whose text also carries the question's remaining content words (half of them, in one sentence) and every name it
    asks them to have, else "no". The things asked about are the two names joined by "and"/"or" when there are; a
    name beyond them is an attribute ("… both British publications?", "… both airports in New York?"): it was taken
    for a third thing, found in some passage, and "yes" came out. Returns (answer, evidence sentence, passage index)
    or None without passages."""
    if not passages:
        return None
    names = question_names(q.text)
    joined = [(a, b) for a, b in zip(names, names[1:], strict=False)
              if re.search(re.escape(a) + r"\W+(?:and|or)\W+(?:the\s+)?" + re.escape(b), q.text)]  # fmt: skip
    subjects = list(joined[0]) if joined else names or [""]
    attributes = [norm(n) for n in names if n not in subjects]
    rest = relation_stems(q.text)
    if not rest and not attributes:
        return None
    best = ("no", "", 0)
    hits = 0
    for name in subjects:
        ok = False
        for i, (title, text) in enumerate(passages):
            whole = norm(title + " " + text)
            if (name and norm(name) not in whole) or any(a not in whole for a in attributes):
                continue
            for sentence in re.split(r"(?<=[.!?])\s+", text):
                if not rest or len(stems(sentence) & rest) >= max(1, len(rest) // 2):
                    ok, best = True, ("yes", sentence, i)
                    break
            if ok:
                break
        hits += ok
    return ("yes", best[1], best[2]) if hits == len(subjects) else ("no", best[1], best[2])


_EARLY = re.compile(r"\b(first|earlier|earliest|older|oldest|before|sooner)\b", re.I)
_LATE = re.compile(r"\b(later|latest|last|younger|youngest|newer|newest|more recent|most recent|after)\b", re.I)


def choose(q: Question, passages: Sequence[tuple[str, str]]) -> tuple[str, str, int] | None:
    """ "…, X or Y?": with first/older/earlier (or later/younger/newer) the option whose passage gives the earliest
    (latest) year; otherwise the option whose passage covers most of the question. (answer, sentence, index)."""
    best: tuple[float, str, str, int] | None = None
    rest = stems(q.text) - set().union(*(stems(c) for c in q.choices))
    for option in q.choices:
        key = norm(option)
        for i, (title, text) in enumerate(passages):
            if key not in norm(title) and key not in norm(text):
                continue
            for sentence in re.split(r"(?<=[.!?])\s+", text):
                years = [int(y) for y in _YEAR.findall(sentence)]
                if _EARLY.search(q.text) and years:
                    value = -min(years)
                elif _LATE.search(q.text) and years:
                    value = max(years)
                elif _EARLY.search(q.text) or _LATE.search(q.text):
                    continue
                else:
                    value = len(stems(sentence) & rest) - 0.01 * i
                if best is None or value > best[0]:
                    best = (value, option, sentence, i)
    return (best[1], best[2], best[3]) if best else None


def support(q: Question, sentence: str) -> int:
    """How many of the question's relation words (content words outside its capitalised names) the sentence has."""
    return len(stems(sentence) & relation_stems(q.text))


def unasked_support(q: Question, c: Candidate) -> int:
    """Support without the asked noun: the question's other relation words in the candidate's sentence outside the
    candidate itself, plus the question's names the sentence states."""
    words = stems(c.sentence.replace(c.text, " ")) & (relation_stems(q.text) - stems(q.noun))
    return len(words) + sum(norm(n) in norm(c.sentence) for n in question_names(q.text))


@dataclass(frozen=True)
class Reading:
    """The reader's verdict: a short answer with its sentence, or an abstention saying why."""

    short: str
    sentence: str
    passage_index: int
    abstained: bool
    asked: str
    why: str = ""
    how: str = ""  # how the question's shape steered the reading (a nested question: one hop beyond its names)


def _how(q: Question) -> str:
    """A nested question, in words for the Ask page: where the reader looked for its answer."""
    names = list(dict.fromkeys(m for m in question_names(q.text) if len(norm(m)) > 2))
    if not hops(q.text) or not names:
        return ""
    return (f"The question names what it asks about through something else, so the answer was looked for one hop "
            f"beyond {', '.join(names)}, and what lies in between was marked down as the bridge.")  # fmt: skip


def read_answer(
    question: str,
    passages: Sequence[tuple[str, str]],
    bridge: dict[str, float],
    names: Sequence[str] = (),
    tags: SentenceTags | None = None,
) -> Reading:
    """Answer from (title, text) passages, best first: the supported candidate of the asked type, a yes/no, one of
    the offered choices — or abstain when nothing of that type is supported by the question's own words or the
    reasoning chain (then the closest evidence is still shown)."""
    q = analyse(question)
    if q.type == "yesno":
        r = yes_or_no(q, passages)
        if r:
            return Reading(r[0], r[1], r[2], False, q.type)
    elif q.type == "choice":
        r = choose(q, passages)
        if r:
            return Reading(r[0], r[1], r[2], False, q.type)
    else:
        for c in candidates(q, passages, bridge, names, tags):
            # the question's words, or the chain, lead to it. With no chain at all (the graph links nothing to the
            # question) the asked noun is no lead — "company" in "… Company" or "an opera company" says what kind of
            # thing a candidate is, not that it is the one asked about — unless the sentence names the question's
            # subject
            said = support(q, c.sentence) if bridge else unasked_support(q, c)
            if said > 0 or c.bridge > 0:
                return Reading(c.text, c.sentence, c.passage_index, False, q.type, how=_how(q))
    what = {"yesno": "yes or no", "choice": "which of the options"}.get(q.type, f"the {q.type} asked for")
    return Reading("", "", 0, True, q.type, f"nothing in the retrieved passages supports {what}")

"""What a question asks: the answer's type (person, place, date, number, …), yes/no or one of offered choices, the
noun it asks about, its relation words, and whether it names its subject through another thing (a nested
description, so the answer is one hop further than the names it states)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from .nlp import STOPWORDS
from .text import split_sentences

AnswerType = Literal[
    "person",
    "place",
    "date",
    "number",
    "organisation",
    "work",
    "language",
    "group",
    "event",
    "yesno",
    "choice",
    "thing",
]

_AUX = {"is", "are", "was", "were", "do", "does", "did", "can", "could", "has", "have", "had", "will", "would"}
_PLACE = r"city|country|state|place|town|county|region|location|province|continent|island|capital|village|nation"
_ORG = r"company|organi[sz]ation|team|band|university|college|school|agency|party|network|label|club|firm|group|"
_ORG += r"corporation|manufacturer|carrier|airline|publisher|studio|league|army|government|institution"
_WORK = r"film|movie|book|album|song|novel|show|series|work|play|game|opera|magazine|newspaper|single|poem|painting"
_PERSON = r"actor|actress|singer|player|author|writer|director|politician|president|person|people|man|woman|"
_PERSON += r"character|musician|composer|artist|founder|leader|king|queen|poet|painter|producer|coach|wife|husband"
_TYPE_RULES: tuple[tuple[str, AnswerType], ...] = (
    (r"^(when|what year|which year|in what year|in which year|what date|on what date)\b", "date"),
    (r"\b(what|which)\s+(year|century|decade|date|time)\b", "date"),
    (r"\b(how many|how much|how old|how long|how tall|how far|what number|what percentage)\b", "number"),
    (r"\b(revenue|population|salary|budget|income|profit|price|cost|worth|capacity|height|weight|number)\b", "number"),
    (r"\b(what|which)\s+(\w+\s+)?(language|programming language)\b", "language"),
    (r"\b(what|which)\s+(nationality|ethnicity|religion)\b", "group"),
    (r"\b(what|which)\s+(\w+\s+)?(war|battle|event|competition|tournament|election)\b", "event"),
    (r"^(where)\b", "place"),
    (rf"\b(what|which|in what|in which)\s+(\w+\s+)?({_PLACE})\b", "place"),
    (rf"\b(what|which)\s+(\w+\s+)?({_PERSON})(e?s)?\b", "person"),
    (rf"\b(what|which)\s+(\w+\s+)?({_ORG})\b", "organisation"),
    (rf"\b(what|which)\s+(\w+\s+)?({_WORK})\b", "work"),
    (r"^(who|whom|whose)\b|\b(who|whom|whose)\b", "person"),
)


@dataclass(frozen=True)
class Question:
    text: str
    type: AnswerType
    choices: tuple[str, ...] = ()  # "X or Y"
    noun: str = ""  # the two words after the last which/what/how many ("Which team owns…" → "team owns"): answers
    # (or their passage's title) often carry one ("county" → "Avery County"; "records" → "150 million records")


_TAIL = re.compile(r"(?:,|\band)\s+(who|whom|whose|where|when|what|which|how)\b(.*)$", re.I)


def analyse(question: str) -> Question:
    """What the question asks for: a person, place, date, number, organisation, work, language, yes/no, one of
    the offered choices, or a thing. In "X, and who is its Y?" the last clause is what is asked."""
    q = question.strip()
    parts = split_sentences(q)
    opening = (parts[-1].split() or [""])[0].lower() if parts else ""
    asks = len(parts) > 1 and (parts[-1].endswith("?") or opening in _ASKING)
    if asks:  # "The director X has an OBE. Does Y also have one?": the last sentence asks (typed with or without
        inner = analyse(parts[-1])  # its question mark); the ones before only set the scene
        return Question(q, inner.type, inner.choices, inner.noun)
    tail = _TAIL.search(q)
    if tail and tail.start() > 0:
        inner = analyse(tail.group(1) + tail.group(2))
        return Question(q, inner.type, inner.choices, inner.noun)
    ql = q.lower()
    first = ql.split(" ", 1)[0] if ql else ""
    m = re.search(r",?\s*([^,?]+?)\s+or\s+([^,?]+?)\s*\?*$", q)
    if m and (first in ("which", "who", "what") or "," in q):
        option = m.group(1) if "," in m.group(0) else _trailing_name(m.group(1))  # "…formed first The Exies or …"
        return Question(q, "choice", (option.strip(" \"'"), m.group(2).strip(" \"'")))
    asked = _ASKED_INSIDE.search(ql)
    if first in _AUX and asked:  # "Do X, … released in which year, …?" asks for the year, not yes or no
        inner = analyse(q[asked.start() :])
        return Question(q, inner.type, noun=inner.noun)
    if first in _AUX:
        return Question(q, "yesno")
    found = re.findall(r"\b(?:which|what|how many)\s+([^?,]*)", ql)  # "how many records": what is counted
    noun = _cue(found[-1]) if found else ""
    for pattern, kind in _TYPE_RULES:
        if re.search(pattern, ql):
            if pattern.startswith("^(who") and first not in ("who", "whom", "whose") and found:
                break  # "a killer who was associated with what crime family?": that "who" is relative
            return Question(q, kind, noun=noun)
    return Question(q, "thing", noun=noun)


_ASKING = _AUX | {"who", "whom", "whose", "what", "which", "when", "where", "why", "how", "name", "list"}
_FILLER = {"name", "names", "kind", "type", "sort", "part", "one", "ones"}


def _cue(after_wh: str) -> str:
    """The asked noun after which/what, past "is the name of the" and the like ("…the airport in…" → "airport";
    "county shares a border" → "county shares": at most two words, an answer or its title often has one)."""
    words = re.findall(r"[a-z]+", after_wh)
    i = 0
    while i < len(words) and (words[i] in STOPWORDS or words[i] in _AUX or words[i] in _FILLER):
        i += 1
    out = []
    for w in words[i : i + 2]:
        if w in STOPWORDS or w in _AUX:
            break
        out.append(w)
    return " ".join(out)


_ASKED_INSIDE = re.compile(
    r"\b(?:in\s+)?(?:which|what)\s+(?:year|century|decade|country|city|state)\b|\bhow (?:many|much)\b"
)
_CONNECT = {"the", "of", "and", "de", "la", "von", "van", "&"}


def _trailing_name(text: str) -> str:
    """The capitalised name that ends a clause ("Which band was formed first The Exies" → "The Exies")."""
    words = text.split()
    start = len(words)
    while start > 1 and (words[start - 1][:1].isupper() or words[start - 1][:1].isdigit()
                         or (words[start - 1].lower() in _CONNECT and start < len(words))):  # fmt: skip
        start -= 1
    while start < len(words) and words[start].lower() in _CONNECT - {"the"}:
        start += 1
    return " ".join(words[start:]) or text


_WORD = re.compile(r"\w+", re.UNICODE)


@lru_cache(maxsize=16384)  # the same relation texts and sentences are stemmed for every chain and candidate
def stems(text: str) -> frozenset[str]:
    """Content words without their English inflection, cut to 5 letters: a crude, light stem ("operates" ~
    "operated", "studies" ~ "study")."""
    return frozenset(_stem(w)[:5] for w in _WORD.findall(text.casefold()) if w not in STOPWORDS and len(w) > 1)


@lru_cache(maxsize=65536)
def _stem(w: str) -> str:
    """An English inflection off ("studies", "studied" -> "study"; "disks" -> "disk"): cut to 5 letters alone,
    "study"/"studi" and "disk"/"disks" never met."""
    if w in _IRREGULAR:
        return _IRREGULAR[w]
    if len(w) <= 4:
        return w
    for suffix, repl in (("ies", "y"), ("ied", "y"), ("sses", "ss"), ("ches", "ch"), ("shes", "sh"), ("xes", "x"),
                         ("ing", ""), ("ed", ""), ("s", "")):  # fmt: skip
        if w.endswith(suffix) and not (suffix == "s" and w.endswith("ss")) and len(w) - len(suffix) + len(repl) >= 3:
            return w[: len(w) - len(suffix)] + repl
    return w


# irregular verb forms meet their base ("wrote", "written" ~ "write"; "sold" ~ "sell"). Left out: forms that are
# more often another word in these texts ("found" a company, "left", "saw", "fell", "born", "lead"); some kept forms
# are also nouns ("rose", "bit", "won", "shot", "felt"), which then meet a verb the question rarely asks about
_IRREGULAR = {
    form: base
    for base, forms in {
        "write": "wrote written", "sell": "sold", "buy": "bought", "win": "won", "make": "made", "give": "gave given",
        "take": "took taken", "begin": "began begun", "become": "became", "run": "ran", "hold": "held", "tell": "told",
        "sing": "sang sung", "speak": "spoke spoken", "draw": "drew drawn", "grow": "grew grown", "know": "knew known",
        "fly": "flew flown", "fight": "fought", "build": "built", "send": "sent", "spend": "spent", "lose": "lost",
        "meet": "met", "pay": "paid", "say": "said", "see": "seen", "shoot": "shot", "teach": "taught",
        "think": "thought", "throw": "threw thrown", "choose": "chose chosen", "break": "broke broken",
        "drive": "drove driven", "rise": "rose risen", "bring": "brought", "catch": "caught", "feel": "felt",
        "keep": "kept", "sleep": "slept", "stand": "stood", "understand": "understood",
        "steal": "stole stolen", "forget": "forgot forgotten", "freeze": "froze frozen", "swim": "swam swum",
        "sink": "sank sunk", "ride": "rode ridden", "hide": "hid hidden", "eat": "ate eaten", "bite": "bit bitten",
        "strike": "struck stricken", "wear": "wore worn", "tear": "tore torn", "swear": "swore sworn",
        "sit": "sat", "dig": "dug", "feed": "fed", "flee": "fled",
        "bleed": "bled", "breed": "bred", "deal": "dealt", "mean": "meant", "shine": "shone", "shake": "shook shaken",
        "wake": "woke woken", "weave": "wove woven", "blow": "blew blown", "go": "went gone", "do": "did done",
    }.items()
    for form in forms.split()
}  # fmt: skip


def norm(text: str) -> str:
    """SQuAD-style normalisation: lower case, no punctuation, no articles, single spaces."""
    text = re.sub(r"[^\w\s]", " ", text.casefold())
    return " ".join(w for w in text.split() if w not in ("a", "an", "the"))


_CAPITALISED = re.compile(r"\b[A-Z][\w'’\-]*(?:\s+[A-Z0-9][\w'’\-]*)*")


def question_names(question: str) -> list[str]:
    """The capitalised names a question states, in order, without a possessive "'s". Its first word, capitalised as
    any sentence's, is not one by itself ("Where", "Besides"); it starts a name the next word continues ("Grace
    Krilanovich's first novel …") unless it is a question or function word ("Which Brazilian …")."""
    names = [re.sub(r"['’]s$", "", m.group(0)) for m in _CAPITALISED.finditer(question.strip())]
    if names and question.strip().startswith(names[0]):
        first, _, rest = names[0].partition(" ")
        if not rest or first.lower() in STOPWORDS or first.lower() in _AUX or first.lower() in _LEADING:
            names[0] = rest
    return [n for n in names if n]


_LEADING = {"besides", "if", "although", "though", "since", "because", "during", "after", "before", "while"}


@lru_cache(maxsize=4096)  # asked once per candidate the reader weighs
def relation_stems(question: str) -> frozenset[str]:
    """The question's content words outside its capitalised names: what is asked about them."""
    return stems(question).difference(*(stems(n) for n in question_names(question)))


# a nested description of the thing a question is about: "the city where …", "the author of Brand", "Gisvi's city"
_NESTED = re.compile(
    r"\bthe\s+(?:[\w-]+\s+){0,3}?(?:where|that|which|who|whom|whose|in which|of which|at which|from which|by which)\b"
    r"|\bthe\s+(?:[\w-]+\s+){0,2}?\w+(?:ed|en|wn|lt|ht)\s+by\b"
    r"|\b[A-Z][\w.-]*['’]s\s+[a-z]"
    r"|\bthe\s+(?:[a-z-]+\s+){0,2}?of\s+(?:the\s+)?[A-Z\"]"
)


def hops(question: str) -> int:
    """How far beyond the names it states the question's answer lies: 1 when it names its subject through another
    thing ("the city where X was born", "X's team", "the author of X"), else 0."""
    return 1 if _NESTED.search(question) else 0

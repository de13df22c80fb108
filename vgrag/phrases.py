"""How a sentence writes a candidate answer: whole (not cut by the NER inside a hyphenated word), with the place
that contains it or the asked noun that follows it, titled with the asked role, named right after the asked noun,
or as the owner of the asked relation; and whether the reasoning chain's entity name is the candidate. The reader
(reader.py) weighs these; each is a small test on the sentence's own words."""

from __future__ import annotations

import re

from .question import stems


def owns_asked(text: str, sentence: str, rel_words: frozenset[str] | set[str]) -> bool:
    """Whether the sentence writes the name as the owner of a relation the question asks ("Kim Il-sung's first
    wife" for "Who is the wife of …?"): the name is then that relation's subject, not its value."""
    if not text or not rel_words:
        return False
    owned = re.finditer(re.escape(text) + r"['’]s\s+((?:[\w-]+\s+)?[\w-]+)", sentence)
    return any(stems(m.group(1)) & rel_words for m in owned)


def reaches(key: str, name: str) -> bool:
    """Whether the chain's (normalised) entity name is the candidate: the same name, one the candidate's name
    contains, or one that starts or ends with it ("johann strauss ii" for "johann strauss", "university of
    concepción" for the NER's "concepción") — not a word inside a description ("indian" is not "2015 indian drama
    film")."""
    return key == name or name in key or f"{name} ".startswith(f"{key} ") or f" {name}".endswith(f" {key}")


def named_as(text: str, sentence: str, noun: str) -> bool:
    """Whether the sentence writes the candidate right after the asked noun, as a kind of it ("India's pop band
    Euphoria" for "What is the name of the pop band …?"): lower case and nothing between, so "DuPage County,
    Illinois" does not make Illinois a county."""
    at = sentence.find(text)
    want = noun.split()
    return bool(want) and at > 0 and sentence[at - 1] == " " and sentence[:at].split()[-len(want) :] == want


def titled(text: str, sentence: str, rel_words: frozenset[str] | set[str]) -> bool:
    """Whether the sentence gives the name the asked role as its title ("… when President James K. Polk signed"
    for "Who was president when …"): the word right before the name is one of the question's relation words."""
    at = sentence.find(text)
    if at <= 0 or not rel_words:
        return False
    before = sentence[:at].split()[-1:]
    return bool(before) and before[0].isalpha() and before[0][:1].isupper() and bool(stems(before[0]) & rel_words)


PLACE_LABELS = frozenset({"GPE", "LOC"})  # the NER labels of places a containing place may follow


def whole_word(text: str, sentence: str) -> str:
    """A name the NER cut inside a hyphenated word is the whole word: "two" in "a two-time Pro Bowl selection" is
    "two-time"."""
    at = sentence.find(text)
    if at < 0 or not text:
        return text
    rest = re.match(r"-[^\W_]+(?:-[^\W_]+)*", sentence[at + len(text) :])
    return text + rest.group(0) if rest else text


def with_region(text: str, sentence: str, regions: set[str]) -> str:
    """A place the sentence writes with the place that contains it ("based in Columbus, Ohio") is named with it; not
    one of a list ("… Austria, Germany, Greece …", "… Austria, Germany and …")."""
    at = sentence.find(text)
    if at < 0 or not text or sentence[:at].rstrip().endswith(","):
        return text
    after = sentence[at + len(text) :]
    for region in sorted(regions, key=len, reverse=True):
        end = len(f", {region}")
        if region == text or not after.startswith(f", {region}") or (end < len(after) and after[end].isalnum()):
            continue
        if not re.match(r",\s*[A-Z]|\s+(?:and|or)\b", after[end:]):
            return f"{text}, {region}"
    return text


def with_asked_noun(text: str, sentence: str, noun: str) -> str:
    """A name that the sentence follows with the asked noun is named with it: "what crime family" and "… the
    DeCavalcante crime family of Newark" give "DeCavalcante crime family", not the tagged "DeCavalcante"."""
    n, at = len(noun.split()), sentence.find(text)
    if not n or at < 0 or not text:
        return text
    after = sentence[at + len(text) :].split()[:n]
    tail = " ".join(after).rstrip(".,;:!?)»”\"'")
    if len(after) == n and stems(noun) and stems(tail) == stems(noun) and tail.lower() not in text.lower():
        return f"{text} {tail}"
    return text

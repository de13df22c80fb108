"""Which heading a section is about: the topic that subject-less clauses and pronouns fall back to.

A heading that reads like a name ("Chlorambucil", "Impact", "The Facts") is not yet a name: report-style headings
("Impact", "Root Cause", "Action Items", "The Law") label what a section does, and made as topic they become an
entity every subject-less clause hangs on. A document's outermost heading is its title and names what it is about
(a Wikipedia-style article may paraphrase it: "Louis V of France" → "Louis V (c. 967 – 987) …"); a heading nested
under another is the topic only when the text under it uses it as a name, read from spaCy's parse:
- a name in that text (a run of proper nouns or an entity span) holds every content word of the heading and
  begins and ends with one of them ("Christopher Edward Nolan" under "Christopher Nolan"; not "the Law Society"
  under "The Law", not "the Norwegian Code of Practice for Corporate Governance" under "Corporate Governance"), or
- the heading, as written, is what a sentence defines: the subject of "be" with a noun attribute and without a
  determiner of its own ("Narcolepsy is a chronic sleep disorder"; not "The root cause was …", not "treatment is
  adjusted", not "without treatment").
A nested heading is also the topic when its own sub-headings are labels of a repeated template (`template_items`:
each lot of a catalogue under its title, each recipe under its name).
Otherwise the topic is the nearest enclosing heading that passes, or none. Without spaCy a mention is enough.
A title is the topic under the name the whole document gives it (`extraction.shapes.title_named`: "Vellora CM-40"
for "Vellora CM-40 Espresso Machine — User Manual"), chosen once, not per passage.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

from .structure import _SMALL, Section, entity_like, heading_name

_NUMERIC = {"DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL", "CARDINAL"}
# a sentence ends at a full stop, but not at the one of "St.", "Dr." or "J."
_SENT = re.compile(r"(?<![A-Z][a-z]\.)(?<![A-Z][a-z]{2}\.)(?<!\b[A-Z]\.)(?<=[.!?])\s+|\n+")
MAX_SENTENCES = 12  # sentences read per heading: the evidence, when there is some, is in the first few
NAME_WORDS = 12  # a title's name is looked for among its first words


def fold(text: str) -> str:
    """Case and accents folded."""
    s = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in s if not unicodedata.combining(c))


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W_][\w'’-]*", fold(text))


def _names(doc: Any) -> list[list[str]]:
    """The names a parsed text uses, as folded words: runs of proper nouns or tokens of a (non-numeric) entity,
    across a small word between two of them ("Code of Practice for Corporate Governance")."""
    spans: list[list[int]] = []  # [first, last] token of each run
    for tok in doc:
        if (tok.pos_ == "PROPN" or tok.ent_type_ and tok.ent_type_ not in _NUMERIC) and not tok.is_punct:
            prev = spans[-1][1] if spans else None  # "St." and the "'s" of "St. Ebba's Church" are words of it
            if prev is not None and (tok.i == prev + 1 or tok.i == prev + 2 and (doc[prev + 1].lower_ in _SMALL or
                                     doc[prev + 1].text == "-" and not doc[prev].whitespace_)):  # "Ofori-Atta"
                spans[-1][1] = tok.i
            else:
                spans.append([tok.i, tok.i])
    return [_words(doc[a : b + 1].text) for a, b in spans]  # split as the heading is ("ebba's", not "ebba" "'s")


def _defined(doc: Any, words: list[str]) -> bool:
    """Whether the heading's words, in order, are what a sentence of `doc` defines ("X is a Y"): the subject of
    "be" with a noun attribute, with no determiner or possessive outside them."""
    toks = [fold(t.text) for t in doc]
    n = len(words)
    for i in range(len(toks) - n + 1):
        if toks[i : i + n] != words:
            continue
        span = doc[i : i + n]
        root = span.root
        if root.dep_ != "nsubj" or root.head.lemma_ != "be" or not any(c.dep_ == "attr" for c in root.head.children):
            continue
        if any(c.dep_ in ("det", "poss") and not (i <= c.i < i + n) for c in root.children):
            continue
        return True
    return False


def names_it(heading: str, text: str, nlp: Any | None) -> bool:
    """Whether `text` uses `heading` as a name (see the module's docstring)."""
    words = _words(heading_name(heading))
    content = [w for w in words if w not in _SMALL]
    if not content:
        return False
    sents = [s for s in _SENT.split(text) if any(w in fold(s) for w in content)][:MAX_SENTENCES]
    if not sents:
        return False
    if nlp is None:
        pattern = re.compile(r"\b" + r"\W+".join(re.escape(w) for w in words) + r"\b")
        return any(pattern.search(fold(s)) for s in sents)
    for doc in nlp.pipe(sents):
        if _defined(doc, words):
            return True
        for run in _names(doc):
            run = [w for w in run if w not in _SMALL]
            if run and run[0] in content and run[-1] in content and set(content) <= set(run):
                return True
    return False


_PERSONAL = {"he", "she", "it", "they", "his", "her", "its", "their"}


def refers(topic: str, text: str) -> bool:
    """Whether a section two or more headings that are no names below its topic ("5.4.0 › Fixed" under a product's
    release notes; not "Warranty" of a manual, "Treatment" of a disease) still talks about the topic: it writes a
    word of the topic's name ("Turing was born …"), or its first sentence holds a personal pronoun ("In 1931 he went
    …"). A release's "Fixed" list ("Editors uploading images … received a timeout error", "The flaw was reported by
    …") does neither: the headings between introduced other things (a release, its fixes), and they are its subjects."""
    words = set(_words(text))
    first = next((s for s in _SENT.split(text) if s.strip()), "")
    return any(w in words for w in _words(topic) if w not in _SMALL) or bool(_PERSONAL & set(_words(first)))


def named_part(title: str, text: str, nlp: Any | None) -> str:
    """The longest start of a title its text uses as a name, where the text never writes the title whole: "Larkspur
    MQ" of "Larkspur MQ Changelog", "ORCHID-2" of "ORCHID-2 Protocol Summary" (the rest says what kind of document it
    is); the title itself when no start is such a name, when the rest names another thing the text names (a match
    report's "A 3–2 B"), or without spaCy."""
    words = title.split()[:NAME_WORDS]
    content = [w for w in _words(title) if w not in _SMALL]
    if nlp is None or len(words) < 2 or not content:
        return title
    sents = [s for s in _SENT.split(text) if any(w in fold(s) for w in content)][:MAX_SENTENCES]
    runs = {tuple(run) for doc in nlp.pipe(sents) for run in _names(doc)}
    for n in range(len(words) - 1, 0, -1):
        part = tuple(_words(" ".join(words[:n])))
        if part and part[-1] not in _SMALL and part in runs:
            rest = set(_words(" ".join(words[n:]))) - _SMALL  # "Kingsmere Athletic 3–2 Harbourside Rovers": the
            return title if any(r[0] in rest for r in runs if r) else " ".join(words[:n])  # rest names a thing too
    return title


def only_mentioned(short: str, title: str, text: str, nlp: Any | None) -> bool:
    """Whether a start of a title's name is never what its text talks about — never the subject of a clause, nor of
    the subject — so that it is not the name shortened but a thing the name is of: "Brackley Fen" of "Brackley Fen
    Town Council — Minutes of the Full Council Meeting", whose text writes it only in "Venue: Council Chamber, Corn
    Exchange, Brackley Fen" (the topic is then the whole name, "Brackley Fen Town Council"); not "Vellora CM-40" of
    "Vellora CM-40 Espresso Machine — User Manual" ("The Vellora CM-40 heats …"). Read from spaCy's parse."""
    from ..extraction.shapes import KIND, SUBJ

    if nlp is None or not title.startswith(short) or len(short.split()) >= len(KIND.split(title)[0].split()):
        return False
    key = _words(short)
    sents = [x for x in _SENT.split(text) if fold(short) in fold(x)][:MAX_SENTENCES]
    for doc in nlp.pipe(sents):
        for tok in doc:
            if _words(doc[max(0, tok.i - len(key) + 1) : tok.i + 1].text) != key:
                continue
            head = tok
            while head.dep_ in ("compound", "poss", "amod", "nmod") and head.head.i != head.i:
                head = head.head
            if head.dep_ in SUBJ:
                return False
    return True


def template_items(paths: Sequence[tuple[str, ...]]) -> set[tuple[str, ...]]:
    """The nested headings that head an item of a repeated template: a heading whose own sub-headings recur under
    another heading of the document (each lot of a catalogue has "Provenance", "Exhibited", "Literature"; each
    recipe "Ingredients" and "Method"). The recurring sub-headings are labels; the heading above them names the item
    they describe, the topic of its list items and fragments that have no subject ("Purchased from the artist by
    Helen Sutherland …" under a lot's title, which its text never repeats)."""
    parents: dict[str, set[tuple[str, ...]]] = {}
    for path in paths:
        for k in range(3, len(path) + 1):  # a heading nested under a nested heading (the title is not an item)
            parents.setdefault(fold(path[k - 1]).strip(), set()).add(path[: k - 1])
    return {p for ps in parents.values() if len(ps) >= 2 for p in ps}


def section_topics(sections: Sequence[Section], load_nlp: Callable[[], Any | None] | None = None) -> list[str]:
    """Each section's topic: the innermost heading of its path that reads like a name and, unless it is the
    outermost, is used as a name by the text under it (that section and the sections below it); else ""."""
    under: dict[tuple[str, ...], list[str]] = {}
    for sec in sections:
        for k in range(2, len(sec.heading) + 1):
            under.setdefault(sec.heading[:k], []).append(sec.text)
    found: dict[tuple[str, ...], bool] = {}
    nlp: list[Any | None] = []

    def parser() -> Any | None:  # loaded when first needed
        if not nlp:
            nlp.append(load_nlp() if load_nlp else None)
        return nlp[0]

    def about(path: tuple[str, ...], name: str) -> bool:
        if path not in found:
            found[path] = names_it(name, "\n".join(under.get(path, ())), parser())
        return found[path]

    from ..extraction.shapes import KIND, title_named  # the name a title gives in its document's words

    items = template_items([sec.heading for sec in sections])

    def doing(title: str) -> bool:  # "Eating and Sleeping in Quillhaven", "Planning Your Visit": a title saying
        # what the document does, which its text never writes (not "Finding Nemo", which a film's article does)
        if title.casefold() in whole:
            return False
        parse = parser()
        verbs = [t for t in parse(title) if t.tag_ == "VBG" and t.pos_ == "VERB"] if parse is not None else []
        return any(t.dep_ in ("ROOT", "conj") for t in verbs)

    titles: dict[str, str] = {}  # a title's topic, read once per document (not once per section)

    def title_topic(name: str) -> str:
        if name not in titles:
            topic = "" if doing(name) else title_named(name, whole, written)
            if topic == name and name.casefold() not in whole:  # "Vellora CM-40" of "Vellora CM-40 Espresso
                topic = named_part(name, written, parser())  # Machine — User Manual", also under "Error codes"
            if topic and topic != name and not name.startswith(topic + ",") and \
                    only_mentioned(topic, name, written, parser()):  # (the place after a comma qualifies the name)
                topic = KIND.split(name, maxsplit=1)[0].strip()  # "Brackley Fen Town Council", not the town
            titles[name] = topic
        return titles[name]

    written = "\n".join(sec.text for sec in sections)
    whole = written.casefold()
    out = []
    for sec in sections:
        topic = ""
        for k in range(len(sec.heading), 0, -1):
            name = heading_name(sec.heading[k - 1])
            if k > 1:  # a nested heading's name, then what it is after a spaced dash ("Maren Holtby – Music
                name = KIND.split(name, maxsplit=1)[0].strip() or name  # Director" heads her biography)
            if not entity_like(name):
                continue
            topic = title_topic(name) if k == 1 else name if sec.heading[:k] in items or about(sec.heading[:k], name) \
                else ""  # fmt: skip
            if topic:
                if k < len(sec.heading) - 1 and not refers(topic, sec.text):  # not two headings down ("5.4.0 ›
                    topic = ""  # Fixed"), where the text never mentions it
                break
        out.append(topic)
    return out

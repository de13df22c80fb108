"""What a question asks, read with spaCy: its question word, the noun it asks about, its content words as lemma
sets — and whether it is English at all (the offline models read only English).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..nlp import WORD, Lemmas, content_words, load_spacy, stop_words
from .parse import parsed


@dataclass(frozen=True)
class Asked:
    """A question as the answer step (its evidence, its verdict, a reader) uses it."""

    text: str
    wh: str  # the question word ("" when there is none, e.g. a yes/no question)
    noun: str  # the asked noun's lemma after which/what ("which city" -> "city"), else ""
    names: tuple[str, ...]  # the question's names (the query entities retrieval found)
    lemmas: tuple[frozenset[str], ...]  # one lemma set per content word outside the names
    english: bool
    words: tuple[str, ...] = ()  # those content words as written (case-folded), one per lemma set
    lex: Lemmas = field(default_factory=Lemmas, repr=False, compare=False)  # reads the passages' words the same way
    kind: str = ""  # the noun "which"/"what" determines ("which company" -> "company"): the kind of thing asked for
    owners: tuple[tuple[str, ...], ...] = ()  # per content word, the names nearest it in the parse (() = any name)
    anchors: tuple[frozenset[int], ...] = ()  # without names: the question's noun phrases (word indices) it is about
    value: frozenset[str] = frozenset()  # the entity labels its answer has when its form says ("when": DATE, TIME)
    value_word: int = -1  # the content word whose sentence must state that value ("how many beds": beds; -1: any)
    ties: tuple[tuple[str, str], ...] = ()  # pairs of its names asked about together (not "X or Y")
    phrases: tuple[frozenset[int], ...] = ()  # its noun phrases of 2+ words (word indices), names or not
    governed: tuple[tuple[str, int], ...] = ()  # (name, word index): a word governing 2+ names, asked of each
    predicate: int = -1  # the content word that is its main verb ("founded" in "When was X founded?"; -1: none)
    slot: tuple[int, ...] = ()  # "who": the role or verb said of the one asked for ("deputy headteacher"; parse.py)

    @property
    def kind_words(self) -> frozenset[int]:
        """The content words that name the kind of thing asked for: the answer is one ("Ulka" is the company), so
        the evidence need not say the word itself."""
        return frozenset(i for i, x in enumerate(self.lemmas) if self.kind and self.kind in x)


MAX_QUESTION_CHARS = 2_000  # ~4x what the embedders read of one text (MiniLM: 256 tokens); spaCy parses ~5 KB/s


class QuestionTooLong(ValueError):
    """A question longer than MAX_QUESTION_CHARS: refused before any parse or embedding (a 256 KB question took 14 s,
    1 MB over 8 minutes, and the embedders read only its first few hundred words)."""


def check_length(question: str) -> None:
    """QuestionTooLong, with what to do, for a question over MAX_QUESTION_CHARS characters."""
    n = len(question.strip())
    if n > MAX_QUESTION_CHARS:
        raise QuestionTooLong(f"the question has {n:,} characters; a question can have at most "
                              f"{MAX_QUESTION_CHARS:,}. Shorten it, or add the long text as a document (Build) and "
                              "ask about it.")  # fmt: skip


def norm(text: str) -> str:
    """SQuAD-style normalisation: lower case, no punctuation, no articles, single spaces."""
    text = re.sub(r"[^\w\s]", " ", text.casefold())
    return " ".join(w for w in text.split() if w not in ("a", "an", "the"))


_MARKUP = re.compile(r"<[^<>]*>|\w+://\S+")


def is_english(text: str) -> bool:
    """Latin script, and English function words among its lower-case words (spaCy's English stop words): a Spanish,
    German or Chinese question has none or few ("¿Dónde nació …?", "Wo wurde … geboren?")."""
    text = _MARKUP.sub(" ", text)  # tags and URLs are no language ("<img src=x onerror=…>" read as 5 words)
    letters = [c for c in text if c.isalpha()]
    if not letters or sum(c.isascii() for c in letters) < 0.9 * len(letters):
        return False
    stop = stop_words()
    if not stop:
        return True
    words = WORD.findall(text)
    lower = [w.lower() for n, w in enumerate(words) if w.islower() or n == 0]  # the first is capitalised anyway
    return bool(lower) and sum(w in stop for w in lower) >= 0.25 * len(lower)


def read_question(question: str, names: tuple[str, ...] = (), lex: Lemmas | None = None) -> Asked:
    """Parse the question once (spaCy's tagger and parser, no NER) for its question word and asked noun; its words
    and, later, the passages' are lemmatized by `lex` (the Workspace's, so a word is lemmatized once; default: new)."""
    nlp = load_spacy()
    lex = lex if lex is not None else Lemmas()
    english = is_english(question)
    name_words = frozenset().union(*lex.content(" ".join(names))) if names else frozenset()
    # a word whose lemma is a stop word ("owns", "makes": own, make) is asked too; the evidence reads the passages'
    # stop words for it (evidence.describe: "made" says "makes"), so "Who owns X?" is not answered by X alone
    pairs = [(w, x) for w, x in zip(content_words(question), lex.content(question), strict=True)
             if not x & name_words]  # fmt: skip
    lemmas, words = tuple(x for _, x in pairs), tuple(w for w, _ in pairs)
    if nlp is None:
        return Asked(question, "", "", names, lemmas, english, words, lex)
    doc = nlp(question, disable=["ner"])  # type: ignore[operator]
    wh_tokens = [t for t in doc if t.tag_ in ("WDT", "WP", "WP$", "WRB") and t.lower_ != "that"]
    # the asking word is not inside a relative or adverbial clause ("the country where X was born", "Which ward
    # closed when Larch Ward moved?"); of those the last ("…, and who is its chief executive?"); a question asked
    # inside one ("… a sport that was started when?") keeps it
    inner = ("relcl", "advcl")
    asking = [t for t in wh_tokens if all(a.dep_ not in inner for a in (t, *t.ancestors))] or wh_tokens[-1:]
    wh = asking[-1].lower_ if asking else ""
    noun = kind = ""
    if wh in ("which", "what", "how"):
        after = doc[asking[-1].i + 1 :]
        noun = next((t.lemma_.lower() for t in after if t.pos_ in ("NOUN", "PROPN")), "")
        if wh != "how" and asking[-1].dep_ == "det" and asking[-1].head.pos_ == "NOUN":
            kind = asking[-1].head.lemma_.lower()  # "which company makes …", not "what did the company make"
    return Asked(question, wh, noun, names, lemmas, english, words, lex, kind, *parsed(doc, names, words, asking))

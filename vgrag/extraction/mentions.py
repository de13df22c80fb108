"""What makes a mention a name, read from spaCy's parse (no word lists): where a run-on list glued into one noun
phrase breaks, whether a noun phrase is a quantity or determiner phrase, which tokens around a person's name are a
title rather than part of it, and whether a date names a day or says when.

- Run-on lists: a document's list items, table cells and undetected heading lines reach the parser as one
  stretch of words ("Skin reactions Hepatotoxicity Infertility Hair loss Chlorambucil also binds …"). Inside one
  name, a capitalised word right after a lower-case content word, a punctuation mark, a year between capitalised
  words or a capitalised word seen earlier in the same run (a flattened table row) starts a new item; "and"
  between two whole names ("… Hall of Fame and Women's Basketball Hall of Fame") too. The mention keeps the item
  that holds its head word. A preposition inside an entity span that the parser hangs on a word before the span
  ends the name ("the member of the House of Representatives for Wide Bay").
- Quantity phrases: a noun phrase whose own determiner or modifier is a quantifier — a spaCy stop word tagged as
  a determiner/adjective/number other than an article ("many", "several other", "each", "former"), an ordinal
  ("the first time", "the fifteenth album"), a superlative adverb ("the most influential directors"), a measure or
  pronoun as possessor ("one year's service", "its style guide") — says how many or which, not what.
- Titles: a dotted abbreviation ("Dr.", "Prof.") or an undotted vowel-less one before a given name and surname
  ("Mr Daniel Osei") before a PERSON span, and post-nominal letters after it ("Zoë Lefèvre KC"), are not part of
  the name.
- Dates: a DATE span is an entity only when it names a calendar day or month and is not a range; ranges, periods
  and frequencies ("between 14 and 16 November 2022", "the second half of the 19th century", "every 18 months")
  are the relation's date, like a bare year.
- Quoted titles: short quoted spans that start with a capital; a quoted title inside a longer name is the name. A
  quoted sentence in sentence case (a lower-case pronoun subject and verb) is no title.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from .measures import letters, unit

Tok = Any
_ARTICLES = {"the", "a", "an"}
_QUANTIFIER_DEPS = {"det", "predet", "amod", "nummod", "quantmod", "advmod"}
_CELL = {";", "|", ":", "•", "·", "(", ")", "[", "]"}  # table cells, list bullets, a parenthesis
_QUANTIFIER_POS = {"DET", "ADJ", "NUM", "PRON", "ADV"}
MONTH = re.compile(  # a month name ("decades" is not one)
    r"\b(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t|tember)?|oct(ober)?|nov(ember)?|"
    r"dec(ember)?)\b\.?", re.I)  # fmt: skip
_MEASURE = {"DATE", "TIME", "CARDINAL", "QUANTITY", "PERCENT", "MONEY"}
_DAYS = re.compile(r"\d[–—-]\d")  # "29–30" in "May 29–30" is one token
_RANGE = {"to", "between", "from", "until", "till", "through", "and", "or", "-", "–", "—"}


def point_date(span: Any) -> bool:
    """Whether a DATE span names one calendar day or month ("30 November 1937", "August 1938"): a month name and
    no range. A range ("July 1 to November 23, 1904", "between 9 and 25 February 2018"), a century or period
    ("the first half of the 20th century") or a frequency ("every 18 months") says when, like a bare year: it is
    kept on the relation, not made an entity."""
    return any(MONTH.fullmatch(t.text) for t in span) and not any(t.lower_ in _RANGE or _DAYS.search(t.text) for t
                                                                  in span)  # fmt: skip


def is_title(tok: Tok) -> bool:
    """A title abbreviation ("Dr.", "Prof.", "Mrs."): capitalised, ends with a full stop, at most 4 letters."""
    t = tok.text
    return t.endswith(".") and 2 <= len(t) <= 5 and t[0].isupper() and t[:-1].isalpha() and t[1:-1].islower()


def honorific(tok: Tok) -> bool:
    """A title before a person's name: a dotted abbreviation ("Dr.", "Prof.") or, as British usage writes them, a
    two- or three-letter capitalised abbreviation with no vowel, which no English word is ("Mr", "Mrs", "Ms",
    "Dr"), before a given name and a surname ("Mr Daniel Osei"; "Mr Collins" and "St Giles-in-the-Fields" keep
    theirs). Only used next to a PERSON span ("St" before a place is part of its name)."""
    t, doc = tok.text, tok.doc
    if is_title(tok) or written_title(tok):
        return True
    bare = unicodedata.normalize("NFD", t.lower())  # "Hồ Chí Minh", "Cần Giờ": a vowel with a diacritic is a vowel
    if not (2 <= len(t) <= 3 and t[0].isupper() and t[1:].islower() and t.isalpha()) or set("aeiouy") & set(bare):
        return False
    after = doc[tok.i + 1 : tok.i + 3]
    return len(after) == 2 and all(w.is_alpha and w.text[:1].isupper() and w.pos_ == "PROPN" for w in after)


TITLES = "vgrag_titles"  # Doc.user_data key: the title words of the texts parsed together (title_words)
_SHORT_WORD = re.compile(r"[A-Z][a-z]{1,3}")  # "Cllr", "Sgt", "Insp", "Supt": a short capitalised word
_NAME_WORDS = 3  # words of a name after a title


def written_title(tok: Tok) -> bool:
    """Whether a word is one of the title words its texts write before people's names (title_words)."""
    return tok.text in tok.doc.user_data.get(TITLES, ())


def title_words(docs: Any, noun: Any = lambda w: False) -> frozenset[str]:
    """The short capitalised words the parsed texts given together (a document's chunks) use as a title before
    people's names, whatever the word ("Cllr Lucy Adeyemi" … "Cllr Adeyemi", "Insp Carlos Mendes" … "Insp Mendes"):
    a proper noun of at most four letters inside or right before a PERSON or ORG span (NER reads "Cllr Quilley" as
    either), written before two or more different names, before a given name and surname at least once and before a
    surname alone at least once — a given name ("Tom Baverstock") is not followed by a name of two words in one
    place and one in another — and never written other than before a capitalised name word. An abbreviation, not a
    common noun of the language (`noun`: roles.noun_table): "King George" and "King Edward VII" are roles.py's."""
    after: dict[str, set[tuple[str, ...]]] = {}
    stray: set[str] = set()
    for doc in docs:
        named = {t.i for e in doc.ents if e.label_ in ("PERSON", "ORG") for t in e}
        for t in doc:
            if not _SHORT_WORD.fullmatch(t.text):
                continue
            run = []
            for w in doc[t.i + 1 : t.i + 1 + _NAME_WORDS]:
                if not (w.is_alpha and w.text[:1].isupper() and (w.pos_ == "PROPN" or w.i in named)) or \
                        run and letters(w.text):  # "Mira Kowalczyk MCIfA": letters after the name are none of it
                    break  # fmt: skip
                run.append(w.text)
            if t.pos_ != "PROPN" or not run:
                stray.add(t.text)
            elif t.i in named or t.i + 1 in named:
                after.setdefault(t.text, set()).add(tuple(run))
    return frozenset(w for w, runs in after.items() if w not in stray and len(runs) >= 2 and not noun(w.lower()) and
                     {len(r) for r in runs} & {1} and {len(r) for r in runs} - {1})  # fmt: skip


def post_nominal(span: Any) -> int:
    """How many tokens at the end of a PERSON span are post-nominal letters ("Zoë Lefèvre KC", "Alex Hunt MW"):
    a last all-capital word of 2-6 letters, not a Roman numeral ("Henry VIII", "John D. Rockefeller III"), after
    at least two words of the name."""
    if len(span) < 3 or span.label_ != "PERSON":
        return 0
    return int(letters(span[-1].text))


def determiner(tok: Tok) -> bool:
    """ "The" or the "This" of "This Supply Agreement": a word pointing at the thing, no part of its name (spaCy's
    morphology, PronType=Dem; "This Is England", where "This" is the subject, keeps it)."""
    return tok.lower_ == "the" or tok.dep_ == "det" and "Dem" in tok.morph.get("PronType")


def quantified(tok: Tok) -> bool:
    """Whether a common noun is quantified or picked out by number ("many genres", "several other proteins",
    "other writers", "the first time", "two parties"): its own modifiers before it say how many or which."""
    for c in tok.children:
        if c.i < tok.i and c.dep_ == "poss" and (c.tag_ in ("PRP$", "WP$") or c.pos_ == "PRON" or c.like_num):
            return True  # "whose recent clients", "its style guide", "one's life": refers back, names nothing
        if c.i < tok.i and c.dep_ == "poss" and c.ent_type_ in _MEASURE:
            return True  # "one year's service", "a decade's work": a measure, not an owner
        if c.i < tok.i and c.dep_ == "amod" and c.like_num and c.pos_ == "ADJ":
            return True  # an ordinal word the tagger calls a date ("the fifteenth album")
        if c.i > tok.i or c.dep_ not in _QUANTIFIER_DEPS:
            continue
        if c.lower_ in _ARTICLES:
            continue
        if c.is_stop and c.pos_ in _QUANTIFIER_POS and c.dep_ != "advmod" or c.tag_ == "RBS":
            return True  # "many", "several other"; a superlative ranks ("the most influential directors")
        if c.ent_type_ == "ORDINAL" or c.like_num and any(q.dep_ in ("quantmod", "advmod") and not unit(q) for q in
                                                          c.children):  # fmt: skip  # not "60 g Wensleydale cheese"
            return True  # "the first time", "over 400,000 copies"; an exact count ("two sons") stays: GPT-3.5's
            # triples name such objects (MuSiQue 0-400: pair recall 0.268 with counts, 0.271 without)
        if c.dep_ in ("amod", "advmod") and quantified(c):  # "very many"
            return True
    return False


def modifiers(tok: Tok, deps: set[str], skip: set[str]) -> list[Tok]:
    """The modifiers before a noun that belong to its name or phrase: children with a dependency in `deps`, not
    a word in `skip`, and not a verb with its own auxiliary or subject ("Dell Magazines had also early published
    puzzle magazines": the parser hangs "had … published" on "magazines" as an adjective; it is a clause)."""
    return [c for c in tok.children if c.dep_ in deps and c.i < tok.i and c.lower_ not in skip and not (
            c.pos_ in ("VERB", "AUX") and any(g.dep_ in ("aux", "auxpass", "nsubj", "nsubjpass") for g in
                                              c.children))]  # fmt: skip


def numbered(tok: Tok) -> int:
    """1 when a proper noun's number follows it as part of its name ("SF 22", "Trench 3", "Room 101"), else 0; not
    a year ("South Dakota Rodeo 2003" is two cells of a flattened table)."""
    nxt = tok.doc[tok.i + 1] if tok.i + 1 < len(tok.doc) else None
    return int(proper(tok) and nxt is not None and nxt.head.i == tok.i and nxt.dep_ == "nummod" and
               not re.fullmatch(r"1\d{3}|20\d\d", nxt.text))  # fmt: skip


def proper(tok: Tok) -> bool:
    """A proper noun as written: the tagger's PROPN, but not a lower-case word ("maps department", "tornado
    outbreaks": English writes names with a capital). Used for the words of a phrase; a single word the tagger
    calls PROPN ("suffers from amnesia", "scored for … harp") stays a name, as GPT-3.5 names it."""
    return tok.pos_ == "PROPN" and not tok.text.islower()


def description_start(keep: list[Tok], start: int) -> int:
    """Where a description (a common noun's phrase from token `start`, `keep` its modifiers) begins once
    a list of coordinated modifiers is cut off ("the cartographic, topographic and general maps department",
    "continuous or nearly continuous high tornado activity", "an American Civil War general and Democratic Party
    candidate"): properties, not a name; the phrase starts after the list ("maps department"). (Two cuts
    measured and rejected, MuSiQue pair recall: a named possessor, "B R Chopra's hit television series", and a
    stack of adjectives, "a 1970 American animated romantic musical comedy film" → "comedy film": GPT-3.5 names
    such objects whole; docs/extraction.md, fifth session.)"""
    for c in keep:
        if listed(c):
            start = max(start, c.right_edge.i + 1)
    return start


def listed(mod: Tok) -> bool:
    """Whether a modifier is a list of properties: three or more coordinated words, or conjuncts with modifiers of
    their own. Two bare words joined by "and"/"or" are one compound modifier, as English writes descriptions
    ("a music and automobile museum", "field and dungeon music", "primary and secondary education": GPT-3.5
    names these whole)."""
    conj = [d for d in mod.subtree if d.dep_ == "conj"]
    if not conj:
        return False
    items = [mod, *conj]
    return len(items) >= 3 or any(c.dep_ not in ("cc", "conj", "punct", "det", "predet") for t in items for c in
                                  t.children)  # fmt: skip


def _breaks(prev: Tok, tok: Tok) -> bool:
    """Whether a new list item starts at `tok` inside one noun phrase."""
    if prev.text in _CELL or tok.text in _CELL or "\n" in prev.text or prev.is_space:
        return True
    if "\n" in prev.whitespace_:
        return True
    if _inner_year(tok) or _inner_year(prev):  # a table row run together: "Maryland Jousting 1962 State Sport"
        return True
    word = tok.text[:1]
    return (
        word.isupper()
        and prev.is_alpha
        and prev.text[:1].islower()
        and not prev.is_stop
        and prev.pos_ in ("NOUN", "ADJ", "VERB")
        and not tok.is_sent_start
    )


def _inner_year(tok: Tok) -> bool:
    """A year between two capitalised words of one name ("… Jousting 1962 State Sport …"): names put a year first
    ("2018 FIFA World Cup") or last ("Euro 2016"); a year inside a run of capitalised words is a table row's or a
    list's cell, and ends one item."""
    doc = tok.doc
    if not (tok.like_num and len(tok.text) == 4 and tok.text.isdigit() and 0 < tok.i < len(doc) - 1):
        return False
    before, after = doc[tok.i - 1], doc[tok.i + 1]
    return before.is_alpha and before.text[:1].isupper() and after.is_alpha and after.text[:1].isupper()


def _joins_names(cc: Tok, start: int) -> bool:
    """Whether a coordinating "and"/"or" inside one name span joins two whole names ("the Naismith Memorial
    Basketball Hall of Fame and Women's Basketball Hall of Fame"), not two words of one name ("Food and Drug
    Administration", "Ministry of Environment, Forest and Climate Change"): the conjunct after it is a proper
    noun with modifiers of its own, at least three words long, and at least two words come before it."""
    if cc.dep_ != "cc" or cc.lower_ not in ("and", "or") or cc.i - start < 2:
        return False
    conj = next((c for c in cc.head.children if c.dep_ == "conj" and c.i > cc.i), None)
    if conj is None or conj.pos_ != "PROPN" or not cc.doc[cc.i + 1].text[:1].isupper():
        return False
    own = [c for c in conj.children if c.i < conj.i and c.dep_ in ("compound", "poss", "amod", "nmod")]
    return bool(own) and conj.right_edge.i - cc.i >= 3


def joined_names(tok: Tok) -> list[Tok]:
    """The heads of the further names "and" joins inside the name `tok` heads ("… Hall of Fame and Women's
    Basketball Hall of Fame" → the second "Hall"), each read as a name of its own."""
    return [d for d in tok.subtree if d.dep_ == "conj" and d.i > tok.i and d.head.i != tok.i and any(
            _joins_names(c, tok.left_edge.i) for c in d.head.children if c.dep_ == "cc" and c.i < d.i)]  # fmt: skip


def item_span(doc: Any, start: int, end: int, head: int) -> tuple[int, int]:
    """The part of doc[start:end] that holds token `head`, cut where a run-on list starts a new item, where a
    capitalised word comes back after other capitalised words (a flattened table: "State Sport Lacrosse State
    Team Sport"), where "and" joins two whole names, and where the parse leaves the span (`parsed_span`)."""
    if end - start < 2 or not start <= head < end:
        return start, end
    s, e = start, end
    seen: set[str] = set()
    for i in range(start + 1, end):
        prev, tok = doc[i - 1], doc[i]
        seen = seen | {prev.text} if prev.pos_ == "PROPN" and prev.text[:1].isupper() else set()
        repeated = tok.pos_ == "PROPN" and tok.text in seen and tok.text != prev.text
        if _breaks(prev, tok) or repeated or _joins_names(tok, s) or _joins_names(prev, s):
            seen = set()
            if i <= head:
                s = i
            else:
                e = i
                break
    s, e = parsed_span(doc, s, e, head)
    while s < e and (doc[s].is_punct or doc[s].is_space or doc[s].dep_ == "cc"):
        s += 1
    while e > s and (doc[e - 1].is_punct and doc[e - 1].text != "." or doc[e - 1].is_space or doc[e - 1].dep_ in
                     ("prep", "cc", "det") and doc[e - 1].pos_ in ("ADP", "CCONJ", "DET")):  # fmt: skip
        e -= 1  # a name never ends with a dangling "of", "and" or "the" ("the Checkout Service of Larkspur …")
    return (s, e) if s < e else (start, end)


def parsed_span(doc: Any, start: int, end: int, head: int) -> tuple[int, int]:
    """Where a name span NER drew ends by the parse: a preposition inside it that the parser hangs on a word before
    the span, its phrase running to the span's end, modifies that word and is not part of the name ("the member of
    the House of Representatives for Wide Bay": "for Wide Bay" says whose member). The part holding `head` is
    kept: the name before the preposition, or the preposition's object."""
    for i in range(start + 1, end):
        t = doc[i]
        if t.dep_ == "prep" and t.head.i < start and t.head.pos_ in ("NOUN", "PROPN") and \
                t.right_edge.i >= end - 1 and i + 1 < end:  # not "relied on Hadley v Baxendale" (on the verb)
            return (start, i) if head < i else (i + 1, end)
    return start, end


def quoted_sentence(inner: Any) -> bool:
    """Whether quoted words are a sentence in sentence case, not a title: a pronoun subject and its verb inside
    the quotes, both in lower case ('Translated into English as "Beware, you might fall in love"'). A title
    capitalises them ("You Might Think", "I Want to Hold Your Hand")."""
    return any(t.dep_ in ("nsubj", "nsubjpass") and t.pos_ == "PRON" and t.text[:1].islower() and
               inner.start <= t.head.i < inner.end and t.head.pos_ in ("VERB", "AUX") and t.head.text[:1].islower()
               for t in inner)  # fmt: skip


def quoted_spans(doc: Any) -> dict[int, str]:
    """Token index → quoted title ("Night Shift") for short quoted spans that start with a capital (after "the" of
    a defined term: '"the Work" means the painting …' names "Work") and are not a sentence (`quoted_sentence`)."""
    out: dict[int, str] = {}
    opened: int | None = None
    for tok in doc:
        if tok.text in ('"', "“", "”", "``", "''"):
            if opened is None:
                opened = tok.i
                continue
            inner = doc[opened + 1 : tok.i]
            lead = int(len(inner) > 1 and inner[0].lower_ == "the")  # a contract's '"the Work" means …'
            if 0 < len(inner) <= 8 and inner[lead].text[:1].isupper() and not quoted_sentence(inner):
                text = inner[lead:].text.strip(" ,.")
                for t in inner:
                    out[t.i] = text
            opened = None
    return out

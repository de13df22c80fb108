"""What "he", "she" or "it" stands for in a text with no topic to fall back on — a press release under a headline,
a report section named "Financing": the nearest named subject before it, in its sentence or the one before,
of the kind the pronoun asks for (a person for "he"/"she", anything else named for "it"), read from spaCy's
morphology and entity labels. "Brightwater Energy plc announced that it will build …": it is Brightwater Energy
plc; '"…," said Sarah Okonkwo. She added …': she is Sarah Okonkwo. A subject "they" is the one named group before
it, plural by spaCy's number or by the verb it agrees with ("Northwind Haulage are … They moved …"), or nothing when
that is not clear (`group`). A text with a topic (a Wikipedia article, a section named after someone) keeps reading
its pronouns as the topic (clauses.ClauseReader.arg).

A definite noun alone ("the service", "the flaw", "the company") is, in a text with no topic, the name the same text
tied that noun to (`definite`, `tie`): the name it heads ("the International Cryosphere Monitoring Service"), the
name it describes ("CVE-2026-1187, a log-injection flaw"; "Harrow & Vane is a cutlery company") or the name set
beside it ("a flaw (CVE-2026-1187)"). Only the text's own words tie (the model has no word vectors, so "the
vulnerability" is not "a flaw"); with no tie it stays unresolved. A text with a topic reads a definite subject as
its topic (clauses.ClauseReader.arg, subject_arg): resolving there was measured on MuSiQue and rejected
(docs/extraction.md)."""

from __future__ import annotations

from typing import Any

from .persons import person_antecedent
from .shapes import SUBJ

_NOT_NAMES = {"DATE", "TIME", "CARDINAL", "ORDINAL", "PERCENT", "QUANTITY", "MONEY"}
_NOT_GROUPS = _NOT_NAMES | {"GPE", "LOC", "FAC", "PRODUCT", "WORK_OF_ART", "LAW", "LANGUAGE", "EVENT"}


def antecedent(reader: Any, tok: Any) -> Any:
    """The reader's argument for the named subject a singular third-person pronoun refers to, or None."""
    gender = tok.morph.get("Gender")
    if tok.morph.get("Number") == ["Plur"]:
        return plural(reader, tok)
    if tok.morph.get("Number") != ["Sing"] or not gender:
        return None
    person = gender[0] in ("Masc", "Fem")
    if person and (found := person_antecedent(reader, tok)) is not None:
        return found  # the subject of the nearest main clause (persons.py)
    doc, first = reader.doc, tok.sent.start
    lo = doc[first - 1].sent.start if first > 0 else 0
    for i in range(tok.i - 1, lo - 1, -1):
        t = doc[i]
        ent = reader.ent_of.get(i)
        if t.dep_ not in SUBJ or ent is not None and (ent.label_ in _NOT_NAMES or (ent.label_ == "PERSON") != person):
            continue
        if ent is None and (person or t.pos_ != "NOUN" or not any(c.dep_ == "det" for c in t.children)):
            continue  # not named by NER: "it" may be "the astrolabe" (definite), not "Leaf fall" (a capital)
        a = reader.arg(t)
        if a is not None and a.kind == "name":
            return a
    return None


def silent_antecedent(reader: Any, tok: Any, topic: Any) -> Any:
    """The argument a pronoun stands for in a document that never names its topic (aboutness.py): a person's as
    `antecedent` finds it; "it" the nearest subject before it that it may stand for ("The site is a grassed field …
    It is bounded by Mill Lane": the site, no name — None), or the topic when there is none ("Helen Sutherland hung
    the picture at Cockley Moor, where it was seen by David Jones" under the lot's title) — a subject "it", not an
    object ("he took it": his chance)."""
    if tok.morph.get("Gender") != ["Neut"] or tok.morph.get("Number") != ["Sing"]:
        return antecedent(reader, tok)
    doc, first = reader.doc, tok.sent.start
    lo = doc[first - 1].sent.start if first > 0 else 0
    for i in range(tok.i - 1, lo - 1, -1):
        t, ent = doc[i], reader.ent_of.get(i)
        if t.dep_ not in SUBJ or t.lower_ in ("it", "its") or t.head.i == tok.head.i or ent is not None and \
                ent.label_ in ("PERSON", *_NOT_NAMES):  # fmt: skip
            continue  # never its own clause's subject ("Elodie Marchand serves it")
        if ent is None and (t.pos_ != "NOUN" or not any(c.dep_ == "det" for c in t.children)):
            continue
        if reader.about.anaphor(t):
            return topic  # "The tart follows … Elodie Marchand serves it with …" under "Treacle Tart …"
        a = reader.arg(t)
        return a if a is not None and a.kind == "name" else None
    return topic if tok.dep_ in SUBJ else None  # "he took it" (his chance): an object is what was just written of


def definite(reader: Any, tok: Any) -> Any:
    """The reader's argument for the name a definite common noun alone refers to, or None. "The service, which is
    based in Geneva, …" after "the International Cryosphere Monitoring Service (ICMS)"; "The flaw was reported by
    …" after "Fixed CVE-2026-1187, a log-injection flaw in the admin API". The noun's nearest earlier mention in the
    text (same lemma, same number, the head of its phrase: not the "Film" of "Film and Television Institute", not
    "Wensleydale Pie 412" of a table row) must be tied to a name by the text itself (`tie`); when it is not ("A
    second flaw was found …"), the noun stays unresolved — an older tie is not looked for past it. Not resolved: a
    noun with its own modifier (`bare`), which picks out something of its own."""
    if not bare(tok):
        return None
    lemma, number, doc = tok.lemma_.casefold(), tok.morph.get("Number"), reader.doc
    for i in range(tok.i - 1, -1, -1):
        t = doc[i]
        ent = reader.ent_of.get(i)
        if t.lemma_.casefold() != lemma or t.dep_ == "compound" or (ent is not None and ent.root.i != i) or \
                t.morph.get("Number") != number or i + 1 < len(doc) and doc[i + 1].like_num:  # fmt: skip
            continue
        if i + 2 < len(doc) and doc[i + 1].is_quote and i + 2 in reader.quoted:
            return reader.named(reader.quoted[i + 2], t)  # the title written beside it: 'our exhibition "Measuring
        return tie(reader, t)  # the Heavens"' (the parser reads a quoted title as anything)
    return None


def tie(reader: Any, t: Any) -> Any:
    """The name the text ties a common noun to, or None: the name it heads ("the Harrowgate astrolabe"), the name
    it describes as an apposition ("CVE-2026-1187, a log-injection flaw") or a copula's attribute ("Velmora is a
    coastal town"), the name in apposition to it ("a flaw, CVE-2026-1187,", "a flaw (CVE-2026-1187)"), or the
    name an earlier definite mention resolved to — read as the clause reader reads them everywhere else. Not the
    noun itself written with a capital."""
    a = None if bare(t) else reader.subject_arg(t)  # an earlier bare "the flaw": the name it refers to, below
    if a is None or a.kind != "name":
        a = next((n for c in t.children if c.dep_ == "appos" and (n := reader.arg(c)) is not None and
                  n.kind == "name"), None) or (definite(reader, t) if bare(t) else None)  # fmt: skip
    return a if a is not None and a.kind == "name" and a.text.casefold() != t.text.casefold() else None


def bare(tok: Any) -> bool:
    """Whether a token is a definite common noun alone: "the"/"this" and nothing else that picks out which — no
    modifier ("the 1968 election", "the new office"), no preposition ("the laccase of Myceliophthora thermophila")
    and no restrictive relative clause ("the company that bought it"); an apposition or a clause set off by a comma
    ("The service, which is based in Geneva, …") adds, not restricts."""
    return (
        tok.pos_ == "NOUN"
        and any(c.dep_ == "det" and c.lower_ in ("the", "this") for c in tok.children)
        and all(
            c.dep_ in ("det", "punct", "appos", "cc", "conj", "case", "acl") or restrictive(c) is False
            for c in tok.children
        )
    )


def restrictive(c: Any) -> bool | None:
    """Whether a noun's relative clause restricts it (no comma before it: "the company that bought it"); None for a
    child that is no relative clause. A participle is not counted: the parser reads "fields that the trust bought
    from …" as "the trust (that was) bought from …", so "the flaw found in 3.1" is read as "the flaw"."""
    if c.dep_ != "relcl":
        return None
    return c.left_edge.i == 0 or c.doc[c.left_edge.i - 1].text not in (",", "(", "—")


def agrees_plural(tok: Any) -> bool:
    """Whether a noun subject is plural: by its own number ("The Kestrels", "Warp Records"), by the finite verb it
    agrees with when that verb shows number ("Northwind Haulage are", "the band were", "… have": spaCy's VBP, or
    "be" in the past without Number=Sing), or by a coordination ("Priya Shah and Daniel Okafor")."""
    if tok.pos_ not in ("NOUN", "PROPN"):
        return False
    if tok.morph.get("Number") == ["Plur"] or tok.conjuncts:
        return True
    verb = tok.head
    finite = [v for v in [verb, *verb.children] if v.i == verb.i or v.dep_ in ("aux", "auxpass")]
    finite = [v for v in finite if v.morph.get("VerbForm") == ["Fin"]]
    return bool(finite) and (finite[0].tag_ == "VBP" or finite[0].lemma_ == "be" and not finite[0].morph.get("Number"))


def acts(reader: Any, tok: Any) -> bool:
    """Whether a noun may name a group of people: not a place, work, event or value by its entity label ("Leeds",
    which spaCy may tag plural, is no antecedent of "they")."""
    ent = reader.ent_of.get(tok.i)
    return ent is None or ent.label_ not in _NOT_GROUPS


def they(tok: Any) -> bool:
    """Whether a token is a third-person plural pronoun ("they", "them": spaCy's morphology)."""
    return tok.pos_ == "PRON" and tok.morph.get("Number") == ["Plur"] and tok.morph.get("Person") == ["3"]


def plural(reader: Any, tok: Any) -> Any:
    """The reader's argument for the one named group a subject "they" refers to (`group`), or None."""
    found = group(reader, tok)
    return reader.arg(found[0]) if found and len(found) == 1 else None


def group(reader: Any, tok: Any, back: int = 1) -> list[Any] | None:
    """The name tokens a subject "they" refers to, or None: the plural subjects before it in its sentence, else in
    the nearest of the `back` sentences before it in its paragraph that has one; resolved only when there is
    exactly one and a name heads it ("The Kestrels are based in Hull. They won …"; with a coordination, each
    name: "Priya Shah and Daniel Okafor"), or a "they" resolved so in turn. Unresolved: groups a common noun heads
    ("Analysts at Peel Hunt … They", "Lumen Freight's largest customers"), two candidates (a plural subject and
    another named group in any role: "The Kestrels beat the Ospreys"), and a "they" with no plural subject before
    it (a generic "they say")."""
    if tok.dep_ not in SUBJ or not they(tok):
        return None
    doc, sent = reader.doc, tok.sent
    spans = [doc[sent.start : tok.i]]
    while len(spans) <= back and spans[-1].start > 0:
        prev = doc[spans[-1].start - 1].sent
        if "\n\n" in doc[prev.start : spans[-1].start].text_with_ws:
            break  # a paragraph ends between them (where the text still shows it)
        spans.append(prev)
    for span in spans:
        found = [t for t in span if t.dep_ in SUBJ and (they(t) or agrees_plural(t) and acts(reader, t))]
        rivals = [t for t in span if t.dep_ not in SUBJ and t.dep_ != "compound" and t.pos_ == "PROPN" and acts(
            reader, t) and (t.morph.get("Number") == ["Plur"] or t.dep_ != "conj" and t.conjuncts)]  # fmt: skip
        if not found:
            if rivals:
                return None  # "… supported the Arctic Monkeys. They …": a named group, but not the subject
            continue
        if len(found) + len(rivals) > 1:
            return None  # "The Kestrels beat the Ospreys. They …", "They signed with Warp Records. They …"
        if they(found[0]):
            return group(reader, found[0], back)
        names = [found[0], *found[0].conjuncts]
        if any(t.i not in reader.ent_of and t.pos_ != "PROPN" for t in names):
            return None  # a common noun heads it, even if a name is inside ("Lumen Freight's largest customers")
        args = [reader.arg(t) for t in names]
        return names if all(a is not None and a.kind == "name" for a in args) else None
    return None


def possessive(reader: Any, tok: Any) -> Any:
    """The reader's argument for whom a possessive "his"/"her"/"its" stands ("He was a cooper, like his father
    Wojciech"), in a text with no topic: as the subject pronoun would be read (`antecedent`), but only when no other
    person is named before it in its sentence — "Catherine's father was Patrick Lynch, and her grandfather was Owen
    Lynch": the subject before "her" is Patrick Lynch, but the "her" is Catherine's; with two people in play it is
    left unresolved, never guessed."""
    found = antecedent(reader, tok)
    return None if found is None or found.kind != "name" or rivals(reader, tok, found.text) else found


def rivals(reader: Any, tok: Any, name: str, person: bool = True) -> bool:
    """Whether a person other than `name` is named before a possessive pronoun in its sentence (a PERSON, or a
    proper noun that is itself a possessor: "Catherine's father"); with `person` False, any other name."""
    for t in reader.doc[tok.sent.start : tok.i]:
        ent = reader.ent_of.get(t.i)
        kind = ent is not None and (ent.label_ == "PERSON" if person else ent.label_ not in _NOT_NAMES)
        other = kind or t.dep_ == "poss" and t.pos_ == "PROPN"
        if other and (a := reader.arg(t)) is not None and a.text.removesuffix("'s") != name:
            return True
    return False

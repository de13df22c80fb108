"""People a text names more than one way, and the person a role or "he"/"she" stands for — read from spaCy's parse
and entity labels, no name lists:

- `stated_aliases`: names the text itself says are one person. A copula between two proper names with nothing else
  on either side ("Marysia is Marianna", "Kasia is Katarzyna Pyrek") states an identity, not a fact; a coordination
  of such statements ("Helenka is Helen and Stasio is Stanley") pairs each name with its own — the parser often
  hangs the second subject on the first statement's name as a conjunct, so a copula without a subject of its own
  takes the proper noun written right before it. A nickname in quotes inside a name ('Władysław "Walter" Nowak')
  and a birth surname after "née"/"né" ("Bridget Keane (née Walsh)") are other spellings of the one person.
- `identity_names`: the names of those statements, whose "is" triples between them are dropped (they are merges).
- `person_in_apposition`: a role written as a proper name before the person in apposition ("The Head of Training,
  Captain Alasdair Munro, has added …") — the subject is the person.
- `person_antecedent`: "he"/"she" in a text with no topic (a letter, notes under generation headings) is the
  subject of the nearest main clause before it — in its sentence, else the sentence before — when that subject is a
  person (a PERSON name, a noun with a PERSON in apposition, or a name a copula says is a PERSON) or "he"/"she"
  itself, resolved the same way; a subordinate clause's subject ("so now you know who Zosia is") is never taken.
"""

from __future__ import annotations

from typing import Any

from .shapes import SUBJ, bracketed

_BIRTH = {"née", "nee", "né"}  # the word that introduces a birth surname ("Bridget Keane (née Walsh)")
_GENDERED = {"he", "she"}
_DEPTH = 4  # sentences a chain of "he … he …" is followed back


def _proper_name(tok: Any) -> bool:
    """A proper noun heading a bare name: no determiner, possessive, preposition or number of its own."""
    return tok.pos_ == "PROPN" and tok.text[:1].isupper() and not any(
        c.dep_ in ("det", "poss", "prep", "nummod") for c in tok.children)  # fmt: skip


def _name(arg: Any, tok: Any) -> str | None:
    a = arg(tok)
    return a.text if a is not None and a.kind == "name" and a.text else None


def _identities(doc: Any) -> list[tuple[Any, Any]]:
    """(subject, attribute) tokens of each copula written between two bare proper names ("Marysia is Marianna").
    Read by adjacency, not by the attachment: in "Helenka is Helen and Stasio is Stanley" the parser may make
    "Helen and Stasio" the subject of the second "is", or "Stasio" a conjunct of "Helen".

    A name is timeless: a copula in the past or with a modifier of its own ("Anna Weiss was Chair until 2024", "Tom
    Becker is Chair since 2024") states a role, and so does a one-word common noun said of a longer name (`_role`).
    A name stated to be two others is a role too ("… is Captain" of two people): no alias is taken from it."""
    noun = _common_noun()
    out = []
    for v in doc[1:-1]:
        if v.lemma_ != "be" or v.pos_ != "AUX" or v.tag_ not in ("VBZ", "VBP") or any(
                c.dep_ not in ("nsubj", "attr", "punct", "cc", "conj", "ccomp") for c in v.children):  # fmt: skip
            continue
        s, o = doc[v.i - 1], doc[v.i + 1]
        while o.dep_ == "compound" and o.head.i == o.i + 1 and o.head.pos_ == "PROPN":
            o = o.head  # "Kasia is Katarzyna Pyrek"
        if s.dep_ in ("nsubj", "nsubjpass", "conj") and o.dep_ not in ("poss", "compound") and _proper_name(s) and \
                _proper_name(o) and (s.head.i == v.i or s.dep_ == "conj" or s.head.lemma_ == "be") and \
                not _role(doc, o, s, noun) and not _role(doc, s, o, noun):  # fmt: skip
            out.append((s, o))
    partners: dict[str, set[str]] = {}
    for s, o in out:
        partners.setdefault(s.lower_, set()).add(o.lower_)
        partners.setdefault(o.lower_, set()).add(s.lower_)
    return [(s, o) for s, o in out if len(partners[s.lower_]) == 1 and len(partners[o.lower_]) == 1]


def _common_noun() -> Any:
    from ..nlp import load_spacy
    from .roles import noun_table

    nlp = load_spacy()
    return noun_table(nlp) if nlp is not None else (lambda w: True)


def _words(tok: Any) -> int:
    return 1 + sum(1 for c in tok.children if c.dep_ == "compound" and c.pos_ == "PROPN")


def _role(doc: Any, tok: Any, other: Any, noun: Any) -> bool:
    """Whether a one-word name stated to be a longer name is a role, not another name of the person: a common noun
    of the language that the text never writes as the first word of a longer PERSON name ("Daniel Okoro is
    Treasurer"; "Helen" is a name where the text also writes "Helen Nowak"; "Władek is Walter" is two one-word
    names, kept)."""
    if _words(tok) > 1 or _words(other) == 1 or not noun(tok.lower_):
        return False
    return not any(t.lower_ == tok.lower_ and t.i != tok.i and t.ent_type_ == "PERSON" and t.i + 1 < len(doc) and
                   doc[t.i + 1].pos_ == "PROPN" and doc[t.i + 1].ent_type_ == "PERSON" for t in doc)  # fmt: skip


def _birth(doc: Any) -> list[tuple[Any, Any]]:
    """(name, birth surname) for each "Bridget Keane (née Walsh)", "Katarzyna Pyrek, née Nowak"."""
    return [(t.head.head, t.head) for t in doc if t.lower_ in _BIRTH and t.head.pos_ == "PROPN" and
            t.head.dep_ == "appos" and t.head.head.pos_ == "PROPN"]  # fmt: skip


def identity_names(doc: Any, arg: Any) -> set[str]:
    """The names of the identity statements of a parsed text (their "is" triples are not facts)."""
    return {n for pair in _identities(doc) + _birth(doc) for t in pair if (n := _name(arg, t))}


def stated_aliases(doc: Any, arg: Any) -> list[tuple[str, str]]:
    """(name, other name) for each person the text names two ways and says so (see the module's docstring);
    `arg(token)` is the clause reader's argument for a token, so each name is spelled as it is everywhere else. The
    longer name is kept (the full name over a diminutive, the name a statement explains over the one it defines)."""
    out = []
    for sub, attr in _identities(doc):
        a, b = _name(arg, sub), _name(arg, attr)
        if a and b and a != b:
            out.append((b, a) if len(b.split()) >= len(a.split()) else (a, b))
    for name, surname in _birth(doc):
        full = _name(arg, name)
        if full and len(full.split()) >= 2 and surname.text not in full.split():
            out.append((full, " ".join([*full.split()[:-1], surname.text])))
    for t in doc:
        if t.is_quote and t.i + 2 < len(doc) and doc[t.i + 2].is_quote and t.i > 0:
            first, nick = doc[t.i - 1], doc[t.i + 1]  # 'Władysław "Walter" Nowak'
            last = nick.head
            if nick.pos_ == "PROPN" and first.pos_ == "PROPN" and first.head.i == last.i and last.i == t.i + 3 and \
                    last.pos_ == "PROPN" and all(x.text[:1].isupper() for x in (first, nick, last)):  # fmt: skip
                full = f"{first.text} {last.text}"
                out += [(full, f"{nick.text} {last.text}"), (full, nick.text),
                        (full, doc[first.i : last.i + 1].text)]  # fmt: skip
    return list(dict.fromkeys(out))


def person_in_apposition(reader: Any, tok: Any) -> Any:
    """The reader's argument for the person written in apposition, between commas, after a subject that is a role,
    neither a named entity nor the topic itself ("The Head of Training, Captain Alasdair Munro, …"), or None."""
    if tok.pos_ != "PROPN" or tok.i in reader.ent_of or reader.named_topic(tok):
        return None  # not the passage's topic with a name in brackets ("The Charter … (French: …, Loi 101)")
    for c in tok.children:
        ent = reader.ent_of.get(c.i)
        if c.dep_ == "appos" and c.i > tok.i and ent is not None and ent.label_ == "PERSON" and not bracketed(c) \
                and c.left_edge.i > 0 and reader.doc[c.left_edge.i - 1].text == ",":  # fmt: skip
            a = reader.arg(c)
            return a if a is not None and a.kind == "name" else None
    return None


def _subordinate(verb: Any) -> bool:
    """A clause inside another: relative, complement, or introduced by a marker or a wh-word ("who Zosia is",
    "that I wrote"); an adverbial or complement clause before its verb without one is the parser's reading of a
    main clause ("He works …, so now you know …" parsed with "know" as the root)."""
    return verb.dep_ in ("relcl", "acl", "csubj", "pcomp", "xcomp") or verb.dep_ == "ccomp" and \
        verb.i > verb.head.i or any(
        c.dep_ == "mark" or c.tag_ in ("WP", "WDT", "WRB") for c in verb.children)  # fmt: skip


def _main_subjects(span: Any, before: int) -> list[Any]:
    """The subjects of a sentence's main clauses before `before`, without "I"/"you"/"we" (never "he"/"she")."""
    return [t for t in span if t.i < before and t.dep_ in SUBJ and not _subordinate(t.head) and
            t.morph.get("Person") not in (["1"], ["2"])]  # fmt: skip


def _person(reader: Any, t: Any) -> Any:
    ent = reader.ent_of.get(t.i)
    if ent is not None and ent.label_ == "PERSON":
        return reader.arg(t)
    for c in t.children:  # "Marysia's brother Stanisław writes …"
        e = reader.ent_of.get(c.i)
        if c.dep_ == "appos" and e is not None and e.label_ == "PERSON":
            return reader.arg(c)
    if t.head.lemma_ == "be":  # "Kasia is Katarzyna Pyrek, …": the person the copula names
        for c in t.head.children:
            e = reader.ent_of.get(c.i)
            if c.dep_ == "attr" and e is not None and e.label_ == "PERSON":
                return reader.arg(c)
    return None


def person_antecedent(reader: Any, tok: Any, depth: int = 0) -> Any:
    """The reader's argument for the person a subject or object "he"/"she" refers to in a text with no topic (see
    the module's docstring), or None."""
    if tok.lower_ not in _GENDERED | {"him", "her", "his"} or depth > _DEPTH:
        return None
    doc, sent = reader.doc, tok.sent
    spans = [(sent, tok.i)]
    if sent.start > 0:
        prev = doc[sent.start - 1].sent
        spans.append((prev, prev.end))
    pronoun = {"he": "he", "him": "he", "his": "he", "she": "she", "her": "she"}[tok.lower_]
    for span, before in spans:
        subs = _main_subjects(span, before)
        if not subs:
            continue
        t = subs[-1]
        if t.lower_ in _GENDERED:
            if t.lower_ != pronoun:
                return None  # "She … he …": a different person
            return person_antecedent(reader, t, depth + 1)
        a = _person(reader, t)
        return a if a is not None and a.kind == "name" else None
    return None


def bound_person(reader: Any, tok: Any) -> Any:
    """The person a "he"/"she" in a subordinate clause refers to when its sentence's main clause has a named person
    as subject before it ("Cllr Martin Fairbairn declared an interest because he lives on Mill Lane"), or None: in
    a text with a topic the pronoun is otherwise the topic ("He was born in …")."""
    if tok.lower_ not in _GENDERED | {"him", "her"} or not _subordinate(tok.head):
        return None
    subs = _main_subjects(tok.sent, tok.i)
    if not subs or subs[-1].lower_ in _GENDERED:
        return None
    a = _person(reader, subs[-1])
    if a is not None and a.kind == "name" and reader.topic and set(a.text.split()) <= set(reader.topic.split()):
        return type(a)(reader.topic, "name")  # "Hayek presented … the seminar he had created" under "Friedrich Hayek"
    return a if a is not None and a.kind == "name" else None


def not_crossed(triples: tuple[Any, ...], names: set[str], said: list[tuple[str, str]]) -> tuple[Any, ...]:
    """The triples without an "is" between two names of identity statements that the text does not pair ("Helen |
    is | Stanley" read across "Helenka is Helen and Stasio is Stanley"); a stated pair is kept (it is merged at
    ingest, where it becomes one entity)."""
    pairs = {frozenset(p) for p in said}
    return tuple(t for t in triples if not (t.predicate in ("is", "was") and t.subject in names and t.object in names
                                            and frozenset((t.subject, t.object)) not in pairs))  # fmt: skip

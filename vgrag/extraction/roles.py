"""Role words glued to a person's name ("Councillor David Lindqvist", "Chief Fire Officer Ruth Danvers", "Town
Clerk Margaret Ellis", "Head Chef Marco Bellini"): which leading words of a name are the person's role, read from
spaCy's parse and the document's own evidence (no list of role words).

A parse gives the candidates (`role_evidence`): a PERSON span of at least two words — a given name and a surname
— with capitalised words before it, either inside the span or compounded onto it by the parser, and a compound of
proper nouns NER did not call a person whose last word is no common noun ("Environmental Health Officer Nadia
Voss", not "Cedar Valley High School"). Whether those words are a role is decided over the whole document
(`glued_roles`), by any of:
- the span NER found leaves them out ("Chief Fire Officer [Ruth Danvers]") — spaCy's own reading;
- the document uses the role's last word as a common noun: lower-case ("the duty officer", "head librarian"), or
  with a determiner of its own ("the Mayor said", "written to the Town Clerk");
- the same words stand before two or more different names ("Councillor Priya Raman", "Councillor Martin Hale"),
  or before the person's surname alone ("Sergeant Achebe");
- the name is written on its own elsewhere in the document or already named in the graph ("Margaret Ellis"), when
  NER's span leaves the role out (inside it a given name reads the same: "Robert De Niro" beside "De Niro").
A phrase NER did not call a person needs its name written alone as a PERSON, or a role the document showed for
someone else ("Police Constable Daniel Mercer" → "Detective Constable Rhys Calloway") or as a common noun, with the
name written alone. A role's last word is a common noun of the language (spaCy's lemmatizer table; it also holds
some given names, "robert", "mary", hence the next rule), and not the first word of a
two-word name written alone ("Holly Williams" keeps "Holly Audrey Williams" one name; in a corpus, "Robert Byrne"
keeps "Robert De Niro"), unless it also stands before the surname alone and the name after it is written alone
("Sergeant Achebe", "Sergeant Helen Achebe" and "Helen Achebe": a title and a surname).
Places and organisations stay whole ("Lake Geneva", "Bank of England", "General Motors": no PERSON, no role), and a
role with a single word after it is left to the surname look-up (entities.Canonicalizer: "Sergeant Achebe", "Ms
Okonjo" are the document's one person with that surname).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

Tok = Any
_DETERMINERS = {"the", "a", "an", "this", "that", "our", "its", "his", "her", "their", "your", "my"}


@dataclass(frozen=True)
class Glued:
    """One person's name read with words before it: the mention as the clause reader names it, the role words
    (all of them: "Chief Fire Officer" where the mention holds "Officer Ruth Danvers") and the name after them."""

    mention: str
    role: str
    name: str
    outside: bool  # NER's PERSON span left the role out
    person: bool = True  # NER called the name a person (else it must be written as one elsewhere)
    inside: bool = False  # NER's PERSON span holds (some of) the role: a given name reads the same way


@dataclass(frozen=True)
class RoleEvidence:
    """What one parsed text says about role words: candidates, its common nouns, and names written bare."""

    glued: tuple[Glued, ...] = ()
    nouns: frozenset[str] = frozenset()  # case-folded words used as common nouns ("officer", "mayor" in "the Mayor")
    bare: tuple[str, ...] = ()  # full names (2+ words) of PERSON spans with no capitalised word glued before them
    given: frozenset[str] = frozenset()  # two-word PERSON names written alone, case-folded ("holly williams")
    pairs: frozenset[str] = frozenset()  # runs of exactly two capitalised proper nouns, case-folded ("sergeant achebe")


def _word(tok: Tok) -> bool:
    return tok.is_alpha and tok.text[:1].isupper()


def extended_start(doc: Any, start: int, end: int, ent_of: Any) -> int:
    """Where a name starts once the proper nouns the parser compounds onto it, but NER left out, are included (as
    the clause reader reads it: "the Irish writer Lennox Robinson")."""
    s = start
    while s > 0 and (w := doc[s - 1]).pos_ == "PROPN" and w.dep_ == "compound" and start <= w.head.i < end and \
            w.i not in ent_of:  # fmt: skip
        s -= 1
    return s


def noun_table(nlp: Any) -> Callable[[str], bool]:
    """Whether a (lower-case) word is an English common noun, by spaCy's lemmatizer table of nouns; every word is
    when the pipeline has no such table."""
    try:
        nouns = nlp.get_pipe("lemmatizer").lookups.get_table("lemma_index")["noun"]
    except (KeyError, AttributeError, ValueError):
        return lambda w: True
    return lambda w: w in nouns


def role_evidence(
    doc: Any, honorific: Callable[[Tok], bool], noun: Callable[[str], bool], topic: str = ""
) -> RoleEvidence:
    """The role candidates and evidence of one parsed text (`honorific`: "Mr", "Dr." — a title, not a role; `noun`:
    whether a word is a common noun of the language, as a role's last word must be: "Officer", "Chef", "Mayor" —
    not "Mushfiqur Rahman Gulzar", "FC Hammonia Hamburg", "ISL Perang Bintang"; `topic`: the text's title, a name
    whose first word is a name's, "Holly Williams" over "Holly Audrey Williams (born 1981) is …")."""
    ents = list(doc.ents)
    ent_of = {t.i for e in ents for t in e}
    person = {t.i for e in ents if e.label_ == "PERSON" for t in e}
    nouns, runs, run, heads = set(), set(), [], []
    for t in doc:  # one pass: common nouns, two-word proper-noun runs, heads of proper-noun phrases
        pos = t.pos_
        if pos == "NOUN" and t.text.islower():
            nouns.add(t.lower_)
        elif t.dep_ in ("det", "poss") and t.lower_ in _DETERMINERS and t.head.pos_ in ("NOUN", "PROPN") and \
                t.head.dep_ != "compound":  # fmt: skip
            nouns.add(t.head.lower_)  # "the Mayor said"
        if pos == "PROPN" and _word(t):
            run.append(t.lower_)
            if t.i not in person and t.dep_ != "compound":
                heads.append(t)
            continue
        runs |= {" ".join(run)} if len(run) == 2 else set()
        run = []
    runs |= {" ".join(run)} if len(run) == 2 else set()
    glued: list[Glued] = []
    bare = []
    given = {e.text.casefold() for e in ents if e.label_ == "PERSON" and len(e) == 2 and not any(
             0 <= i < len(doc) and _word(doc[i]) for i in (e.start - 1, e.end))}  # fmt: skip
    given |= {" ".join(topic.split()[:1] + topic.split()[-1:]).casefold()} if len(topic.split()) >= 2 else set()
    for ent in ents:
        if ent.label_ != "PERSON" or len(ent) < 2:
            continue
        s, e = ent.start, ent.end
        while s < e and (doc[s].lower_ == "the" or honorific(doc[s])):
            s += 1
        while e > s and not doc[e - 1].is_alpha:
            e -= 1
        start = extended_start(doc, s, e, ent_of - set(range(s, e)))
        if not all(_word(t) or t.text in ("-", ".") or t.text.endswith(".") for t in doc[start:e]):
            continue  # "John D. Rockefeller" is a name; anything else is not a person's
        if start == s and e - s == 2:
            bare.append(doc[s:e].text)
        glued += _splits(doc, start, s, e, noun, True)
    for tok in heads:  # a proper-noun phrase NER did not call a person ("Environmental Health Officer Nadia Voss"):
        start = tok.i  # its name must be written as a person's elsewhere in the document
        while start > tok.left_edge.i and doc[start - 1].dep_ == "compound" and _word(doc[start - 1]) and \
                doc[start - 1].pos_ == "PROPN":  # fmt: skip
            start -= 1
        if tok.i - start >= 2:
            found = _splits(doc, start, start, tok.i + 1, noun, False)  # a person's name, not "High School"
            glued += [replace(g, person=False) for g in found if not noun(g.name.split()[-1].casefold())]
    return RoleEvidence(tuple(glued), frozenset(nouns), tuple(bare), frozenset(given), frozenset(runs))


def _splits(doc: Any, start: int, s: int, e: int, noun: Callable[[str], bool], person: bool) -> list[Glued]:
    """The readings of doc[start:e] (NER's span doc[s:e]) as role words and a name of two words or more."""
    left = min(doc[i].left_edge.i for i in range(start, s)) if start < s else start
    left = next(i for i in range(left, start + 1) if all(_word(t) for t in doc[i:start]))
    out = []
    for k in range(start + 1, e - 1):
        name, role = doc[k:e], doc[left:k]
        role = list(role)
        if (
            role
            and all(_word(t) for t in role)
            and _word(name[0])
            and (noun(role[-1].lower_) or noun(role[-1].lemma_.lower()))
        ):
            # NER left the role out, or the words it left out hang on one it kept ("Kitchen [Porter Ben Ashdown]")
            outside = start < s and (k == s or k > s and all(doc[i].head.i < k for i in range(left, s)))
            words = " ".join(t.text for t in role)
            out.append(Glued(doc[start:e].text, words, " ".join(name.text.split()), outside, person, person and k > s))
    return out


def glued_roles(
    evidence: Iterable[RoleEvidence], named: Callable[[str], bool], names: frozenset[str] = frozenset()
) -> dict[str, Glued]:
    """Mention → its reading as a role and a name, for the mentions whose role the document (all its
    `evidence`) shows; `named(name)` says whether the graph or this ingest already has the name on its own.
    Where a mention reads several ways, the longest role shown is taken. `names`: more two-word names written
    alone (a corpus's: "Robert Byrne" in one article makes "Robert" a given name in all)."""
    evidence = list(evidence)
    nouns = frozenset().union(*(ev.nouns for ev in evidence)) if evidence else frozenset()
    bare = {n.casefold() for ev in evidence for n in ev.bare}
    given = {n.split()[0] for n in names.union(*(ev.given for ev in evidence))}
    pairs = frozenset().union(*(ev.pairs for ev in evidence)) if evidence else frozenset()
    before: dict[str, set[str]] = {}
    for g in (g for ev in evidence for g in ev.glued):
        before.setdefault(g.role.casefold(), set()).add(g.name.split()[-1].casefold())  # different people

    def titles(g: Glued) -> bool:  # a word before the surname alone and before the name written alone: a title
        return f"{g.role.split()[-1]} {g.name.split()[-1]}".casefold() in pairs and g.name.casefold() in bare

    out: dict[str, Glued] = {}
    for g in sorted((g for ev in evidence for g in ev.glued), key=lambda g: -len(g.role.split())):
        if g.mention in out or g.role.split()[-1].casefold() in given and not titles(g):  # the
            continue  # longest role first: "Vice President Al Gore" is Al Gore; "Holly Audrey Williams" is one name
        last = g.role.split()[-1].casefold()
        shown = g.outside or last in nouns or len(before[g.role.casefold()]) >= 2 or f"{last} {g.name.split()[-1]}" \
            .casefold() in pairs  # "Sergeant Achebe" beside "Sergeant Helen Achebe"  # fmt: skip
        alone = g.name.casefold() in bare or named(g.name)  # not enough inside NER's span: "Robert De Niro" is no
        if g.person and (shown or alone and not g.inside) or g.name.casefold() in bare:  # role before "De Niro"
            out[g.mention] = g
    people = {g.name.casefold() for g in out.values() if g.person}  # "Environmental Health Officer Nadia Voss"
    roles = {g.role.split()[-1].casefold() for g in out.values()}  # after "Officer Nadia Voss" (a PERSON); a role
    for g in sorted((g for ev in evidence for g in ev.glued if g.mention not in out), key=lambda g: -len(g.role)):
        last = g.role.split()[-1].casefold()  # the document showed for someone else ("Police Constable Daniel
        if g.mention in out or last in given and not titles(g):  # Mercer": "Detective Constable
            continue  # Rhys Calloway"); a role shown and the name alone ("Head Chef Tomasz Wielgus" beside "the head
            # chef" and "Tomasz Wielgus agreed")
        alone = g.name.casefold() in people or named(g.name)
        if alone and (last in roles or last in nouns or len(before[g.role.casefold()]) >= 2):
            out[g.mention] = g
    return out

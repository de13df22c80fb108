"""Relations a text states through a relational noun: a noun phrase that names a person or thing by its relation to
another ("Marysia's brother Stanisław", "his father Wojciech", "the company's chief executive, Jane Smith,",
"Katarzyna Pyrek, Józef's younger sister,", "the chief executive of Acme Corp, Jane Smith,").

The noun is recognised by the shape of spaCy's parse, not by a list of kinship or job words: a common noun (no word
of a named entity) with a possessor — a possessive ("Marysia's", "his") or an "of" phrase ("of Acme Corp") — and a
name set beside it (its apposition, the name it is compounded onto, or the name it describes in apposition or
through a copula). Each such
phrase gives (name, "<noun> of", possessor), the noun with the modifiers written between the possessor and it
("chief executive of", "younger sister of"). A possessive pronoun is resolved as a subject "he"/"she"/"it" is
(`possessor`): in a text with no topic, the named subject before it (pronouns.possessive); in a text with a topic,
the topic — "his"/"her" only when the text names its topic as a person, "their" never, and neither when another
name (another person, for "his"/"her") is written before it in its sentence. Unresolved, the phrase gives nothing.

Not read here (the clause reader and nominal.appositions already give them, with a copula's "is"): "Dorothy, the
daughter of Thomas Keane," and "Dorothy was the daughter of Thomas Keane".
"""

from __future__ import annotations

from typing import Any

from ..models import Triple
from .clauses import Arg, ClauseReader
from .parse import triple
from .mentions import proper
from .pronouns import possessive, rivals
from .shapes import bracketed

Tok = Any  # a spaCy Token
_POSSESSIVE = {"his", "her", "its", "their"}


def relational_triples(r: ClauseReader) -> list[Triple]:
    """(name, "<noun> of", possessor) for every relational noun phrase of a ClauseReader's text."""
    out: list[Triple] = []
    for noun in r.doc:
        if not _relational(r, noun):
            continue
        poss = next((c for c in noun.children if c.dep_ == "poss"), None)
        if poss is not None and any(proper(t) for t in r.doc[poss.right_edge.i + 1 : noun.i]):
            continue  # the possessive is part of a name: "a former Jehovah's Witness elder"
        owners = [possessor(r, poss)] if poss is not None else []
        of = [] if poss is not None else [p for c in noun.children if c.dep_ == "prep" and c.lower_ == "of"
                                          for p in c.children if p.dep_ == "pobj"]  # fmt: skip
        owners += [r.arg(o) for p in of for o in [p, *p.conjuncts]]
        names = _names(r, noun, poss, of)
        what = relation(noun, poss)
        for o in (o for o in owners if o is not None and o.kind == "name"):
            out += [t for n in names if n.text != o.text and (t := triple(n.text, f"{what} of", o.text))]
    return list(dict.fromkeys(out))


def _relational(r: Any, noun: Tok) -> bool:
    """A common noun, not part of a name: "St. Peter's Cathedral, Scranton" is a church's name and a town."""
    return noun.pos_ == "NOUN" and noun.i not in r.ent_of


def possessor(r: Any, poss: Tok) -> Any:
    """The reader's argument for whose the noun is: a name ("Marysia's"), a possessive pronoun read as a subject
    pronoun is (see the module's docstring), or a definite noun the reader resolves ("the company's": the name the
    text tied "company" to, or the topic when the text calls its topic so); None when not resolved."""
    if poss.lower_ in _POSSESSIVE:
        if not r.topic:
            return possessive(r, poss)
        person = poss.lower_ in ("his", "her")  # "its chief executive", "his son Edsel" in an article on a person —
        if poss.lower_ == "their" or person and not _person_topic(r) or rivals(r, poss, r.topic, person):
            return None  # not "his album No Fences" under a song, "its Axis allies" after "the Empire of Japan"
        return Arg(r.topic, "name")
    a = r.arg(poss)
    if a is None:
        return None
    if a.kind == "name":
        return Arg(a.text.removesuffix("'s").removesuffix("'").strip(), "name")
    if a.kind == "generic" and r.topic and r.about.anaphor(poss):
        return Arg(r.topic, "name")  # "the river's tributary" under "Atbarah River" (not "the filmmaker's daughter"
        # under a film: a noun the text calls its topic by)
    return None


def _person_topic(r: Any) -> bool:
    """Whether the text names its topic as a person (NER's PERSON)."""
    return any(e.label_ == "PERSON" and (a := r.arg(e.root)) is not None and a.text == r.topic for e in r.doc.ents)


def _names(r: Any, noun: Tok, poss: Tok | None, of: list[Tok]) -> list[Any]:
    """The names the relational noun describes: its apposition ("brother Stanisław", "chief executive, Jane
    Smith,"), the name it is compounded onto, the name it stands in apposition to or is said of by a copula
    ("Katarzyna Pyrek, Józef's younger sister", "Katarzyna Pyrek is Józef's younger sister"), or — where the parser
    hung the apposition on the "of" phrase's name — a person right after the comma that ends a name that is no
    person's ("the chief executive of Acme Corp, Jane Smith,"). A singular noun in apposition to a name describes it;
    a plural one does not ("… in India, Azmi's performances")."""
    toks = [c for c in noun.children if c.dep_ == "appos" and c.i > noun.i and not bracketed(c) and _beside(noun, c)]
    if noun.dep_ == "compound" and noun.head.pos_ == "PROPN" and noun.head.i > noun.i:
        toks.append(noun.head)  # "brother Stanisław" read as one name with "brother" compounded onto it
    if poss is not None and noun.dep_ == "appos" and noun.i > noun.head.i and _set_off(noun) and noun.tag_ == "NN":
        toks.append(noun.head)  # "Katarzyna Pyrek, Józef's younger sister,"
    if poss is not None and noun.dep_ == "attr" and noun.head.lemma_ == "be":
        toks += [c for c in noun.head.children if c.dep_ == "nsubj"]  # "Katarzyna Pyrek is Józef's younger sister"
    for p in of:  # a person after a thing: not "the corner of Yellowstone National Park, Wyoming"
        ent = r.ent_of.get(p.i)
        toks += [c for c in p.children if c.dep_ == "appos" and ent is not None and c.left_edge.i == ent.end + 1 and
                 r.doc[ent.end].text == "," and ent.label_ != "PERSON" and (e := r.ent_of.get(c.i)) is not None and
                 e.label_ == "PERSON"]  # fmt: skip
    toks = [t for t in toks if poss is None or r.ent_of.get(t.i) is None or r.ent_of.get(t.i) is not r.ent_of.get(
        poss.i)]  # not one name NER read with the possessive: "Precisionism, America's one … movement"  # fmt: skip
    out = []
    for t in toks:  # a plural noun describes each name of a list ("his sons Edward and John"), a singular one the
        for x in [t, *t.conjuncts] if noun.tag_ == "NNS" else [t]:  # first ("Ketan's cousin Shekhar Kapur, X and Y")
            a = r.arg(x)
            if a is not None and a.kind == "name" and (x.pos_ == "PROPN" or x.i in r.ent_of):
                out.append(a)
    return out


def _beside(noun: Tok, name: Tok) -> bool:
    """Whether an apposition follows the noun's phrase at once ("brother Stanisław") or after one comma or dash
    ("the chief executive of Acme Corp, Jane Smith") — not a name further on that the parser hung on it ("the lead
    role of Bruce Wayne/Batman, with a returning cast of allies: Michael Caine as …")."""
    doc = noun.doc
    end = max([noun.i] + [c.right_edge.i for c in noun.children if c.i < name.i and c.dep_ not in ("appos", "punct")])
    gap = [t for t in doc[end + 1 : name.left_edge.i] if not (t.is_quote or t.dep_ == "det")]
    return not gap or len(gap) == 1 and gap[0].text in (",", "—", "–")


def _set_off(tok: Tok) -> bool:
    """Whether an apposition follows its head after a comma or a dash."""
    left = tok.left_edge.i
    return left > 0 and tok.doc[left - 1].text in (",", "—", "–")


def relation(noun: Tok, poss: Tok | None) -> str:
    """The noun with the adjectives and nouns written between the possessor and it ("chief executive", "younger
    sister"), singular ("his sons Edward and John": "son")."""
    after = poss.right_edge.i if poss is not None else -1
    words = [t for t in noun.children if t.dep_ in ("amod", "compound") and after < t.i < noun.i and t.is_alpha
             and not any(t.children)]  # not the "old" of "19-year-old sister"
    head = noun.lemma_ if noun.tag_ in ("NNS", "NNPS") else noun.text
    return " ".join([*(t.text for t in sorted(words, key=lambda t: t.i)), head]).lower()

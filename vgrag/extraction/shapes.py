"""Sentence and title shapes the clause reader asks about: an instruction to the reader (no fact about the topic),
the part of a document's title that its text names, a subject acting on the titled thing, and a clause whose
subject is a common noun or was lost by the parser (not the topic's either)."""

from __future__ import annotations

import re
from typing import Any

from .mentions import joined_names

Tok = Any  # a spaCy Token

SUBJ = {"nsubj", "nsubjpass", "csubj", "csubjpass"}
_SMALL = {"the", "a", "an", "of", "and", "in", "on", "at", "for", "to", "de", "la", "le"}

NAME_WORDS = 12  # a name's start is looked for among a title's first words (a 20,000-word "title" took minutes)
KIND = re.compile(r"\s[—–-]\s|\s\|\s")  # a name, then its kind: "Vellora CM-40 Espresso Machine — User Manual"


def title_named(title: str, text: str, written: str = "") -> str:
    """The name a title gives in the words of the (case-folded) text: the part before a comma when the text contains
    it ("Tucson" of "Tucson, Arizona"); for a title whose name is followed by its kind after a spaced dash or bar,
    that name, or the longest start of two or more of its words the text contains ("Vellora CM-40" of "Vellora
    CM-40 Espresso Machine — User Manual"); else the whole title. A colon is a subtitle's: "Capricorn One: Singles
    & Rarities" is one name where the text writes it whole; where it never does but writes the part before the
    colon as it is capitalised in the title (`written`: the text as written), that part is the name ("Quillhaven"
    of "Quillhaven: A Visitor's Guide to the Old Town"; not "Case study" of "Case Study: …")."""
    head = title.split(",")[0].strip()
    if head != title and head.casefold() in text:
        return head
    head = title.split(":")[0].strip()
    if head != title and head and title.casefold() not in text and \
            re.search(r"(?<!\w)" + re.escape(head) + r"(?![\w:])", written):  # fmt: skip
        return head
    parts = KIND.split(title, maxsplit=1)
    if len(parts) == 2 and parts[0].strip():
        words = parts[0].split()[:NAME_WORDS]
        for n in range(len(words), 1, -1):
            if re.search(r"(?<!\w)" + re.escape(" ".join(words[:n]).casefold()) + r"(?!\w)", text):
                return " ".join(words[:n])
    return title


def named_after(topic: str, text: str, ent: Any) -> bool:
    """Whether a place (`ent`, NER's span of `text`) is what the topic is named after, not the topic shortened
    ("grew up in Vellmoor" under "Vellmoor Opera Company", "in Manchester" under "Manchester United"): the object
    of a preposition, and the topic is its name and more capitalised words (not "Tucson" of "Tucson, Arizona")."""
    rest = topic[len(text) :] if topic.startswith(text) else ""
    return ent is not None and ent.label_ in ("GPE", "LOC", "FAC") and rest[:1] == " " and rest[1:2].isupper() and \
        ent.root.dep_ == "pobj"  # "in Vellmoor"; not the subject "Poland" NER cut from "Poland Comes First"


def negated(tok: Tok) -> bool:
    """Whether an argument is denied by its determiner ("has no branch in Leeds"), as "not" denies a verb."""
    return any(c.dep_ == "det" and c.lower_ == "no" for c in tok.children)


_NOT_TAKEN = frozenset({"instead", "rather"})


def not_taken(prep: Tok) -> bool:
    """A prepositional phrase naming the alternative not taken: "instead of Lyon", "rather than by post", or the
    phrase right after such words ("measured every two weeks instead of at selected visits") — read as a fact it
    would say the opposite of the text. English marks this with the adverb "instead" or "rather" on the word before
    the phrase's noun (spaCy hangs it on "of"/"than")."""
    doc = prep.doc
    marked = [prep] + ([doc[prep.i - 1]] if prep.i > 0 and doc[prep.i - 1].lower_ in ("of", "than") else [])
    return any(c.dep_ == "advmod" and c.lower_ in _NOT_TAKEN for t in marked for c in t.children)


def unasserted(verb: Tok) -> str:
    """What makes a clause something the text does not state as having happened, as the words to keep in its
    predicate ("" for a stated fact): a counterfactual — a modal with "have" and a past participle ("the stall
    warning would have sounded 18 seconds earlier": "would have") — or the clause of an impersonal passive in the
    present ("It is recommended that the operator moves …": "(recommended)"): a recommendation or a view. So is
    every clause hung on one (its "giving the crew time …"). Kept, so the passage stays reachable by its names, but
    never read as what happened."""
    own = True  # the verb's own modal reads on ("would have sounded at"); a clause hung on it gets it in brackets
    while True:
        kids = list(verb.children)
        modal = [c for c in kids if c.tag_ == "MD"]
        if verb.tag_ == "VBN" and modal and any(c.dep_ == "aux" and c.lower_ == "have" for c in kids):
            return f"{modal[0].lower_} have" if own else f"({modal[0].lower_} have)"
        head = verb.head
        if (
            verb.dep_ == "ccomp"
            and head.tag_ == "VBN"
            and any(c.dep_ == "nsubjpass" and c.lower_ == "it" for c in head.children)
            and any(c.dep_ == "auxpass" and c.tag_ in ("VBZ", "VBP") for c in head.children)
        ):
            return f"({head.lower_})"
        if verb.dep_ not in ("advcl", "xcomp", "conj", "ccomp") or head is verb or head.pos_ not in ("VERB", "AUX"):
            return ""
        verb, own = head, False


def denied(verb: Tok) -> bool:
    """A denied existence ("there is no shop between the lighthouse and Dunlow"), which says nothing of the topic
    (as "there have been four monarchs of the house" does), or a clause whose subject is denied ("provided that no
    homes are built in Flood Zone 2"): no thing does what it says."""
    if any(c.dep_ in SUBJ and negated(c) for c in verb.children):
        return True
    return any(c.dep_ == "expl" for c in verb.children) and any(c.dep_ == "neg" or negated(c) for c in verb.children)


def denies(verb: Tok) -> bool:
    """Whether a verb is denied: by its own "not", or as the second of verbs joined by "or"/"nor" under one "not"
    ("shall not lend the Work … or move it from the gallery")."""
    if any(c.dep_ == "neg" for c in verb.children):
        return True
    if verb.dep_ != "conj" or any(c.dep_ in SUBJ or c.dep_ in ("aux", "auxpass") for c in verb.children):
        return False
    joined = [c for c in verb.head.children if c.dep_ == "cc" and verb.head.i < c.i < verb.i]
    return bool(joined) and joined[-1].lower_ in ("or", "nor") and denies(verb.head)


def imperative(verb: Tok) -> bool:
    """An instruction: the sentence's main verb in the base form with no subject and no auxiliary ("Hold the steam
    wand …", "Fill the tank and press the button"), or a base-form verb joined to such a main verb."""

    def bare(v: Tok) -> bool:  # a base-form verb with no subject and no auxiliary of its own
        return v.tag_ == "VB" and not any(c.dep_ in SUBJ or c.dep_ in ("aux", "auxpass") for c in v.children)

    main = verb
    while main.dep_ in ("conj", "advcl", "ccomp") and bare(main) and main.head.i != main.i:
        main = main.head  # "…, then dip its tip …": "Purge" hangs on "dip"; "…; if it pours too slowly, use …"
    return bare(verb) and main.dep_ == "ROOT" and bare(main)


def acts_on_topic(tok: Tok, words: set[str], topic_words: set[str]) -> bool:
    """Whether the subject `tok` (its content `words`) does something to a thing at least as close to the topic as
    itself: "Vellora Appliances guarantees the Vellora CM-40 espresso machine" under "Vellora CM-40 Warranty and
    Service Guide" — the company is not the guide; "Kingsmere Athletic came from behind to beat Harbourside Rovers"
    under "Kingsmere Athletic 3–2 Harbourside Rovers" — a headline of two names is neither. Only a direct object
    counts, of the verb or of its open complement (not "is", not "known as")."""
    verb = tok.head
    if tok.dep_ not in SUBJ or verb.lemma_ == "be":
        return False
    verbs = [verb, *(c for c in verb.children if c.dep_ in ("xcomp", "advcl") and c.pos_ == "VERB")]
    for obj in (c for v in verbs for c in v.children if c.dep_ == "dobj"):  # also "came from behind to beat X"
        span = obj.doc[obj.left_edge.i : obj.i + 1]
        said = {w for w in re.findall(r"[^\W_]+", span.text.casefold()) if w not in _SMALL}
        if said & topic_words and len(said & topic_words) >= len(words & topic_words):
            return True
    return False


def lost_subject(verb: Tok, topic_words: set[str] | frozenset[str] = frozenset()) -> bool:
    """Whether a clause without a named subject is about something other than the topic: its subject is a first or
    second person ("you need the receipt": the reader), or a passive clause complement has no subject because the
    parser lost it ("Warranty [claims] in Germany … are handled by X": "handled" hangs on a misread verb, and the
    claims, not the document, are handled; a ROOT or a copula without a subject is mostly a subject hung
    elsewhere: "It is, however, often considered …"). A clause with no subject written ("Situated in Kalupahana,
    …") or a common noun as subject ("Many patients received the drug at …": the drug is the topic) stays the
    topic's."""
    if any(
        c.dep_ in SUBJ
        and c.pos_ == "PRON"
        and c.morph.get("Person") in (["1"], ["2"])
        and (c.text.islower() or c.is_sent_start)
        for c in verb.children
    ):  # not "Lord Kitchener Wants You is …"
        return True  # "you need the receipt", "we recommend …": the reader or the writer, not the topic
    misread = [verb] if verb.dep_ in ("nsubj", "nsubjpass") else [c for c in verb.children if c.dep_ in (
               "nsubj", "nsubjpass") and c.pos_ in ("VERB", "AUX")]  # fmt: skip
    for v in misread:  # "Repair [claims] in Spain are handled by X": a noun read as a verb is the subject — unless
        said = {w for w in re.findall(r"[^\W_]+", v.doc[v.left_edge.i : v.right_edge.i + 1].text.casefold())}
        if not said & set(topic_words) - _SMALL:  # it is the title, a clause ("Every Man Dies Alone is a novel")
            return True
    return _lost(verb) or any(_lost(c) for c in verb.children)  # "[Warranty] claims": a noun
    # read as the verb whose clausal complement lost its subject is no clause about the topic either


def _lost(verb: Tok) -> bool:
    """A passive clause complement with no patient: "… are handled by X" hung on a misread "claims"."""
    deps = {c.dep_ for c in verb.children}
    return verb.dep_ == "ccomp" and verb.tag_ == "VBN" and "auxpass" in deps and not deps & SUBJ


def bracketed(tok: Tok) -> bool:
    """Whether an apposition is written in brackets after its head: "a HiTrap Q FF column (Cytiva)", "a fresh
    install (#2183, @jgrenier)" — a comment on the head (its maker, a reference, who reported it), not another name
    of it nor a second argument of the verb."""
    lo, hi = sorted((tok.i, tok.head.i))
    for t in reversed(tok.doc[lo:hi]) if tok.i > tok.head.i else ():
        if t.text == ")":
            return False
        if t.text == "(":
            return True
    return False


def coordinated(tok: Tok) -> list[Tok]:
    """A token, its conjuncts and the names in apposition to them ("in Rome, Italy")."""
    out = []
    for t in [tok, *(c for c in tok.conjuncts if opens_clause(c) is None and not role_of(tok, c))]:
        named = [c for c in t.children if c.dep_ == "appos" and c.pos_ == "PROPN" and not bracketed(c) and
                 not role_of(t, c)]  # fmt: skip
        if t.pos_ != "NOUN" or not any(restrictive(t, c) for c in named):  # "in B R Chopra's hit television series
            out.append(t)  # "Mahabharat"": the title is what is meant; "a Canadian journalist, X" is both
        out += joined_names(t) if t.pos_ == "PROPN" else []
        out += named
    return out


def role_of(person: Tok, appos: Tok) -> bool:
    """Whether a capitalised phrase in apposition to a person's name (or parsed as its conjunct) is the person's
    role ("approved by Rosalind Tate, County Archaeologist, …": one approver): its words up to its head are all
    common nouns of the language, written with capitals."""
    if not person.ent_type_ == "PERSON" or appos.dep_ == "conj" and any(
            c.dep_ == "cc" for t in [person, *person.conjuncts] for c in t.children):  # fmt: skip
        return False  # "starring Anthony Wong, Gigi Lai and Sam Lee": a list, whose names may be nouns too
    from ..nlp import load_spacy
    from .roles import noun_table

    nlp = load_spacy()
    noun = noun_table(nlp) if nlp is not None else (lambda w: False)
    words = [w for w in appos.subtree if w.i <= appos.i and w.is_alpha]
    return bool(words) and all(w.text[:1].isupper() and noun(w.lower_) for w in words)


def opens_clause(tok: Tok) -> Tok | None:
    """The verb a conjunct is really the subject of, or None: in "Daniel Okoro is Treasurer and Priya Raman is
    Secretary" the parser makes "Priya Raman" a conjunct of "Treasurer" and leaves the second "is" without a subject;
    the name written right before a verb with no subject of its own opens that clause."""
    nxt = tok.doc[tok.i + 1] if tok.i + 1 < len(tok.doc) else None
    if tok.dep_ != "conj" or tok.pos_ not in ("PROPN", "NOUN") or nxt is None or nxt.pos_ not in ("VERB", "AUX"):
        return None
    if nxt.dep_ not in ("ccomp", "conj", "parataxis") or any(c.dep_ in SUBJ or c.dep_ == "expl" for c in nxt.children):
        return None
    first = tok.head  # "Treasurer", whose verb the second clause hangs on (not "between England and Scotland
    return nxt if first.head.i == nxt.head.i and first.dep_ in ("attr", "dobj") else None  # encompassed …")


def restrictive(noun: Tok, name: Tok) -> bool:
    """Whether a name follows its noun with no comma or bracket between ("the television series "Mahabharat"", "her
    husband John Reed"): it says which one the noun is, rather than adding a second description."""
    doc = noun.doc
    return noun.i < name.i and all(doc[i].text in "\"“”'‘’" for i in range(noun.i + 1, name.left_edge.i))


def particle(verb: Tok) -> str:
    """A verb's particles ("set up"), without one that takes an object: that is the preposition ("terminates on
    31 March", parsed with "on" as a particle), read once with its object, not "terminates on on"."""
    return " ".join(c.text for c in verb.children if c.dep_ == "prt" and not any(p.dep_ == "pobj" for p in c.children))


def in_name(tok: Tok, ent_of: dict[int, Any]) -> bool:
    """Whether a word is inside a named entity other than a date or time: the "v" of "Hadley v Baxendale" is a
    word of the case's name, the "Between" of "Between 09:14 and 11:52" still the time's preposition."""
    ent = ent_of.get(tok.i)
    return ent is not None and ent.label_ not in ("DATE", "TIME")

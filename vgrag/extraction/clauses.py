"""Clause-based triple extraction over spaCy's dependency parse (the offline extractor's reading of a text).

Each verb is a clause: its subject (inherited along coordinated verbs, taken from the noun a participle or relative
clause modifies, or from the named thing a description belongs to), its objects, prepositional and agent arguments,
each expanded to its named entity or noun phrase. Passives keep the patient as subject ("directed by"); coordinated
verbs share arguments ("written and directed by X"), coordinated arguments each give a triple, a parenthetical
participle ("X (born 1937)") attaches to the noun before it; copulas give descriptions ("X is an English filmmaker")
and relational nouns ("X is the capital of Y").

Entities are named things (named entities, proper nouns, quoted titles), full dates, or specific noun phrases. A
bare common noun is not one: "the film" as a subject is the passage's topic, else the argument is dropped; a clause
without a named subject is about the topic ("Situated in Kalupahana, …"); with no topic, a pronoun is the named
subject before it (pronouns.py). A bare year is kept on the relation as its date ("won, in 2012")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..models import Triple
from .aboutness import Aboutness, content as _content
from .mentions import (MONTH, description_start, determiner, honorific, item_span, modifiers, numbered,
                       written_title, point_date, post_nominal, proper, quantified, quoted_spans)  # fmt: skip
from .measures import measure, measure_end, named_before, unit
from .owner import copula_owner, of_name
from .parse import triple
from .persons import bound_person, person_in_apposition
from .pronouns import antecedent, definite, silent_antecedent
from .shapes import (SUBJ, acts_on_topic, bracketed, coordinated, denied, denies, opens_clause, imperative, in_name,
                     lost_subject, named_after, not_taken, negated, unasserted, particle, title_named)  # fmt: skip

Tok = Any  # a spaCy Token (spaCy is imported lazily by nlp.load_spacy)

OBJ = {"dobj", "attr", "oprd", "dative"}
PERSONAL = {"he", "she", "it", "they", "him", "her", "them"}
RELATIVE = {"who", "which", "that", "whom", "whose", "where"}
SKIP_LABELS = {"CARDINAL", "ORDINAL", "PERCENT", "QUANTITY", "MONEY"}
DATE_LABELS = {"DATE", "TIME"}
MODIFIERS = {"compound", "amod", "nummod", "nmod", "poss", "flat", "npadvmod"}
QUANTIFIERS = {"one", "some", "many", "most", "several", "each", "all", "both", "part"}


@dataclass(frozen=True)
class Arg:
    text: str
    kind: str  # "name" | "date" | "phrase" (specific noun phrase) | "year" | "generic" | "part" (the topic's)
    year: str = ""  # a year that qualified a description ("a 2001 war film"): kept in the relation, not the name

    @property
    def node(self) -> bool:
        """Whether this argument may be a graph entity."""
        return self.kind in ("name", "date", "phrase")


class ClauseReader:
    """Triples of one parsed text; `topic` (the passage's title or heading) is what "it"/"the film" refer to."""

    def __init__(self, doc: Any, topic: str) -> None:
        self.doc, self.topic = doc, topic.strip()
        self.title = self.topic
        self.ent_of: dict[int, Any] = {}
        for ent in doc.ents:
            if ent.label_ not in SKIP_LABELS:
                for tok in ent:
                    self.ent_of[tok.i] = ent
        self.quoted = quoted_spans(doc)
        full: dict[str, set[str]] = {}  # "Hall" → {"G. Stanley Hall"}: a person named in full, later by surname
        for ent in doc.ents:
            name = ent[1:] if ent.label_ == "PERSON" and honorific(ent[0]) else ent  # not "Cllr Hollins"
            if ent.label_ == "PERSON" and len(name) > 1:
                full.setdefault(ent[-1].text, set()).add(name.text)
        self.full_name = {k: next(iter(v)) for k, v in full.items() if len(v) == 1}
        first = next(iter(doc.sents), None)
        self.lead = {c.i for c in first.root.children if c.dep_ in SUBJ} if first is not None else set()
        self.lead |= {x.i for i in self.lead for x in doc[i].children if x.dep_ in SUBJ}
        self.topic_words: set[str] = set()
        if self.topic and self.topic.casefold() not in doc.text.casefold():
            # the text names its subject without the title's place qualifier ("Tucson, Arizona" → "Tucson is …");
            # replacing the title by the first sentence's subject ("Rodney George Laver" for "Rod Laver") was
            # measured too and matched GPT-3.5's names less often (MuSiQue 0-300 and 1200-1500)
            # likewise a document's title without its kind after a spaced dash ("Vellora CM-40 — User Manual")
            self.topic = title_named(self.topic, doc.text.casefold(), doc.text)
        self.topic_words = _content(self.topic)
        self.about = Aboutness(doc, self.title, self.topic, self.lead, self.named_topic)  # does it name its topic

    def named(self, text: str, tok: Tok) -> Arg:
        """A name, read as the topic when it is a shortened topic ("Countess" under "Countess of Parma") or the
        subject of the text's first sentence that shares a word with it ("Rodney George Laver" under "Rod Laver") —
        the first of the texts given together under one topic (extract.pool_topics): a later section opening with
        "Brackley Fen Town Council objects …" under "South Fenland District Council — Planning Committee Report" is
        about the town council."""
        if self.topic_words and text != self.topic:
            words = _content(text)
            short = bool(words) and words <= self.topic_words and _content(self.topic.split()[0]) <= words and \
                not named_after(self.topic, text, self.ent_of.get(tok.i))  # fmt: skip
            lead = tok.i in self.lead or tok.head.i in self.lead
            if (short or words & self.topic_words and lead) and not acts_on_topic(tok, words, self.topic_words):
                return Arg(self.topic, "name")  # not "Kingsmere Athletic … beat Harbourside Rovers" under
                # "Kingsmere Athletic 3–2 Harbourside Rovers": what it beats is closer to the title than itself
        if " " not in text and text in self.full_name:
            return self.named(self.full_name[text], tok) if self.full_name[text] != text else Arg(text, "name")
        return Arg(text, "name")

    # ---------- arguments

    def arg(self, tok: Tok) -> Arg | None:
        """The entity or noun phrase a token stands for, or None (pronouns without a topic, function words)."""
        if tok.lower_ in PERSONAL:
            if not self.topic:
                return antecedent(self, tok)
            if self.about.silent:  # a document that never names its topic: "it" is the thing just written of, if any
                return silent_antecedent(self, tok, Arg(self.topic, "name"))
            return bound_person(self, tok) or Arg(self.topic, "name")
        if tok.i in self.quoted:
            return self.named(self.quoted[tok.i], tok)
        ent = self.ent_of.get(tok.i)
        if ent is not None:
            titled = honorific if ent.label_ == "PERSON" else written_title  # a person's: not "St." of "St. Louis"
            span = ent[1:] if (determiner(ent[0]) or titled(ent[0]) or ent[0].text in ("a", "an")) and len(ent) > 1 \
                else ent  # "This Act", "a Written Scheme of Investigation"  # fmt: skip
            start = span.start  # proper nouns the parser joins to the name but NER left out ("Lennox" Robinson)
            while ent.label_ not in DATE_LABELS and start > 0 and (w := self.doc[start - 1]).pos_ == "PROPN" and \
                    w.dep_ == "compound" and span.start <= w.head.i < span.end and w.i not in self.ent_of and \
                    not titled(w):  # fmt: skip
                start -= 1
            end = span.end - post_nominal(ent)  # "Ms Zoë Lefèvre KC" is Zoë Lefèvre
            if ent.label_ not in DATE_LABELS:  # a run-on list glued into the name: the item holding the head
                start, end = item_span(self.doc, start, end, tok.i if start <= tok.i < end else ent.root.i)
                start += measure_end(self.doc[start : end - 1])  # "3 mM ABTS" is ABTS
                if title := next((self.quoted[i] for i in range(start, end) if i in self.quoted), None):
                    return self.named(title, tok)  # a quoted title inside a name is the name
            text = self.doc[start:end].text
            if ent.label_ in DATE_LABELS:
                before = self.doc[ent.start - 1] if ent.start > 0 else None
                if before is not None and re.fullmatch(r"\d{1,2}", before.text) and MONTH.match(ent[0].text):
                    start, text = start - 1, f"{before.text} {text}"  # "9 August 1938" NER read as "August 1938"
                return Arg(text, "date" if point_date(self.doc[start:end]) else "year")
            return self.named(text, tok)
        if (value := measure(tok)) is not None:  # "18.5 °C", "50 Hz": a value (not "Oven 170 °C"), but not a subject
            return Arg(value, "name") if tok.dep_ not in SUBJ else None  # ("96.5% of the water is found in …")
        if tok.pos_ == "NUM":
            return Arg(tok.text, "year") if re.fullmatch(r"\d{3,4}s?", tok.text) else None
        if (h := named_before(tok, self.ent_of)) is not None:
            return self.arg(h)  # "Harbourside Rovers 3–2", "Siobhán Keating MRICS": the name before a score, letters
        if tok.pos_ not in ("NOUN", "PROPN") or not any(c.isalpha() for c in tok.text):
            return None
        if quantified(tok):  # "many genres", "several other proteins", "the first time", "the former Mayor"
            return Arg(tok.lemma_ if tok.tag_ == "NNS" else tok.text, "generic")
        keep = modifiers(tok, MODIFIERS, PERSONAL | {"his", "its", "their", "her"})
        end = tok.i + 1 + numbered(tok)  # "SF 22", "Trench 3"
        start, end = item_span(self.doc, min([tok.i] + [c.left_edge.i for c in keep]), end, tok.i)
        noun = not proper(tok)  # a common noun: its phrase is a description
        if noun:  # a comma ends what came before a description ("11:52 UTC, card payments failed")
            start = max([start] + [i + 1 for i in range(start, end) if self.doc[i].text == ","])
            start = description_start(keep, start)
        if title := next((self.quoted[i] for i in range(start, end) if i in self.quoted), None):
            return self.named(title, tok)  # the "Showbusiness Reporter of the Year" award: the title is the name
        words = list(self.doc[start:end])
        person = len(words) > 2 and all(w.pos_ == "PROPN" for w in words[1:])  # "Dr Tomasz Wieczorek", whom NER
        while words and (words[0].is_punct or words[0].dep_ in ("det", "predet") or words[0].lower_ in PERSONAL or
                         person and honorific(words[0])):  # missed; not "St. Ebba's Church", "St. Louis"  # fmt: skip
            words = words[1:]
        if noun and any(t.tag_ in ("PRP$", "WP$") for t in words):  # "his competing harms defense"
            return Arg(tok.lemma_ if tok.tag_ == "NNS" else tok.text, "generic")
        words, year = words[measure_end(words[:-1]) :], ""  # "300 g plain flour" is plain flour
        if noun and words and re.fullmatch(r"\d{4}s?", words[0].text) and len(words) > 1:
            year, words = words[0].text, words[1:]
        text = "".join(t.text_with_ws for t in words).strip()
        if any(proper(t) for t in words) or tok.pos_ == "PROPN" and len(words) == 1:
            return self.named(text, tok)
        if len([t for t in words if t.is_alpha]) >= 2:
            return Arg(text, "phrase", year)
        the = definite(self, tok) if not self.topic else None  # "the service" after "the … Monitoring Service"
        return the or Arg(tok.lemma_ if tok.tag_ == "NNS" else tok.text, "generic")

    def subject_arg(self, tok: Tok) -> Arg | None:
        """A subject: a relative pronoun is the noun its clause modifies; "the film" is the topic; a description
        ("a 2001 war film" in "X is a 2001 war film directed by Y") is the thing it describes."""
        if tok.lower_ in RELATIVE:
            head = tok.head
            while head.dep_ == "relcl" or head.dep_ == "conj":
                head = head.head
            return self.subject_arg(head) if head.i != tok.i else None
        a = self.arg(tok)
        if (person := person_in_apposition(self, tok)) is not None:
            return person  # "The Head of Training, Captain Alasdair Munro, has added …" (persons.py)
        description = tok.pos_ == "NOUN" and tok.i not in self.ent_of  # "an American daily newspaper"
        if a is None or a.node and a.kind != "phrase" and not description:
            return a
        if tok.dep_ == "attr" and tok.head.pos_ == "AUX":
            subs = [c for c in tok.head.children if c.dep_ in SUBJ]
            if subs:
                return self.subject_arg(subs[0])
        if tok.dep_ == "appos":
            return self.subject_arg(tok.head)
        named = [c for c in tok.children if c.dep_ == "appos" and not bracketed(c) and (n := self.arg(c)) is not None
                 and n.kind == "name"]  # fmt: skip
        if named:  # "her first novel, "The Orange Eats Creeps", was published …"
            return self.arg(named[0])
        if a.kind == "generic" and (of := of_name(self, tok)) is not None:  # "The role of Onegin will be sung by …"
            return Arg(f"{a.text} of {of.text}", "phrase")  # the role, not the text's topic
        if a.kind == "generic" and self.topic:
            if not self.about.silent and any(c.lower_ in ("the", "this") for c in tok.children) or \
                    self.about.anaphor(tok):  # fmt: skip
                return Arg(self.topic, "name")  # "the film" in a text that names its topic or calls it a film
            if any(c.lower_ in ("its", "his", "her", "their") for c in tok.children):
                return Arg(a.text, "part")  # "Its coast borders …": a part of the topic, whose clause is the topic's
        return a

    def named_topic(self, tok: Tok) -> bool:
        """Whether a token names the topic (a name the reader reads as the topic)."""
        ent = self.ent_of.get(tok.i)
        return (ent is not None or tok.pos_ == "PROPN") and self.named((ent or tok).text, tok).text == self.topic

    # ---------- clauses

    def subjects(self, verb: Tok) -> list[Arg]:
        own = [c for c in verb.children if c.dep_ in SUBJ]
        # "X (born 1970) is …" parsed with the participle as the clause subject: its own subject is meant
        own = [t for c in own for t in ([c] if c.dep_ in ("nsubj", "nsubjpass") else
               [x for x in c.children if x.dep_ in ("nsubj", "nsubjpass")])]  # fmt: skip
        if own:
            toks = [t for s in own for t in [s, *s.conjuncts]]
            return [a for a in (self.subject_arg(t) for t in toks) if a]
        prev = verb.doc[verb.i - 1] if verb.i else None
        if prev is not None and (v := opens_clause(prev)) is not None and v.i == verb.i:  # "… and Raman is Secretary"
            return [a for a in [self.subject_arg(prev)] if a]
        if verb.dep_ in ("acl", "relcl", "appos") or (verb.dep_ == "parataxis" and verb.head.pos_ in ("NOUN", "PROPN")):
            return [a for a in [self.subject_arg(verb.head)] if a]
        if verb.dep_ in ("conj", "xcomp", "advcl") and verb.head.pos_ in ("VERB", "AUX"):
            return self.subjects(verb.head)
        if verb.dep_ == "pcomp" and verb.tag_ == "VBG" and verb.head.head.pos_ in ("VERB", "AUX"):
            return self.subjects(verb.head.head)  # "withdrew it … after receiving a revised strategy"
        for c in verb.children:  # "X, also called Y, is …": the parser hung X on the participle before the verb
            if c.dep_ in ("advcl", "ccomp") and c.i < verb.i:
                own = [s for s in c.children if s.dep_ in SUBJ and s.i < c.i]
                if own:
                    return [a for a in (self.subject_arg(t) for t in [own[0], *own[0].conjuncts]) if a]
        return []

    def arguments(self, verb: Tok) -> list[tuple[str, Tok]]:
        """(predicate, argument token) of a verb's own objects, prepositional and agent arguments."""
        out: list[tuple[str, Tok]] = []
        neg = "not " if denies(verb) else ""
        base = f"{neg}{verb.lower_} {particle(verb)}".strip()  # "Born in Łódź": "born in"
        for c in verb.children:
            if c.dep_ in OBJ and c.pos_ != "ADP":
                out += [(base, o) for o in coordinated(c)]
            elif (c.dep_ in ("prep", "agent") or c.pos_ == "ADP") and not in_name(c, self.ent_of) and \
                    not not_taken(c):  # "played for X", not "instead of X"  # fmt: skip
                # parsed as a dative: a preposition (not the "v" of "Hadley v Baxendale": a word of a name)
                word = "by" if c.dep_ == "agent" else c.lower_
                for p in c.children:
                    if p.dep_ == "pobj":
                        out += [(f"{base} {word}", o) for o in coordinated(p)]
            elif c.dep_ in ("advmod", "npadvmod") and c.i not in self.ent_of:  # "runs north to X": an adverb's
                out += [(f"{base} {q.text}", o) for q in c.children if q.dep_ == "prep"  # preposition
                        for p in q.children if p.dep_ == "pobj" for o in coordinated(p)]  # fmt: skip
            elif c.dep_ in ("npadvmod", "nmod") and self.ent_of.get(c.i) is not None:
                if self.ent_of[c.i].label_ in DATE_LABELS:
                    out.append((base, c))
        return out if neg else [(f"not {p}" if negated(o) else p, o) for p, o in out]  # "has no branch in Leeds"

    def clause(self, verb: Tok) -> list[Triple]:
        if imperative(verb) or denied(verb):  # "When the light stays on, place a cup …": an instruction to the
            return []  # reader, not a fact about the topic; nor is "there is no shop between …"
        subjects = self.subjects(verb)
        described = self.owner(verb) if verb.lemma_ == "be" else None
        if described is not None:  # "The current editor is X", "France's capital is Paris"
            owner, what = described
            subjects = []
        elif (
            self.topic
            and not any(s.node or s.kind == "generic" and self.about.silent for s in subjects)
            and not (verb.lemma_ == "be" and self.possessed(verb))
            and not lost_subject(verb, self.topic_words)
            and not (self.about.silent and any(c.dep_ in SUBJ for c in verb.children))  # its own, unnamed subject
        ):
            subjects = [Arg(self.topic, "name")]  # no named subject: the clause is about the topic — but not
            # "someone's father was X" ("Alan Turing | was | Julius Mathison Turing"), nor "The window opens …" in
            # a text that never names its topic (aboutness.py)
        if not subjects and described is None:
            return []
        args = self.arguments(verb)
        if not args:  # "directed and produced by X": the first verb shares the last one's arguments
            for other in verb.conjuncts:
                if other.i > verb.i and not any(c.dep_ in SUBJ for c in other.children):
                    base = other.lower_
                    args = [(verb.lower_ + p[len(base) :], o) for p, o in self.arguments(other) if p.startswith(base)]
                    if args:
                        break
        pairs: list[tuple[str, Arg]] = []
        years: list[str] = []
        verb_base = verb.lower_
        for pred, tok in args:
            for p, a in self.expand(pred, tok, verb_base):
                if a.kind == "year":  # a year is an attribute of the fact, not a word of its predicate
                    prep = p.split()[-1] if len(p.split()) > len(verb_base.split()) else ""  # "born in", "ran from"
                    prep = "" if [prep.lower()] == a.text.lower().split()[:1] else prep  # "held between 9 …"
                    years.append(f"{prep} {a.text}".strip())
                elif a.node:
                    pairs.append((p, a))
        out = []
        if described is not None:
            out += [t for p, o in pairs if o.kind == "name" and (t := triple(owner, f"{what} {p}", o.text))]
        for s, (p, o) in ((s, po) for s in subjects if s.node for po in pairs):
            when = ", ".join(dict.fromkeys([o.year, *years] if o.year else years))  # "a 2001 war film" too
            if t := triple(s.text, p, o.text, when):
                out.append(t)
        hedge = unasserted(verb)  # "would have sounded at", "(recommended) moves": never read as done
        return [t for x in out if (t := triple(x.subject, f"{hedge} {x.predicate}", x.object, x.when))] if hedge \
            else out  # fmt: skip

    def possessed(self, verb: Tok) -> bool:
        """Whether the verb's subject is something's ("his father", "a friend's car")."""
        return any(g.dep_ == "poss" for c in verb.children if c.dep_ in ("nsubj", "nsubjpass") for g in c.children)

    def owner(self, verb: Tok) -> tuple[str, str] | None:
        return copula_owner(self, verb)

    def expand(self, pred: str, tok: Tok, verb_base: str, depth: int = 0) -> list[tuple[str, Arg]]:
        """An argument and the arguments of its own prepositions: through a common noun the relational reading
        ("the capital of France" → (is capital of, France); "from a screenplay by Z" → (… screenplay by, Z)), for
        a name a further argument of the verb ("at 92.9 FM in Drayton Valley" → (broadcasts in, Drayton Valley))."""
        a = self.subject_arg(tok) if tok.lower_ in RELATIVE and tok.dep_ in OBJ else self.arg(tok)  # "which X runs"
        if a is None and tok.lower_ in QUANTIFIERS:  # "one of the highest-grossing directors"
            a = Arg(tok.lower_, "generic")
        if a is None:
            return []
        out = [(pred, a)] if a.kind != "generic" or depth else []
        common = (tok.pos_ == "NOUN" or tok.lower_ in QUANTIFIERS or a.kind == "generic") and tok.i not in self.ent_of
        if depth >= 2 or (not common and not verb_base):
            return out
        head = tok.lemma_ if tok.tag_ == "NNS" else tok.text
        for c in tok.children:
            if c.dep_ != "prep" or (not common and c.lower_ == "of"):
                continue
            inner_pred = f"{pred} {head} {c.lower_}" if common else f"{verb_base} {c.lower_}"
            for p in c.children:
                if p.dep_ == "pobj":
                    for o in coordinated(p):
                        out += [x for x in self.expand(inner_pred, o, verb_base, depth + 1) if x[1].kind != "generic"]
        return out

    def triples(self) -> list[Triple]:
        """The triples of every verb clause (the verbless readings are nominal.py's; "2 tbsp" is no verb)."""
        verbs = (t for t in self.doc if t.pos_ in ("VERB", "AUX") and t.dep_ not in ("aux", "auxpass") and not unit(t))
        return list(dict.fromkeys(x for v in verbs for x in self.clause(v)))

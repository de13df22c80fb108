"""Canonical entities: one name per thing inside a graph.

A mention is normalised (citation markers, a leading article, a title printed twice "Red House The Red House",
spacing) and near-duplicates within one ingest are merged: "Evans, Mary Ann" into "Mary Ann Evans" when both are
written, "Mill House" and "The Mill House" into one. The names merged into a canonical one are its aliases.
Entity ids stay content hashes of the (canonical) name, so ingesting the same text again gives the same ids.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any

from ..documents.structure import strip_markers
from ..text import display_name, entity_id, normalize_name
from .identity import heading_forms, initials, strip_heading, unaccented
from .measures import letters
from .parse import clean_triple
from .roles import Glued, glued_roles

_ARTICLE = re.compile(r"^(?:the|a|an)\s+(?=\S)", re.I)
_INVERTED = re.compile(r"^([^,]+),\s*([^,]+)$")
_HONORIFIC = re.compile(r"^(?:[A-Z][a-z]{1,3}\.|[B-DF-HJ-NP-TV-Z][b-df-hj-np-tv-xz]{1,2})\s+(?=[A-Z]\w+$)")  # "Ms X"
_TITLE_WORD = re.compile(r"[A-Z][a-z]{1,3}\.|[B-DF-HJ-NP-TV-Z][b-df-hj-np-tv-xz]{1,2}")  # "Dr.", "Dr", "Mrs"
_PLACES = {"GPE", "LOC", "FAC"}  # spaCy's labels of places
_SERIAL = re.compile(r"\d{1,4}[A-Za-z]?")  # a bare number that may be a thing's ("Trench 3" of "trench | 3")
_JOINERS = re.compile(r"[-‐–—,.'’:;]+")  # punctuation that only joins or separates words (not "C++", "C#")


def _role_word(name: str) -> str:
    """The words before the last of a name of two to four words, case-folded ("Detective Constable Calloway" →
    "detective constable"): a role, when the document shows it is one."""
    words = name.split()
    return " ".join(words[:-1]).casefold() if 2 <= len(words) <= 4 else ""


def tidy(name: str) -> str:
    """A mention without citation markers and odd spacing, a title printed twice read once."""
    s = display_name(strip_markers(name))
    words = s.split()
    for half in range(len(words) // 2, 0, -1):  # "Red House The Red House" → "Red House"
        a, b = words[:half], words[half:]
        if b and b[0].casefold() in ("the", "a", "an"):
            b = b[1:]
        if [w.casefold() for w in a] == [w.casefold() for w in b]:
            s = " ".join(words[:half])
            break
    return s


def clean_name(name: str) -> str:
    """A mention as a name: tidied, without a leading article."""
    s = tidy(name)
    stripped = _ARTICLE.sub("", s)
    return stripped if any(c.isalnum() for c in stripped) else s


def key(name: str) -> str:
    """The key two mentions of one thing share: the normalised clean name, accents and a leading title folded
    ("Dr. Jindřich Polák" and "Jindrich Polak")."""
    k = normalize_name(unaccented(clean_name(name)))
    return " ".join(_JOINERS.sub(" ", k).split()) or k  # "best-selling album" = "best selling album"


def inverted(name: str) -> str | None:
    """ "Evans, Mary Ann" → "Mary Ann Evans" (a surname-first form), else None."""
    m = _INVERTED.match(clean_name(name))
    if not m:
        return None
    last, first = m.group(1).strip(), m.group(2).strip()
    if not (1 <= len(last.split()) <= 3 and 1 <= len(first.split()) <= 3):
        return None
    if not all(w[:1].isupper() for w in (last + " " + first).split()):
        return None
    return f"{first} {last}"


class Canonicalizer:
    """Canonical names across one ingest run (and the graph it writes to): every mention key keeps the first
    canonical name it was given, so batches written earlier stay consistent; `aliases` collects the spellings
    merged into each canonical name."""

    def __init__(self, known: Callable[[Sequence[str]], dict[str, str]] | None = None, each_text: bool = False,
                 stored: dict[str, tuple[str, ...]] | None = None) -> None:  # fmt: skip
        self._known = known  # spelling → name of the entity already in the graph with that spelling's id
        self._each = each_text  # the texts given are not known to be one document: role evidence is each text's
        self.names: dict[str, str] = {}  # key of a mention → canonical display name
        self.aliases: dict[str, set[str]] = {}
        # key of an abbreviation → the long forms documents of this graph define it as ("AAIB" → Air Accidents
        # Investigation Branch): the graph's recorded aliases, then what each document of this ingest defines
        self._abbrs: dict[str, set[str]] = {}
        for name, forms in (stored or {}).items():
            for f in forms:
                if abbreviates(f, name):
                    self._abbrs.setdefault(key(f), set()).add(name)
        self.begin()

    def begin(self, headings: Iterable[str] = ()) -> None:
        """Start a document: its headings (stripped from names glued to them) and the evidence it gives of one
        thing's two names — an abbreviation it defines, a surname of the one person it names in full — which
        holds for this document only."""
        self._headings = heading_forms(headings)
        self._same: dict[str, str] = {}  # key of a short form → the long form this document gives it
        self._people: dict[str, dict[str, str]] = {}  # key of a last name → the full names ending with it
        self._short: dict[str, str] = {}  # key of a short form → its spelling (an alias of the long form)
        # an abbreviation another document of the graph defines, as one thing only, is that thing here too (a
        # report defines "Air Accidents Investigation Branch (AAIB)", the press release on it writes "the AAIB");
        # this document's own definitions, learnt next, come first
        self._carried = {k: next(iter(v)) for k, v in self._abbrs.items() if len(v) == 1}
        self._evidence: list[Any] = []  # role words before names (roles.RoleEvidence of each text)
        self._roles: dict[str, Glued] = {}  # a mention with a role word glued on → its role and name

    def _strip(self, mention: str) -> str:
        return strip_heading(tidy(mention), self._headings) if self._headings else mention

    def name(self, mention: str) -> str:
        mention = self._strip(mention)
        k = key(mention)
        if k in self._same:
            k = key(self._same[k])
        return self.names.get(k, tidy(mention) or clean_name(mention))

    def _learn(self, results: Sequence[Any]) -> list[str]:
        """The document's own evidence in these results; returns the long forms (to be named like any mention)."""
        longs = []
        found = [r.roles for r in results if getattr(r, "roles", None) is not None]
        said: set[str] = set()

        def named(n: str) -> bool:  # the name on its own: in the graph, or mentioned in these results
            if not said:
                said.update(key(self._strip(x)) for r in results for t in r.triples for x in (t.subject, t.object))
            return key(n) in self.names or key(n) in said

        if self._each:  # a corpus of passages: "Robert" before two names in two articles is no role, but a name
            names = frozenset().union(*(ev.given for ev in found)) if found else frozenset()  # written alone in one
            self._roles |= {m: g for ev in found for m, g in glued_roles([ev], named, names).items()}  # is a name
        else:
            self._evidence += found
            self._roles = glued_roles(self._evidence, named)
        doc_roles = {g.role.casefold() for g in self._roles.values()}  # this document's role words ("Sergeant")
        for mention, g in self._roles.items():  # "Councillor David Lindqvist" is David Lindqvist
            if key(mention) != key(g.name):
                self._same[key(mention)], self._short[key(mention)] = g.name, mention
                longs.append(g.name)
        # each result's role words: the document's, or in a corpus of passages the ones cut from its own names
        role_words = [doc_roles if not self._each else {g.role.casefold() for g in r.roles.glued if self._roles.get(
            g.mention) == g} if getattr(r, "roles", None) else set() for r in results]  # fmt: skip
        shown = () if self._each else tuple(g.name for g in self._roles.values())  # names cut from a role
        for r, roles in [*zip(results, role_words, strict=True), (None, doc_roles)]:
            for long, short in getattr(r, "defined", ()):
                long = self._strip(long)  # "Highlights Halvorsen Marine Group ASA (the "Group")" after a heading
                if key(short) != key(long):
                    self._same[key(short)] = long
                    self._short[key(short)] = short
                    longs.append(long)
                    if abbreviates(short, long) and not self._each:  # carried to the graph's other documents
                        self._abbrs.setdefault(key(short), set()).add(long)
            for full in getattr(r, "people", ()) if r is not None else shown:
                full = self._roles[full].name if full in self._roles else full
                if _HONORIFIC.match(full) or _role_word(full) in roles:
                    continue  # "Ms Okonjo", "Sergeant Achebe": a surname with a title or role, not a full name
                self._people.setdefault(key(full.split()[-1]), {})[key(full)] = full
        longs += self._titled(results)
        for r in results:  # an abbreviation only another document defines
            for m in {self._strip(x) for t in r.triples for x in (t.subject, t.object)}:
                long = self._carried.get(key(m))
                if long and key(m) not in self._same:
                    self._same[key(m)], self._short[key(m)] = long, m
                    longs.append(long)
        for r, roles in zip(results, role_words, strict=True):  # "Mignot" after "Emmanuel Mignot": the one person
            # of this document with that last name — not a place the text names ("in Zurich" after "ETH Zurich", a
            # university NER read as a person)
            places = {key(s[2]) for s in getattr(getattr(r, "named", None), "spans", ()) if s[3] in _PLACES}
            for m in (self._strip(x) for t in r.triples for x in (t.subject, t.object) if key(x) not in places):
                bare = m.split()[-1] if _role_word(m) in roles else _HONORIFIC.sub("", m)  # "Ms Okafor" too
                fulls = self._people.get(key(bare), {})
                one = " " not in bare.strip()
                if one and m[:1].isupper() and len(fulls) == 1 and key(m) not in self._same:
                    self._same[key(m)], self._short[key(m)] = next(iter(fulls.values())), m
                    longs += [] if self._each else [self._same[key(m)]]  # named so even if no triple names it (in
                    # one document only: across a corpus one "Washington" is no person's surname)
        return longs

    def _titled(self, results: Sequence[Any]) -> list[str]:
        """A person named in full in this document, written elsewhere in it with a title before or post-nominal
        letters after ("Dr Helen Achterberg MCIfA" in a staff table, "Helen Achterberg" as the report's author): one
        person."""
        fulls, out = {k: n for names in self._people.values() for k, n in names.items()}, []
        for m in {self._strip(x) for r in results for t in r.triples for x in (t.subject, t.object)}:
            words = m.split()
            core = words[1:] if len(words) > 2 and _TITLE_WORD.fullmatch(words[0]) else words
            core = core[:-1] if len(core) > 2 and letters(core[-1]) else core
            full = fulls.get(key(" ".join(core))) if core != words else None
            if full and key(m) not in self._same:
                self._same[key(m)], self._short[key(m)] = full, m
                out.append(full)
        return out

    def add(self, mentions: Iterable[str]) -> None:
        """Learn canonical names for new mentions: the most frequent clean spelling of a key, a surname-first
        form folded into its written-out form when that is seen here or already in the graph."""
        spellings: dict[str, Counter[str]] = {}
        for m in mentions:
            clean = clean_name(m)
            if clean:  # the key drops a leading article; the name keeps the form the text writes
                spellings.setdefault(key(m), Counter())[tidy(m) or clean] += 1
        new = {k: forms for k, forms in spellings.items() if k not in self.names}
        stored = self._known([f for forms in new.values() for f in forms]) if self._known and new else {}
        for k, forms in new.items():  # a spelling the graph already has wins, else the most written one
            ranked = sorted(forms, key=lambda f: (forms[f], unaccented(f) != f, len(f), f), reverse=True)
            self.names[k] = next((stored[f] for f in ranked if f in stored), ranked[0])
        for k, forms in spellings.items():  # then merge surname-first forms
            inv = next((i for i in map(inverted, forms) if i), None)
            target = self._merge_target(inv) if inv else None
            if target and target != self.names[k]:
                self._alias(target, {self.names[k], *forms})
                self.names[k] = target
            else:
                self._alias(self.names[k], set(forms))
        for canon in list(self.names.values()):  # a written-out form seen after its surname-first one
            inv = inverted(canon)
            if inv and key(inv) in self.names and self.names[key(inv)] != canon:
                self._alias(canon, {self.names[key(inv)]})
                self.names[key(inv)] = canon

    def _merge_target(self, written_out: str) -> str | None:
        k = key(written_out)
        if k in self.names:
            return self.names[k]
        return self._known([written_out]).get(written_out) if self._known else None

    def _alias(self, canon: str, forms: set[str]) -> None:
        extra = {f for f in forms if f and f != canon}
        if extra:
            self.aliases.setdefault(canon, set()).update(extra)

    def apply(self, results: Sequence[Any]) -> list[Any]:
        """Extractions (anything with `triples` and `entities`) with canonical names."""
        longs = self._learn(results)
        self.add([self._strip(x) for r in results for t in r.triples for x in (t.subject, t.object)] + [
                  self._strip(x) for r in results for x in r.entities] + longs)  # fmt: skip
        for short, long in self._same.items():
            target = self.names.get(key(long))
            if target:
                self._alias(target, {self._short[short]} - {target})
        serials = self._serials(results)
        out = []
        for r in results:
            named = ((clean_triple((self.name(t.subject), t.predicate, serials.get((t.predicate, self.name(t.object)),
                                                                                   self.name(t.object)))), t)
                     for t in r.triples)  # fmt: skip
            triples = tuple(dict.fromkeys(replace(c, when=t.when) if t.when else c for c, t in named if c))
            triples += self._role_facts(r, triples)
            out.append(replace(r, triples=triples, entities=tuple(dict.fromkeys(self.name(x) for x in r.entities))))
        return out

    def _serials(self, results: Sequence[Any]) -> dict[tuple[str, str], str]:
        """(label, bare number) → the thing they name where this ingest or the graph has it: a finds register's
        "trench | 3" is "Trench 3", a row of the report's trench table ("count | 612" stays a number). One graph
        read for all of them."""
        asked = {(t.predicate, v): f"{t.predicate[:1].upper()}{t.predicate[1:]} {v}" for r in results for t in r.triples
                 if t.predicate.isalpha() and _SERIAL.fullmatch(v := self.name(t.object))}  # fmt: skip
        known = {n: self.names[key(n)] for n in asked.values() if key(n) in self.names}
        rest = [n for n in asked.values() if n not in known]
        known |= self._known(rest) if self._known and rest else {}
        return {pv: known[n] for pv, n in asked.items() if n in known}

    def _role_facts(self, result: Any, triples: tuple[Any, ...]) -> tuple[Any, ...]:
        """(name, is, role) for the roles of two or more words cut off a name a text mentions ("Chief Fire Officer
        Ruth Danvers" → Ruth Danvers is Chief Fire Officer); a one-word role ("Councillor") is a bare common noun,
        no entity (see clauses.py), and is only dropped."""
        said = {x for t in triples for x in (t.subject, t.object)}
        out = []
        for g in getattr(getattr(result, "roles", None), "glued", ()):
            if self._roles.get(g.mention) == g and len(g.role.split()) >= 2 and self.name(g.mention) in said:
                t = clean_triple((self.name(g.mention), "is", self.name(g.role)))
                out += [t] if t and t not in triples else []
        return tuple(dict.fromkeys(out))


class AliasLog:
    """The aliases of a graph's entities: one small record per ingested document, attached to the document's
    record (so deleting the document or the graph deletes them)."""

    def __init__(self, documents: Any) -> None:
        self.documents = documents  # the graph's DocumentLog

    def add(self, doc_id: str, aliases: dict[str, set[str]]) -> None:
        """Record the spellings merged while ingesting one document (one write)."""
        if aliases:
            payload = {name: sorted(forms) for name, forms in sorted(aliases.items())}
            self.documents.attach(doc_id, "alias", payload)

    def all(self) -> dict[str, tuple[str, ...]]:
        """Canonical name → the other spellings merged into it, over the whole graph."""
        merged: dict[str, set[str]] = {}
        for payload in self.documents.attached("alias"):
            for name, forms in (payload or {}).items():
                merged.setdefault(name, set()).update(forms)
        return {n: tuple(sorted(f)) for n, f in merged.items()}

    def of(self, name: str) -> tuple[str, ...]:
        return self.all().get(name, ())


def abbreviates(short: str, long: str) -> bool:
    """`short` is an abbreviation (capitals: "AAIB", "HIAL") spelling the initials of `long`'s words."""
    caps = short.rstrip("s")
    words = long.split()
    return (len(caps) >= 2 and caps.isupper() and caps.isalpha() and len(words) >= 2
            and caps in (initials(words, False), initials(words, True)))  # fmt: skip


def graph_lookup(graph: Any) -> Callable[[Sequence[str]], dict[str, str]]:
    """Spellings → the names of the entities already in `graph` with their ids (one read for all of them)."""

    def known(names: Sequence[str]) -> dict[str, str]:
        ids = {entity_id(n): n for n in names}
        return {ids[e.id]: e.name for e in graph.get_entities(list(ids)) if e.id in ids}

    return known


def graph_aliases(graph: Any) -> AliasLog:
    """The alias records of a graph (stored with its document records)."""
    return AliasLog(graph.documents)

"""Suggested fixes from the stored graph, each a preview and the edits that apply it (the same operations a user
runs by hand). General mechanisms over the graph's own names and texts, no word lists grown per example:

- duplicate: names equal once accents, case and punctuation are folded ("Thomas C. Südhof" / "Thomas C. Sudhof");
  a leading abbreviated title ("Dr. Mignot") or a lone surname that ends exactly one person's full name (spaCy's
  NER) of the same document ("Mignot" after "Emmanuel Mignot"); an abbreviation the text defines in parentheses
  ("Chronic lymphocytic leukemia (CLL)") → merge (the accented spelling, the full name, the long form kept). A
  title written out is one spaCy reads before a person's name ("Professor Varga" beside "Professor Ines Varga").
  Uncertain ones no spelling joins (short_forms.py): "Larkspur" beside "Larkspur MQ", "Aisha Khan 2026-07- 15 Add"
  beside "Aisha Khan".
- heading: a name that glues a section heading of its own documents' passage titles, as written, to a name
  ("Marie Curie Career" in a document with a section "Career") → merge into (or rename to) the name without it.
- run-on: a name of 6+ words that reads as a list (a content word repeated and no function word, or parts
  separated by commas) and is not the title of a passage ("Alexander and the Terrible, Horrible, No Good, Very Bad
  Day" is a book) → delete it.
- dated: a predicate that carries a date ("won in 2013") → the predicate without it, the date kept as its own
  relation from the same passage; a year inside an identifier ("TVA 2025/114", "ISO 9001:2015") is no date.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..extraction.identity import defined_abbreviations
from ..models import Entity, Passage, Relation
from ..nlp import stop_words
from ..text import entity_id
from .folding import fold
from .short_forms import bracketed, run_on_cells, shortened
from .stated import place_and_organisation, recorded_as, stated_aliases

KINDS = ("duplicate", "heading", "run-on", "dated")
_TITLE_ABBR = re.compile(r"^([A-Z][a-z]{0,3}\.)\s+(?=\S)")  # "Dr. ", "Prof. ", "St. ": an abbreviated title
_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_PREP = r"(?:in|on|since|from|until|by|during|of|after|before|between|for)"
_YEAR = r"(?:1[0-9]{3}|20[0-9]{2})s?"
_DATE = re.compile(
    rf"(?i:\b{_PREP}\s+)?(?i:(?:early|late|mid|the)\s+)?(?:(?:\d{{1,2}}\s+)?(?:{_MONTHS})(?:\s+\d{{1,2}})?,?\s+)?"
    rf"\b{_YEAR}(?:\s*(?:-|–|to|and)\s*{_YEAR})?\b",
)
_ID_BEFORE = re.compile(r"(?:[/:#\-–.]|\b[A-Z][A-Z0-9/\-]*[A-Z0-9]\s+)$")  # "9001:", "WM/23/", "TVA " (a code)
_ID_AFTER = re.compile(r"[/:\-–.]?[^\W_]")  # "/114", "-07", ":2015", "a": the year goes on as an identifier
_PREP_START = re.compile(rf"(?i)^{_PREP}\s+")
_PREP_END = re.compile(r"(?i)(?:[\s,]+(?:by|in|of|from|to|with|as|at|for|on|after|between))+[\s,]*$")


@dataclass(frozen=True)
class Suggestion:
    """One fix: what kind, a one-line title, the lines of its preview, and the edits (op, args) that apply it."""

    kind: str
    title: str
    preview: tuple[str, ...]
    edits: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]
    targets: tuple[str, ...] = ()  # the entity and relation ids it changes (the Review page's filter)

    @property
    def key(self) -> str:
        return f"{self.kind}:{'|'.join(self.targets)}"


def _edit(op: str, **args: Any) -> tuple[str, tuple[tuple[str, Any], ...]]:
    return op, tuple(args.items())


def _weight(e: Entity) -> tuple:
    """Which of the spellings of one folded name to keep: the one with its accents written, then the better
    connected."""
    accents = sum(1 for c in unicodedata.normalize("NFKD", e.name) if unicodedata.combining(c))
    return (accents, len(e.relation_ids), len(e.passage_ids), e.name)


def _merge(kind: str, src: Entity, dst: Entity, why: str) -> Suggestion:
    preview = (why, f"{src.name!r}: {len(src.relation_ids)} relation(s) → into {dst.name!r} "
               f"({len(dst.relation_ids)}); {src.name!r} becomes an alias")  # fmt: skip
    edit = _edit("merge", source=src.id, target=dst.id)
    return Suggestion(kind, f"merge {src.name!r} into {dst.name!r}", preview, (edit,), (src.id, dst.id))


class GraphView:
    """What the suggestions read, once: entities, relations and passages, and each entity's documents."""

    def __init__(self, entities: Iterable[Entity], relations: Iterable[Relation], passages: Iterable[Passage]):
        self.entities = {e.id: e for e in entities}
        self.relations = {r.id: r for r in relations}
        self.passages = {p.id: p for p in passages}
        self.docs_of: dict[str, set[str]] = {
            e.id: {self.passages[p].doc_id for p in e.passage_ids if p in self.passages} for e in self.entities.values()
        }
        self.titles = {fold(re.sub(r" · p\. \d+$", "", p.title).split(" › ")[0]) for p in self.passages.values()}
        self.headings: dict[str, set[str]] = defaultdict(set)  # document → its section headings, as written
        for p in self.passages.values():  # a title is "topic › section › subsection · p. N": the sections count
            for h in re.sub(r" · p\. \d+$", "", p.title).split(" › ")[1:]:
                if h.strip():
                    self.headings[p.doc_id].add(" ".join(h.split()))


def duplicates(v: GraphView) -> list[Suggestion]:
    out, paired = [], set()

    def add(a: Entity, b: Entity, why: str) -> None:
        pair = frozenset((a.id, b.id))
        if a.id != b.id and pair not in paired:
            paired.add(pair)
            out.append(_merge("duplicate", a, b, why))

    by_fold: dict[str, list[Entity]] = defaultdict(list)
    for e in v.entities.values():
        by_fold[fold(e.name)].append(e)
    for key, group in by_fold.items():
        if key and len(group) > 1:
            keep = max(group, key=_weight)
            for e in group:
                add(e, keep, f"the same name once accents, case and punctuation are folded ({key!r})")
    titled = {e.id: bare for e in v.entities.values() if (bare := _TITLE_ABBR.sub("", e.name)) != e.name}
    read_titled = _read_titles({e.id: e.name for e in v.entities.values() if e.id not in titled})
    full_names: dict[tuple[str, str], list[Entity]] = defaultdict(list)  # (document, surname) → full names there
    for e in v.entities.values():
        words = read_titled.get(e.id, e.name).split()  # "Professor Ines Varga" is the full name "Ines Varga"
        if len(words) >= 2 and all(w[:1].isupper() for w in words) and e.id not in titled:
            for d in v.docs_of[e.id]:
                full_names[(d, fold(words[-1]))].append(e)
    persons = _people({x.id: read_titled.get(x.id, x.name) for xs in full_names.values() for x in xs})
    persons |= set(read_titled)  # read as a person's name after its title already
    lone = {(d, fold(e.name)) for e in v.entities.values() if len(e.name.split()) == 1 for d in v.docs_of[e.id]}
    unread = {x.id: x for k, xs in full_names.items() if k in lone for x in xs if x.id not in persons}
    persons |= _people_in_text(v, unread)  # a surname beside them: read them where the text writes them
    full_names = {k: [x for x in xs if x.id in persons] for k, xs in full_names.items()}
    # a person's title ("Dr. Mignot") is dropped: the bare name is kept; else the abbreviation belongs to the name
    # ("St. Ebba's Church": the church, not a title before "Ebba's Church") and the name as written is kept. A
    # title written out ("Professor Varga") is one spaCy reads before a person's name (_read_titles).
    bare_people = _people({entity_id(b): b for b in titled.values() if entity_id(b) in v.entities})
    bare_people |= {entity_id(b) for b in read_titled.values()}
    titled |= read_titled
    for e in v.entities.values():
        bare = titled.get(e.id, e.name)
        if bare != e.name and (other := v.entities.get(entity_id(bare))) is not None:
            if other.id in bare_people:
                add(e, other, f"{e.name!r} is {bare!r} with a title before it")
            else:
                lost = e.name[: len(e.name) - len(bare)].strip()
                add(other, e, f"{bare!r} is {e.name!r} without the {lost!r} of its name")
            continue
        if len(bare.split()) == 1 and bare[:1].isupper():
            found = {x.id: x for d in v.docs_of[e.id] for x in full_names.get((d, fold(bare)), []) if x.id != e.id}
            if len(found) == 1:
                (full,) = found.values()
                add(e, full, f"{e.name!r} is the surname of {full.name!r}, written in the same document")
            elif not found and bare == e.name:
                for full, why in shortened(v, e):
                    if not place_and_organisation(v, e, full):  # not the city "Scranton" into a company
                        add(e, full, why)
    for e, head, why in run_on_cells(v):
        add(e, head, why)
    for short, long, why in [*stated_aliases(v), *recorded_as(v)]:  # "Marysia is Marianna", 'as "Josef Nowack"'
        add(short, long, why)
    for p in v.passages.values():
        for long, short in defined_abbreviations(p.text) + bracketed(p.text, v.entities):
            a, b = v.entities.get(entity_id(short)), v.entities.get(entity_id(long))
            if a is not None and b is not None:
                add(a, b, f'the text defines it: "{long} ({short})"')
    return out


def _read_titles(names: dict[str, str]) -> dict[str, str]:
    """id → the name without its title, for the names spaCy reads as a title before a person's name: the one entity
    of the name is a PERSON covering all but its first one to three capitalised words ("Professor Varga" → "Varga",
    "Captain Ahab" → "Ahab"; not "Larkspur MQ", "Air Canada"); without spaCy's model, none."""
    from ..nlp import load_spacy

    ids = [i for i, n in names.items() if 2 <= len(n.split()) <= 6 and n[:1].isupper()]
    nlp = load_spacy()
    if nlp is None or not ids:
        return {}
    out = {}
    for i, d in zip(ids, nlp.pipe((names[i] for i in ids), batch_size=256), strict=True):  # type: ignore[attr-defined]
        ents = list(d.ents)
        if len(ents) == 1 and ents[0].label_ == "PERSON" and ents[0].end == len(d) and 1 <= ents[0].start <= 3 and \
                all(t.is_alpha and t.text[:1].isupper() for t in d[: ents[0].start]):  # fmt: skip
            out[i] = ents[0].text
    return out


def _people(names: dict[str, str]) -> set[str]:
    """The ids whose name spaCy's named-entity recogniser reads as one person ("Emmanuel Mignot", not "Air
    Canada" or "West Bengal"); without spaCy's model, none."""
    from ..nlp import load_spacy

    nlp = load_spacy()
    if nlp is None or not names:
        return set()
    ids = list(names)
    docs = nlp.pipe((names[i] for i in ids), batch_size=256)  # type: ignore[attr-defined]
    return {i for i, d in zip(ids, docs, strict=True) if [e.label_ for e in d.ents] == ["PERSON"]
            and d.ents[0].text == d.text}  # fmt: skip


def _people_in_text(v: GraphView, ents: dict[str, Entity]) -> set[str]:
    """The ids of names spaCy reads as one person where a passage writes them, for the full names it does not read
    alone ("Tomasz Wielgus" is none alone, a PERSON in "Born in Łódź, Tomasz Wielgus trained …", so "Wielgus" in
    his document was not suggested, walk24); the first five such passages of each; without spaCy's model, none."""
    from ..nlp import load_spacy

    nlp = load_spacy()
    texts = {e.id: [v.passages[p].text for p in e.passage_ids if p in v.passages] for e in ents.values()}
    jobs = [(e.id, e.name, t) for e in ents.values() for t in [t for t in texts[e.id] if e.name in t][:5]]
    if nlp is None or not jobs:
        return set()
    docs = nlp.pipe((t for *_, t in jobs), batch_size=64)  # type: ignore[attr-defined]
    return {i for (i, name, _), d in zip(jobs, docs, strict=True) if any(x.label_ == "PERSON" and x.text == name
                                                                        for x in d.ents)}  # fmt: skip


def glued_headings(v: GraphView) -> list[Suggestion]:
    out = []
    for e in v.entities.values():
        words = e.name.split()
        heads = set().union(*(v.headings.get(d, set()) for d in v.docs_of[e.id])) if v.docs_of[e.id] else set()
        for n in range(1, min(3, len(words) - 1) + 1):
            for glued, rest in ((words[-n:], words[:-n]), (words[:n], words[n:])):
                if " ".join(glued) in heads and " ".join(rest) not in heads and rest[0][:1].isupper():
                    name = " ".join(rest)
                    other = v.entities.get(entity_id(name))
                    why = f"{' '.join(glued)!r} is a heading of its document, glued to the name"
                    if other is not None and other.id != e.id:
                        out.append(_merge("heading", e, other, why))
                    else:
                        out.append(Suggestion("heading", f"rename {e.name!r} to {name!r}", (why,),
                                              (_edit("rename", entity=e.id, new_name=name),), (e.id,)))  # fmt: skip
                    break
            else:
                continue
            break
    return out


def run_ons(v: GraphView) -> list[Suggestion]:
    stop, out = stop_words(), []
    for e in v.entities.values():
        words = [w.casefold() for w in e.name.split()]
        if len(words) < 6 or fold(e.name) in v.titles:  # a passage's title names what it is about: not a list
            continue
        content = [w for w in words if w not in stop]
        repeated = len(set(content)) < len(content) and not stop & set(words)
        if repeated or e.name.count(",") >= 2:
            why = "a word repeats and no function word joins them" if repeated else "its parts are separated by commas"
            preview = (f"{len(words)} words and {why}: a list, not a name",
                       f"deletes it and its {len(e.relation_ids)} relation(s); its passages stay")  # fmt: skip
            out.append(Suggestion("run-on", f"delete {e.name!r}", preview, (_edit("delete_entity", entity=e.id),),
                                  (e.id,)))  # fmt: skip
    return out


def date_in(text: str) -> re.Match | None:
    """The first date written in a predicate, not a year that is part of an identifier or reference number: one the
    text goes on from ("TVA 2025/114", "2019-07"), continues ("ISO 9001:2015", "WM/2019") or puts after a code
    in capitals ("TVA 2025") — taking that "date" out rewrote a report number to "TVA /114" (walk24)."""
    for m in _DATE.finditer(text):
        year = m.start() + next(i for i, c in enumerate(m.group()) if c.isdigit())
        written = text[year - 1 : year] if year else ""
        if _ID_AFTER.match(text, m.end()) or (year == m.start() and _ID_BEFORE.search(text[:year])) \
                or written.isalnum():  # fmt: skip
            continue
        return m
    return None


def dated(v: GraphView) -> list[Suggestion]:
    out = []
    for r in v.relations.values():
        m = date_in(r.predicate)
        if m is None:
            continue
        bare = " ".join((r.predicate[: m.start()] + " " + r.predicate[m.end() :]).split())
        bare = re.sub(r"\s*,(?:\s*,)*\s*$|^\s*,\s*", "", re.sub(r"\s+,", ",", bare)).strip()  # no comma left dangling
        if not any(c.isalpha() for c in bare) or not r.passage_ids:
            continue
        date = " ".join(r.predicate[m.start() : m.end()].split())
        when = _PREP_START.sub("", date)
        prep = date[: len(date) - len(when)].strip().casefold() or "in"  # the date's own preposition, else "in"
        verb = _PREP_END.sub("", bare) or bare  # "published by" + "in 1996" → "published in", 1996
        edits = (
            _edit("edit_relation", relation=r.id, predicate=bare),
            _edit("add_relation", passage=r.passage_ids[0], subject=r.subject, predicate=f"{verb} {prep}", object=when),
        )
        preview = (f"{r.text!r} → {r.subject} {bare} {r.object}", f"the date kept: {r.subject} {verb} {prep} {when}")
        out.append(Suggestion("dated", f"take the date out of {r.predicate!r}", preview, edits, (r.id,)))
    return out


def suggest_fixes(graph: Any) -> list[Suggestion]:
    """Every suggestion for a graph (a scan of its three collections: a maintenance task, never on the query path)."""
    v = GraphView(graph.iter_entities(), graph.iter_relations(), graph.iter_passages())
    return duplicates(v) + glued_headings(v) + run_ons(v) + dated(v)

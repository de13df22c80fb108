"""Suggested-fix checks that read the passages with spaCy (suggest.duplicates):

- `stated_aliases`: the names a passage itself says are one person ("Marysia is Marianna", 'Władysław "Walter"
  Nowak', "Bridget Keane (née Walsh)" — extraction.persons) when both are still entities: ingest merges them within
  one document, so what is left is a pair across documents (the letter's "Walter", the notes' "Władysław Nowak").
- `place_and_organisation`: whether a one-word name is a place where its passages write it (spaCy's GPE/LOC/FAC)
  and the longer name starting with it an organisation (ORG), each by its most frequent label: "Scranton" is not
  short for "Scranton Lace Company".
- `recorded_as`: a name written in quotes after "as" on a person's relation, spelled like the person's ("Józef …
  processed at Ellis Island as "Josef Nowack"").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from difflib import SequenceMatcher
from typing import Any

from ..models import Entity
from ..text import entity_id
from .folding import fold

_CUE = re.compile(r"\b[A-Z][^\W\d_]+ (?:is|was) [A-Z]|\bn[ée]e?\b|\bné\b|[A-Z][^\W\d_]+ [\"“][A-Z]")  # what to parse
_PLACES = {"GPE", "LOC", "FAC"}
_MAX_PASSAGES = 4  # passages of a name whose labels are read
_CLOSE = 0.75  # difflib ratio of two spellings of one word ("jozef"/"josef" 0.8; "olivier"/"hamlet" 0.31)


def stated_aliases(v: Any) -> Iterator[tuple[Entity, Entity, str]]:
    """(other name, name, why) for each alias a passage states whose two names are both entities."""
    from ..extraction.clauses import ClauseReader
    from ..extraction.persons import stated_aliases as stated
    from ..nlp import load_spacy

    passages = [p for p in v.passages.values() if _CUE.search(p.text)]
    nlp = load_spacy()
    if nlp is None or not passages:
        return
    for doc in nlp.pipe((p.text for p in passages), batch_size=32):  # type: ignore[attr-defined]
        for long, short in stated(doc, ClauseReader(doc, "").arg):
            a, b = v.entities.get(entity_id(short)), v.entities.get(entity_id(long))
            if a is not None and b is not None and a.id != b.id:
                yield a, b, f"the text says they are one: {short!r} is {long!r}"


def _label(v: Any, e: Entity, nlp: Any) -> str:
    """The label spaCy gives the name most often in its passages ("" if never): one mention's reading may be wrong
    ("Scranton, 14 November 1921" read as a PERSON)."""
    texts = [p.text for i in e.passage_ids[:_MAX_PASSAGES] if (p := v.passages.get(i)) is not None and e.name in p.text]
    labels = Counter(
        ent.label_
        for d in nlp.pipe(texts)
        for ent in d.ents  # "the Bradford Wool Exchange" too
        if (ent[1:] if ent[0].dep_ == "det" else ent).text == e.name
    )
    return labels.most_common(1)[0][0] if labels else ""


def place_and_organisation(v: Any, short: Entity, long: Entity) -> bool:
    """Whether spaCy reads `short` as a place and `long` as an organisation in their passages, each by its most
    frequent label ("Scranton" / "Scranton Lace Company"; a first name misread as a place beside a PERSON's full
    name is still suggested)."""
    from ..nlp import load_spacy

    nlp = load_spacy()
    if nlp is None:
        return False
    return _label(v, short, nlp) in _PLACES and _label(v, long, nlp) == "ORG"


def recorded_as(v: Any) -> Iterator[tuple[Entity, Entity, str]]:
    """(name, person, why) for a name a passage writes in quotes after "as" on a relation of a person ("Józef …
    was processed at Ellis Island as "Josef Nowack"") when the two share a word in other spelling (folded, close
    by difflib's ratio): a record's spelling of the person, not a role ('… starred as "Hamlet"')."""
    for r in v.relations.values():
        a, b = v.entities.get(r.subject_id), v.entities.get(r.object_id)
        if a is None or b is None or not re.search(r"\bas$", r.predicate) or a.id == b.id:
            continue
        quoted = re.compile(rf"\bas\s+[\"“]{re.escape(b.name)}[\"”]")
        if not any(quoted.search(p.text) for i in r.passage_ids if (p := v.passages.get(i)) is not None):
            continue
        if any(SequenceMatcher(None, x, y).ratio() >= _CLOSE for x in fold(a.name).split()
               for y in fold(b.name).split()):  # fmt: skip
            yield b, a, f'the text records {a.name!r} as "{b.name}"'

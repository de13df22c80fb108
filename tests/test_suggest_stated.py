"""Review → Suggested fixes proposed merging the city "Scranton" into "Scranton Lace Company" and offered none of
the aliases the text states (walk22 finding 5). New texts: a town history and a football club report; a family
letter and a family register. A first name misread as a place is still short for a person's full name."""

from __future__ import annotations

import pytest

from test_suggest_short_forms import view

from vgrag.editing.suggest import GraphView, duplicates
from vgrag.models import Entity, Passage
from vgrag.nlp import load_spacy
from vgrag.text import entity_id

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="spaCy model en_core_web_sm not installed")


@pytest.mark.parametrize("text, place, org", [
    ("Her aunt worked for the Bradford Wool Exchange until 1931. The family left Bradford for Leeds in 1932.",
     "Bradford", "Bradford Wool Exchange"),
    ("Leyland Motors signed the apprentice in 1948. He later moved from Leyland to Glasgow with his family.",
     "Leyland", "Leyland Motors"),
])  # fmt: skip
def test_a_place_is_not_suggested_as_short_for_an_organisation(text, place, org):
    v = view({"d": ("History", text, [place, org])})
    assert not [s.title for s in duplicates(v) if place in s.title], [s.title for s in duplicates(v)]


def test_a_first_name_read_as_a_place_is_still_suggested_for_a_persons_full_name():
    v = view(
        {
            "l": ("Letter", "Stasio is Stanley.", ["Stanley"]),
            "n": ("Notes", "Stanley Nowak was killed in Normandy in July 1944.", ["Stanley Nowak"]),
        }
    )
    assert "merge 'Stanley' into 'Stanley Nowak'" in {s.title for s in duplicates(v)}


def test_a_short_name_of_an_organisation_is_still_suggested():
    v = view(
        {"d": ("Notes", "Halloran Foods bought the mill. Halloran closed it in 1990.", ["Halloran", "Halloran Foods"])}
    )
    assert "merge 'Halloran' into 'Halloran Foods'" in {s.title for s in duplicates(v)}


def test_the_aliases_a_text_states_are_suggested_across_documents():
    letter = (
        "Dear Ola, Bartek works at the bakery now. Notes on the names: Bartek is Bartłomiej and Gosia is Małgorzata."
    )
    register = 'Franciszek "Frank" Wróbel was a carpenter in Nowy Sącz. Bartłomiej Zieliński was a baker.'
    v = view(
        {
            "l": ("Letter", letter, ["Bartek", "Gosia", "Frank"]),
            "r": ("Register", register, ["Bartłomiej", "Małgorzata", "Franciszek Wróbel"]),
        }
    )
    titles = {s.title for s in duplicates(v)}
    assert {
        "merge 'Bartek' into 'Bartłomiej'",
        "merge 'Gosia' into 'Małgorzata'",
        "merge 'Frank' into 'Franciszek Wróbel'",
    } <= titles, titles


@pytest.mark.parametrize("text, person, record, kind", [
    ('Giovanni Russo left Naples in 1909 and was entered in the manifest as "John Russo".', "Giovanni Russo",
     "John Russo", "as"),
    ('Laurence Olivier starred as "Hamlet" in 1948.', "Laurence Olivier", "Hamlet", "as"),
])  # fmt: skip
def test_a_spelling_a_record_gives_a_person_is_suggested_but_not_a_role(text, person, record, kind):
    from vgrag.models import Relation

    p = Passage("psg-d", "Notes", text, "d")
    ents = [Entity(entity_id(n), n, ("rel-1",), ("psg-d",)) for n in (person, record)]
    rel = Relation("rel-1", person, f"entered {kind}", record, entity_id(person), entity_id(record), ("psg-d",))
    titles = {s.title for s in duplicates(GraphView(ents, [rel], [p]))}
    assert (f"merge {record!r} into {person!r}" in titles) is (record != "Hamlet"), titles

"""People a text names more than one way and says so, a role before a person in apposition, and "he"/"she" in texts
with no topic (vgrag/extraction/persons.py; walk22 findings 3 and 5). New texts in several domains, not the
fixtures': a family memoir, a parish register summary, a company announcement, a public-health notice, a letter,
a witness statement."""

from __future__ import annotations

import pytest

from vgrag.extraction.entities import Canonicalizer
from vgrag.extraction.extract import OfflineExtractor
from vgrag.nlp import load_spacy

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="spaCy model en_core_web_sm not installed")

MEMOIR = (
    "Notes on the names. Grandmother wrote everyone by a pet name. Bartek is Bartłomiej, Gosia is Małgorzata "
    "and Kuba is Jakub. Bartłomiej Zieliński ran the bakery on Market Street."
)
REGISTER = (
    "Baptisms, 1887. The godmother was Agnieszka Wróbel, née Sikora, of Nowy Sącz. Her husband was "
    'Franciszek "Frank" Wróbel, a carpenter. Frank Wróbel emigrated to Chicago in 1891.'
)


def _one(text: str) -> tuple[set[tuple[str, str, str]], set[tuple[str, str]]]:
    (r,) = OfflineExtractor().extract_many([text], [""])
    return {(t.subject, t.predicate, t.object) for t in r.triples}, set(r.defined)


def test_a_coordination_of_identities_pairs_each_name_with_its_own():
    triples, defined = _one(MEMOIR)
    assert {("Małgorzata", "Gosia"), ("Jakub", "Kuba"), ("Bartłomiej", "Bartek")} <= defined
    assert not [
        t for t in triples if {t[0], t[2]} in ({"Małgorzata", "Kuba"}, {"Gosia", "Jakub"}, {"Małgorzata", "Jakub"})
    ], triples  # never across


def test_a_stated_identity_is_one_entity_at_ingest():
    letter = "Dear Ola, the winter is hard here. Kuba works at the shipyard in Gdynia with his friend Tomek."
    results = Canonicalizer().apply(OfflineExtractor().extract_many([letter, MEMOIR], ["", ""]))  # one document
    triples = [(t.subject, t.predicate, t.object) for r in results for t in r.triples]
    assert [t for t in triples if t[0] == "Jakub" and "Gdynia" in t[2]], triples
    assert not {"Gosia", "Kuba", "Bartek"} & {x for t in triples for x in (t[0], t[2])}, triples


def test_a_birth_surname_and_a_quoted_nickname_are_other_names_of_one_person():
    _, defined = _one(REGISTER)
    assert ("Agnieszka Wróbel", "Agnieszka Sikora") in defined
    assert ("Franciszek Wróbel", "Frank Wróbel") in defined


@pytest.mark.parametrize("text, person, verb", [
    ("The Chief Executive, Priya Raman, has approved the merger with Halloran Foods.", "Priya Raman",
     "approved"),
    ("The Director of Public Health, Dr Samuel Okoye, has warned residents of Eastbury about the heat.",
     "Samuel Okoye", "warned"),
])  # fmt: skip
def test_a_role_before_a_person_in_apposition_gives_the_person_as_subject(text, person, verb):
    triples, _ = _one(text)
    assert [t for t in triples if t[1].startswith(verb) and person in t[0]], triples


@pytest.mark.parametrize("text, person, fact, wrong", [
    ("Dear Margaret, the children are well. Your uncle Peter writes from Leeds. He works at the shipyard in Hull and "
     "has married a girl from York, Alice Hart, so now you know who Alice is. He says he will stay in Hull.",
     "Peter", "shipyard", "Alice"),
    ("Statement of the witness. The driver, Mark Ellison, stopped at the junction. He then drove into Mill Lane, "
     "where a cyclist, Ruth Hale, was waiting. He says he did not see her.", "Mark Ellison", "Mill Lane", "Ruth"),
])  # fmt: skip
def test_he_in_a_text_with_no_topic_is_the_last_main_subject_not_a_subordinate_one(text, person, fact, wrong):
    triples, _ = _one(text)
    assert [t for t in triples if person in t[0] and fact in t[1] + " " + t[2]], triples
    assert not [t for t in triples if t[0].startswith(wrong) and ("stay" in t[1] or "see" in t[1])], triples


MINUTES = (
    "Harbour Rowing Society, annual general meeting, 12 March 2026. Anna Weiss was Chair until the meeting. Tom "
    "Becker is Chair since the election. Daniel Okoro is Treasurer and Priya Raman is Secretary. The accounts were "
    "approved by the members."
)


def test_a_role_said_of_two_people_is_not_a_name_that_merges_them():
    triples, defined = _one(MINUTES)
    assert not [d for d in defined if "Chair" in d or "Treasurer" in d or "Secretary" in d], defined
    assert not [t for t in triples if {t[0], t[2]} == {"Anna Weiss", "Tom Becker"}], triples  # never one person


def test_a_second_statement_after_and_keeps_its_own_subject():
    triples, _ = _one(MINUTES)
    assert ("Daniel Okoro", "is", "Treasurer") in triples and ("Priya Raman", "is", "Secretary") in triples
    assert not [t for t in triples if {t[0], t[2]} == {"Daniel Okoro", "Priya Raman"}], triples


def test_he_in_a_subordinate_clause_is_the_person_of_its_main_clause_not_the_topic():
    text = ("Cllr Martin Fairbairn declared a personal interest in item 4 because he lives on Mill Lane. The clerk "
            "read the report.")
    (r,) = OfflineExtractor().extract_many([text], ["Brackley Fen Town Council"])
    triples = {(t.subject, t.predicate, t.object) for t in r.triples}
    assert ("Cllr Martin Fairbairn", "lives on", "Mill Lane") in triples, triples
    assert not [t for t in triples if t[0] == "Brackley Fen Town Council" and t[2] == "Mill Lane"], triples

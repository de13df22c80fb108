"""What a text does not state as having happened is never stated as a fact (shapes.unasserted): a counterfactual
("would have reopened", "could have won") and the clauses hung on it, and the clause of a present impersonal
passive ("It is recommended that …"), keep their hedge in the predicate ("could have won", "(recommended)
audits") — the passage stays reachable by its names, and nobody reads the fact as done. Sentences in three domains,
each beside a fact of the same shape that is stated."""

from __future__ import annotations

import pytest

from offline_extract import extract_one, facts
from vgrag.nlp import load_spacy

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="spaCy model en_core_web_sm not installed")


def triples(text: str, title: str = "") -> set[tuple[str, str, str]]:
    return facts([extract_one(text, title)])


def _hedged(got: set[tuple[str, str, str]], name: str, hedge: str) -> list[tuple[str, str, str]]:
    """The facts naming `name`; fails if one of them is stated without `hedge` in its predicate."""
    about = [f for f in got if name in (f[0], f[2])]
    assert all(hedge in p for _, p, _ in about), about
    return about


def test_a_counterfactual_and_what_hangs_on_it_are_no_facts():
    got = triples("Marta Silva won the Porto Half Marathon in 2023. Without the injury, Marta Silva could have won "
                  "the Lisbon Marathon, beating Rosa Mendes by a minute.")  # fmt: skip
    assert ("Marta Silva", "won", "Porto Half Marathon") in got, got
    assert ("Marta Silva", "could have won", "Lisbon Marathon") in got, got
    _hedged(got, "Lisbon Marathon", "could have")
    _hedged(got, "Rosa Mendes", "(could have)")


def test_a_counterfactual_in_an_engineering_report():
    got = triples("The Kestrel Line reopened on 12 May after Network Rail replaced the pump. With a spare pump in "
                  "stock, the Kestrel Line would have reopened on 4 May, sparing Harbourside Station a week of "
                  "closures.")  # fmt: skip
    assert not [f for f in got if "4 May" in f[2] and "would have" not in f[1]], got
    _hedged(got, "Harbourside Station", "would have")


def test_a_recommendation_is_no_fact_but_a_past_report_is():
    got = triples("Dr. Amara Osei reviewed the Larch Ward protocol in March. It is recommended that Dr. Amara Osei "
                  "audits the Birch Ward pharmacy every quarter.")  # fmt: skip
    assert any(s == "Amara Osei" and p == "reviewed" and o == "Larch Ward protocol" for s, p, o in got), got
    assert _hedged(got, "Birch Ward pharmacy", "(recommended)"), got

"""What a text does not state as having happened is no fact (shapes.unasserted): a counterfactual ("would have
reopened", "could have won") with the clauses hung on it, and the clause of a present impersonal passive ("It is
recommended that …"). Sentences in three domains, each beside a fact of the same shape that is stated."""

from __future__ import annotations

import pytest

from offline_extract import extract_one, facts
from vgrag.nlp import load_spacy

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="spaCy model en_core_web_sm not installed")


def triples(text: str, title: str = "") -> set[tuple[str, str, str]]:
    return facts([extract_one(text, title)])


def test_a_counterfactual_and_what_hangs_on_it_are_no_facts():
    got = triples("Marta Silva won the Porto Half Marathon in 2023. Without the injury, Marta Silva could have won "
                  "the Lisbon Marathon, beating Rosa Mendes by a minute.")  # fmt: skip
    assert any(o == "Porto Half Marathon" for _, _, o in got), got
    assert not any("Lisbon Marathon" in (s, o) or "Rosa Mendes" in (s, o) for s, _, o in got), got


def test_a_counterfactual_in_an_engineering_report():
    got = triples("The Kestrel Line reopened on 12 May after Network Rail replaced the pump. With a spare pump in "
                  "stock, the Kestrel Line would have reopened on 4 May, sparing Harbourside Station a week of "
                  "closures.")  # fmt: skip
    assert ("Network Rail", "replaced", "pump") in got or any(s == "Kestrel Line" for s, _, _ in got), got
    assert not any("4 May" in o or "Harbourside Station" in (s, o) for s, _, o in got), got


def test_a_recommendation_is_no_fact_but_a_past_report_is():
    got = triples("Dr. Amara Osei reviewed the Larch Ward protocol in March. It is recommended that Dr. Amara Osei "
                  "audits the Birch Ward pharmacy every quarter.")  # fmt: skip
    assert any(s == "Amara Osei" and o == "Larch Ward protocol" for s, _, o in got), got
    assert not any("Birch Ward" in o for _, _, o in got), got

"""The pure name-identity functions (#31): folding, defined abbreviations, heading stripping (the graph editor's
suggested fixes are vgrag/editing/suggest.py's: tests/test_edit_suggest.py)."""

from __future__ import annotations

from vgrag.extraction.identity import (
    defined_abbreviations,
    fold,
    heading_forms,
    strip_heading,
)


def test_fold_drops_accents_case_punctuation_and_a_title():
    assert fold("Thomas C. Südhof") == fold("thomas c sudhof") == fold("Dr. Thomas C. Sudhof") == "thomas c sudhof"
    assert fold("Jindřich Polák") == fold("Jindrich Polak")
    assert fold("Dresden") == "dresden"  # a capitalised word is not a title


def test_defined_abbreviations_from_clinical_and_regulatory_prose():
    text = ("Chronic lymphocytic leukemia (CLL) is a cancer. In 2014 the Food and Drug Administration (FDA) approved "
            "ibrutinib. The multiple sleep latency test (MSLT) is used. The Supplier complies with the Medical Device "
            "Regulation (MDR). The patient (CLL) was seen.")  # fmt: skip
    assert defined_abbreviations(text) == [
        ("Chronic lymphocytic leukemia", "CLL"),
        ("Food and Drug Administration", "FDA"),
        ("multiple sleep latency test", "MSLT"),
        ("Medical Device Regulation", "MDR"),
    ]  # "The patient (CLL)": no initials spell it, no definition


def test_strip_heading_only_when_a_name_remains_and_the_heading_is_the_glue():
    forms = heading_forms(["Thomas Südhof", "Career", "2. History", "Stanford"])
    assert strip_heading("Thomas Südhof Career", forms) == "Thomas Südhof"
    assert strip_heading("Chlorambucil History", forms) == "Chlorambucil"
    assert strip_heading("History of Rome", forms) == "History of Rome"
    assert strip_heading("Leland Stanford", forms) == "Leland Stanford"

"""The pure name-identity functions (#31): folding, defined abbreviations, heading stripping, and the suggested fixes
over stored names that the graph editor shows (uncertain cases, never merged automatically)."""

from __future__ import annotations

from vgrag.extraction.identity import (
    Suggestion,
    defined_abbreviations,
    fold,
    heading_forms,
    strip_heading,
    suggest_merges,
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


def test_suggestions_cover_each_kind_and_merge_nothing_by_themselves():
    names = ["Dr. Emmanuel Mignot", "Emmanuel Mignot", "Mignot", "CLL", "Chronic Lymphocytic Leukemia",
             "Thomas Südhof Career", "Fantasy Science fantasy Mystery fiction Horror fiction", "Stanford University",
             "Jindřich Polák", "Jindrich Polak"]  # fmt: skip
    out = suggest_merges(names, headings=["Career"], predicates=["published in, in 2012", "became", "is 2003 film"])
    assert all(isinstance(s, Suggestion) for s in out)
    by_kind: dict[str, list[Suggestion]] = {}
    for s in out:
        by_kind.setdefault(s.kind, []).append(s)
    same = {frozenset(s.names): s.target for s in by_kind["same_folded"]}
    assert same == {frozenset({"Dr. Emmanuel Mignot", "Emmanuel Mignot"}): "Emmanuel Mignot",
                    frozenset({"Jindřich Polák", "Jindrich Polak"}): "Jindřich Polák"}  # fmt: skip
    assert [(s.names, s.target) for s in by_kind["surname"]] == [(("Mignot", "Emmanuel Mignot"), "Emmanuel Mignot")]
    assert [s.target for s in by_kind["abbreviation"]] == ["Chronic Lymphocytic Leukemia"]
    assert [(s.names[0], s.target) for s in by_kind["heading_glued"]] == [("Thomas Südhof Career", "Thomas Südhof")]
    assert [s.names[0] for s in by_kind["run_on"]] == ["Fantasy Science fantasy Mystery fiction Horror fiction"]
    assert {(s.names[0], s.target) for s in by_kind["dated_predicate"]} == {("published in, in 2012", "published in"),
                                                                             ("is 2003 film", "is film")}  # fmt: skip
    assert suggest_merges(names, headings=["Career"]) == suggest_merges(names, headings=["Career"])  # deterministic


def test_no_suggestion_for_a_clean_list():
    assert suggest_merges(["Emmanuel Mignot", "Stanford University", "Narcolepsy", "ResMed"], ["Narcolepsy"]) == []

"""A definite noun alone ("the vulnerability", "the drug", "the company") is the name the same text has tied to that
noun: the name it describes ("CVE-2025-31844, a path-traversal vulnerability"), the name set beside
it ("a path-traversal vulnerability, CVE-2025-31844," or in brackets), a copula's subject ("… is a bakery company")
or the name it heads ("the Harrowgate astrolabe") — pronouns.definite and pronouns.tie, in a text with no topic (a
changelog's "Security" section, a bulletin, a news story). With no such tie, when the noun's nearest mention is not
tied to a name, or when its own words pick out another thing, it stays unresolved. A text with a topic reads a
definite subject as its topic, as before (test_extract_anaphora: resolving there was measured and rejected,
docs/extraction.md)."""

from __future__ import annotations

import pytest

from offline_extract import extract_one, facts
from vgrag.nlp import load_spacy

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="spaCy model en_core_web_sm not installed")


@pytest.mark.parametrize(
    "first",
    [
        "A path-traversal vulnerability, CVE-2025-31844, was found in the static file handler of Quillpress.",
        "The maintainers fixed CVE-2025-31844, a path-traversal vulnerability in the static file handler, in version "
        "5.2.2.",
        "We have fixed a path-traversal vulnerability (CVE-2025-31844) in the static file handler.",
    ],
)
def test_the_vulnerability_is_the_identifier_the_advisory_gave_it(first):
    # a security advisory's section has no topic; the identifier is one word, which the old rule (a name of two
    # words or more, headed by the same noun) never took
    got = facts([extract_one(first + " The vulnerability was reported by Daniel Whitfield of Orchard Security.")])
    assert ("CVE-2025-31844", "reported by", "Daniel Whitfield") in got, got


def test_the_drug_is_the_one_word_name_the_bulletin_gave_it():
    # a formulary bulletin's section ("New medicines") has no topic; "Dravelimab" is one word
    text = (
        "From 1 March the formulary adds Dravelimab (DRV-118), a biologic drug that blocks interleukin-23, for "
        "moderate plaque psoriasis. The drug was approved by the European Medicines Agency in 2024 and is given by "
        "injection every eight weeks."
    )
    got = facts([extract_one(text)])
    assert ("Dravelimab", "approved by", "European Medicines Agency") in got, got


def test_without_the_text_s_own_word_the_drug_stays_unresolved():
    # "antibody" is not "drug" to a model without word vectors: no tie, no guess
    text = (
        "Most patients start on Dravelimab (DRV-118), a monoclonal antibody against interleukin-23. The drug was "
        "approved by the European Medicines Agency in 2024."
    )
    got = facts([extract_one(text)])
    assert not [f for f in got if f[2] == "European Medicines Agency"], got


def test_a_modifier_picks_out_another_garage():
    text = (
        "Harlow Estates bought Kelso Road depot, a bus garage opened in 1932. The 1968 garage was demolished by "
        "Brannock Construction in 2021."
    )
    got = facts([extract_one(text)])
    assert not [f for f in got if f[0] == "Kelso Road depot" and "Brannock" in f[2]], got


def test_a_nearer_unnamed_mention_stops_the_search():
    text = (
        "The maintainers fixed CVE-2025-31844, a path-traversal vulnerability in the static file handler, in version "
        "5.2.2. A second vulnerability, in the upload endpoint, is still open. The vulnerability was found by Daniel "
        "Whitfield."
    )
    got = facts([extract_one(text)])
    assert not [f for f in got if f[0] == "CVE-2025-31844" and "Daniel Whitfield" in f[2]], got


def test_a_restrictive_clause_picks_out_another_company():
    text = (
        "Ridgeway Foods, a bakery company based in Leeds, was sold in 2019. The company that bought it was founded "
        "by Mark Hollis."
    )
    got = facts([extract_one(text)])
    assert ("Ridgeway Foods", "founded by", "Mark Hollis") not in got, got

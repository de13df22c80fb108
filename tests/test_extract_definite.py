"""A definite noun alone ("the vulnerability", "the drug", "the company", "the lighthouse") is the name the same text
has tied to that noun: the name it describes ("CVE-2025-31844, a path-traversal vulnerability"), the name set beside
it ("a path-traversal vulnerability, CVE-2025-31844," or in brackets), a copula's subject ("… is a bakery company")
or the name it heads ("the Ashcombe Festival") — pronouns.definite and pronouns.tie. With no such tie, or when the
noun's nearest mention is not tied to a name, it stays as it was read before (unresolved, or the text's topic)."""

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


def test_the_drug_is_the_one_the_section_named_not_the_disease():
    text = (
        "Most patients start on Dravelimab (DRV-118), a biologic drug that blocks interleukin-23. The drug was "
        "approved by the European Medicines Agency in 2024 and is given by injection every eight weeks."
    )
    got = facts([extract_one(text, "Plaque psoriasis")])
    assert ("Dravelimab", "approved by", "European Medicines Agency") in got, got
    assert ("Plaque psoriasis", "approved by", "European Medicines Agency") not in got, got  # was the topic's


def test_the_company_in_a_biography_is_the_company_she_joined():
    text = (
        "Marion Talbot was born in Sheffield in 1948. In 1979 she joined Harrow & Vane, a cutlery company founded "
        "in 1861. The company was sold to Viners in 1983, and Talbot moved to London."
    )
    got = facts([extract_one(text, "Marion Talbot")])
    assert ("Harrow & Vane", "sold to", "Viners") in got, got
    assert ("Marion Talbot", "sold to", "Viners") not in got, got  # the article's subject was not sold


def test_the_lighthouse_is_the_one_named_in_a_town_article():
    text = (
        "Hadley Cove is a fishing village on the north coast of Anglesey. Its harbour is guarded by Penrhos Light, a "
        "lighthouse built in 1859. The lighthouse was automated by Trinity House in 1988."
    )
    got = facts([extract_one(text, "Hadley Cove")])
    assert ("Penrhos Light", "automated by", "Trinity House") in got, got
    assert ("Hadley Cove", "automated by", "Trinity House") not in got, got


def test_the_festival_is_the_name_it_heads():
    text = (
        "Ashcombe is a market town in Dorset. The Ashcombe Festival is held each July in the town square. The "
        "festival was founded by Rosa Pennington in 1972."
    )
    got = facts([extract_one(text, "Ashcombe")])
    assert ("Ashcombe Festival", "founded by", "Rosa Pennington") in got, got
    assert ("Ashcombe", "founded by", "Rosa Pennington") not in got, got


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

"""The verdict's session-21 mechanisms (docs/offline-answers.md, "Session 21"), on text of the two uploads the new-user
walk-through walk21 wrote (tests/fixtures/orchid2_trial, larkspur_mq), where each was wrong before:

- a word of the question that governs two of its names is asked of each ("Which ethics committee approved ORCHID-2
  in Germany?": the approval must be stated with Germany, not only in a sentence of a passage titled ORCHID-2 while
  Germany is listed elsewhere); it was "found" from three unrelated sentences;
- the "partly found" message never names a word both as found and as what nothing links to ("nothing links “lyra”
  and “outage” to “alert”, “detected” or “lyra”").
Each test fails with its mechanism disabled; each has a control the mechanism must leave alone."""

from __future__ import annotations

import pytest
from answer_step import offline_answer

from vgrag.nlp import load_spacy
from vgrag.query.question import read_question

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="the question's parse needs spaCy's English model")

PROTOCOL = ("ORCHID-2 Protocol Summary", "The trial plans to enrol 240 participants at 28 sites in six countries: "
            "Belgium, Denmark, Germany, Poland, Spain and the United Kingdom. Enrolment started on 14 January 2026 "
            "and is expected to close in March 2027.")  # fmt: skip
AMENDMENT = ("ORCHID-2: Interim safety review and Protocol Amendment 2", "Professor Varga and the Steering Committee "
             "approved the change on 22 September 2026. Investigators must submit Amendment 2 to their ethics "
             "committee within 14 days. Until it is approved at a site, that site must not randomise any "
             "participant with a baseline ALT above twice the ULN.")  # fmt: skip


def test_a_word_governing_two_names_is_said_of_each():
    q = "Which ethics committee approved ORCHID-2 in Germany?"
    v = offline_answer(q, [AMENDMENT, PROTOCOL], ("ORCHID-2", "Germany")).verdict
    assert v.kind == "partly" and v.said == "Partly found: nothing links “Germany” to “approved”.", v
    # control: the approval stated in the sentence naming Germany is found
    germany = ("ORCHID-2: Germany", "In Germany the Ethics Committee of the University of Freiburg approved the "
               "trial on 3 February 2026.")  # fmt: skip
    v = offline_answer(q, [AMENDMENT, germany, PROTOCOL], ("ORCHID-2", "Germany")).verdict
    assert v.kind == "found", v
    # the pairs: "approved" governs its object and, through "in", Germany; a word governing one name adds none, nor
    # one governing a name through another word ("Bellhaven" is the wine's, not the winning's)
    assert read_question(q, ("ORCHID-2", "Germany")).governed == (("ORCHID-2", 2), ("Germany", 2))
    assert read_question("Which company monitors the sites for Halvorsen Therapeutics?",
                         ("Halvorsen Therapeutics",)).governed == ()  # fmt: skip
    q = "Which Bellhaven wine won the trophy at the Marlborough Wine Show?"
    assert read_question(q, ("Bellhaven", "Marlborough Wine Show")).governed == ()

def test_a_word_is_never_both_found_and_missing():
    summary = ("Summary", "On 2 July 2026 the lyra cluster in ap-southeast-1 stopped delivering messages to the "
               "route planner for 47 minutes. The outage was caused by a deadlock in the partition rebalancer of "
               "Larkspur 3.3.0, tracked upstream as issue #4412.")  # fmt: skip
    went_well = ("What went well", "The LQ-URP alert fired four minutes after the restart. Replication meant that no "
                 "data was lost.")  # fmt: skip
    v = offline_answer("Which alert detected the lyra outage?", [summary, went_well], ()).verdict
    assert v.kind == "partly" and "lyra" in v.missing_words, v
    found, _, missing = v.said.partition(" to ")
    for w in v.missing_words:
        assert f"“{w}”" in missing and f"“{w}”" not in found, v.said


def test_a_name_cut_at_a_point_is_the_name_before_the_figure():
    security = ("Larkspur MQ Changelog", "Fixed CVE-2026-1187, a log-injection flaw in the admin API, in Larkspur "
                "3.2.1. The flaw was reported by Jonas Berger of Helix Security Labs (HSL) on 2026-03-20.")  # fmt: skip
    # retrieval's spans cut "Larkspur 3.2.1" at its first point: "Larkspur 3" is no name of the question
    q = "Who reported the vulnerability fixed in Larkspur 3.2.1?"
    v = offline_answer(q, [security], ("Larkspur", "Larkspur 3", "3.2.1")).verdict
    assert "Larkspur 3”" not in v.said and "“3.2.1”" in v.said, v
    # "TLS 1" of "TLS 1.3" is TLS: the message names what the documents never do, not half a version
    q = "Which Larkspur version added TLS 1.3 support?"
    v = offline_answer(q, [security], ("Larkspur", "TLS 1", "1.3")).verdict
    assert v.kind == "missing" and "“TLS”" in v.said and "TLS 1”" not in v.said, v

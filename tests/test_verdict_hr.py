"""The verdict held out on a small company's people documents (tests/fixtures/hr_handbook: a staff-handbook extract
and organisation notes, with 16 questions they answer and 10 they do not, written before the app was run on them;
docs/offline-answers.md, "Session 18"). Asserted as measured: no answerable question is said to be "not in these
documents", the evidence shows every answer, and no unanswerable question is said "found" (one was before session
19: tests/test_verdict_parse.py)."""

from __future__ import annotations

import pytest

from upload_verdicts import ask_upload

# none since session 19: "work" is asked of Daniel Osei, its subject, and is said only of Fernleaf's founders
# ("… who met while working at the Met Office"; tests/test_verdict_parse.py)
FOUND_WRONGLY: set[str] = set()


@pytest.fixture(scope="module")
def asked(db, minilm):
    return ask_upload(db, minilm, "hr_handbook")


def test_unanswerable_questions_are_never_found(asked):
    found = {q for q, a in asked.items() if not a.answer and a.verdict == "found"}
    assert found <= FOUND_WRONGLY, found - FOUND_WRONGLY
    # "… led by Daniel Osei" and "opened in 2022" are of the Leeds office, in the sentence after the Bristol one
    for q in ("Who leads the Bristol office?", "When did the Bristol office open?"):
        assert asked[q].verdict != "found", asked[q]


def test_answerable_questions_are_never_said_to_be_missing(asked):
    answerable = [a for a in asked.values() if a.answer]
    assert [a.question for a in answerable if a.verdict == "missing"] == []
    assert sum(a.verdict == "found" for a in answerable) >= 8  # as measured: 8 of 16, the rest "partly found"
    assert [a.question for a in answerable if not a.in_evidence] == []

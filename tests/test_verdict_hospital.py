"""The verdict held out on a hospital ward's leaflets (tests/fixtures/hospital_ward: a visiting page (.html), a
discharge guide (.md) and the ward team (.docx), with 19 questions they answer and 11 they do not, written and
committed before the app was run on them; docs/offline-answers.md, "Session 19"). Asserted as measured after session
19's changes: no answerable question is said to be "not in these documents", 15 of 19 found, the evidence shows every
answer but one, and the unanswerable questions said "found" are only those named with why."""

from __future__ import annotations

import pytest

from upload_verdicts import ask_upload

FOUND_WRONGLY: set[str] = set()


@pytest.fixture(scope="module")
def asked(db, minilm):
    return ask_upload(db, minilm, "hospital_ward")


def test_unanswerable_questions_are_never_found_but_those_named(asked):
    found = {q for q, a in asked.items() if not a.answer and a.verdict == "found"}
    assert found <= FOUND_WRONGLY, found - FOUND_WRONGLY


def test_answerable_questions_are_never_said_to_be_missing(asked):
    answerable = [a for a in asked.values() if a.answer]
    assert [a.question for a in answerable if a.verdict == "missing"] == []
    assert sum(a.verdict == "found" for a in answerable) >= 15  # as measured; the rest "partly found"
    missed = {a.question for a in answerable if not a.in_evidence}
    # "Joanne Pritchard trained at the University of Leeds …" is not among the evidence sentences (nor was it before)
    assert missed <= {"Where did the ward manager of Larch Ward train?"}, missed

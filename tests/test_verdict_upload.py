"""The verdict on a realistic upload in a domain no other corpus touches (tests/fixtures/observatory: three Markdown
files written for this test, 13 questions they answer and 8 plausible ones they do not), ingested as a user's files
are (offline extraction, the real MiniLM embedder) and asked through the app's query pipeline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vgrag.ingest import ingest_documents
from vgrag.extraction.extract import OfflineExtractor
from vgrag.query.pipeline import run_query

UPLOAD = Path(__file__).resolve().parent / "fixtures" / "observatory"
QUESTIONS = json.loads((UPLOAD / "questions.json").read_text())


@pytest.fixture(scope="module")
def observatory(db, minilm):
    g = db.open_graph("observatory_verdict", minilm.model_id, minilm.dim)
    files = [(p.name, p.read_bytes()) for p in sorted(UPLOAD.glob("*.md")) if p.name != "README.md"]
    report = ingest_documents(g, minilm, OfflineExtractor(), files)
    assert report.counts["passages"] >= 3 and report.counts["relations"] >= 20
    yield g
    db.drop_graph("observatory_verdict")


def test_no_unanswerable_question_is_found(observatory, minilm):
    """ "When was Tomasz Nowak born?" — the files date two other people ("He was born in 1971 …" follows Rahul
    Desai's sentence): what they do not say of him is never "found"."""
    for q in QUESTIONS["unanswerable"]:
        v = run_query(q, observatory, minilm).answer.verdict
        assert v.kind != "found", (q, v)


def test_no_answerable_question_is_said_to_be_missing(observatory, minilm):
    found = 0
    for q, _ in QUESTIONS["answerable"]:
        v = run_query(q, observatory, minilm).answer.verdict
        assert v.kind != "missing", (q, v)
        found += v.kind == "found"
    assert found >= len(QUESTIONS["answerable"]) // 2  # the link does not turn every answer into "partly found"


def test_a_count_asked_of_a_verb_written_nowhere_is_not_in_these_documents(observatory, minilm):
    """Session 22: the files name the University of Durham but never write "operate" in any form, so no number of
    telescopes it operates can be stated (it was "partly found")."""
    v = run_query("How many telescopes does the University of Durham operate?", observatory, minilm).answer.verdict
    assert v.kind == "missing" and "“operate”" in v.said, v


def test_a_who_question_whose_verb_is_written_nowhere_is_only_partly_found(observatory, minilm):
    """Session 24: no file writes "succeed" in any form, but an act is said in many ways ("took over from"): a verb
    written nowhere proves nothing, so this stays "partly found", never "not in" (a "who" question's role written
    nowhere is: tests/test_verdict_who.py)."""
    q = "Who succeeded Edith Marlowe as president of the Ambleford Astronomical Society?"
    v = run_query(q, observatory, minilm).answer.verdict
    assert v.kind == "partly" and "“succeeded”" in v.said, v

"""Review → "Suggested fixes only": a sentence whose triples have no suggested fix was labelled "no triple from this
sentence" though it had three (walk24 finding 9). AppTest and the library's review read, real Milvus Lite; a clock
restoration written for this test."""

from __future__ import annotations

import json

import pytest
from apptest import app_workspace, demo_copy, page

from vgrag.text import relation_id

CLOCK = [
    ("Harwick Clock", "The Harwick clock was built by Ansel Brede in 1602. Ines Morland restored the clock and "
     "repaired its dial. The tower was repainted.",
     [["Harwick clock", "built in 1602 by", "Ansel Brede"], ["Ines Morland", "restored", "Harwick clock"],
      ["Ines Morland", "repaired", "dial"]]),
]  # fmt: skip
DATED = relation_id("Harwick clock", "built in 1602 by", "Ansel Brede")


@pytest.fixture
def app_db(tmp_path, app_demo_template) -> str:
    return demo_copy(app_demo_template, tmp_path)


def _import(ws) -> None:
    docs = [{"title": t, "text": x, "extracted_triples": ts, "extracted_entities": []} for t, x, ts in CLOCK]
    ws.import_triples(("clock.json", json.dumps({"docs": docs}).encode()), graph="clock")


def test_a_sentence_without_a_suggested_fix_says_so_with_its_triples_count(app_env):
    at = page("pages/review.py")
    _import(app_workspace(at))
    at.session_state["graph"] = at.session_state["select_graph"] = "clock"
    at.run()
    at.toggle(key="review_fixes").set_value(True).run()
    assert not at.exception, at.exception
    said = [c.value.replace("\\", "") for c in at.caption]
    assert "no suggested fix for this sentence's 2 triples" in said, said  # "Ines Morland restored … dial."
    assert said.count("no triple from this sentence") == 1, said  # "The tower was repainted." has none
    assert "Harwick clock | built in 1602 by | Ansel Brede" in [t.value for t in at.text]
    at.toggle(key="review_fixes").set_value(False).run()  # normal mode: the triples themselves
    assert "Ines Morland | repaired | dial" in [t.value for t in at.text]


def test_the_filter_keeps_each_triple_on_its_sentence_and_counts_the_rest(app_env):
    at = page()
    ws = app_workspace(at)
    _import(ws)
    (doc,) = ws.documents("clock")
    (view,) = ws.review(doc.id, graph="clock", only={DATED})
    assert [(len(s.relations), s.hidden) for s in view.sentences] == [(1, 0), (0, 2), (0, 0)]
    (full,) = ws.review(doc.id, graph="clock")
    assert [(len(s.relations), s.hidden) for s in full.sentences] == [(1, 0), (2, 0), (0, 0)]

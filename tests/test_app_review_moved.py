"""Review → edit a triple of the entity the page shows (AppTest, real Milvus Lite): what the page says the edited
triple names now. Swapping a triple's ends so that the page's entity became its subject said "The triple you edited
now names <its new object>, not <the entity>" although the triple still named it (walk24 finding 8)."""

from __future__ import annotations

import json

import pytest
from apptest import app_workspace, demo_copy, page

from vgrag.text import relation_id

CLOCK = [  # a clock restoration, written for this test
    ("Harwick Clock", "The restorer of the Harwick astronomical clock was Ines Morland. Ines Morland trained in Basel. "
     "The clockmaker Ansel Brede built the clock in 1602.",
     [["Restorer", "ines M", "Ines Morland"], ["Ines Morland", "trained in", "Basel"],
      ["Ansel Brede", "built", "Harwick astronomical clock"]]),
]  # fmt: skip
RESTORER = relation_id("Restorer", "ines M", "Ines Morland")


@pytest.fixture
def app_db(tmp_path, app_demo_template) -> str:
    return demo_copy(app_demo_template, tmp_path)


def edited(app_env, **new: str):
    """The Review page on "Ines Morland", its triple `Restorer | ines M | Ines Morland` edited to `new`."""
    at = page("pages/review.py")
    ws = app_workspace(at)
    docs = [{"title": t, "text": x, "extracted_triples": ts, "extracted_entities": []} for t, x, ts in CLOCK]
    ws.import_triples(("clock.json", json.dumps({"docs": docs}).encode()), graph="clock")
    at.session_state["graph"] = at.session_state["select_graph"] = "clock"
    at.run()
    at.text_input(key="review_entity").input("Ines Morland").run()
    assert not at.exception, at.exception
    pid = next(p.id for p in ws.graph("clock").iter_passages())
    for part, value in new.items():
        at.text_input(key=f"{part[0]}_{pid}_{RESTORER}").input(value)
    at.button(key=f"save_{pid}_{RESTORER}").click().run()
    assert not at.exception, at.exception
    return at, [i.value.replace("\\", "") for i in at.info]


def test_ends_swapped_the_triple_still_names_the_entity_and_the_page_says_nothing_moved(app_env):
    at, said = edited(app_env, subject="Ines Morland", predicate="restored", object="Harwick astronomical clock")
    assert not any("now names" in i for i in said), said
    assert "Ines Morland | restored | Harwick astronomical clock" in [t.value for t in at.text]
    assert at.text_input(key="review_entity").value == "Ines Morland"


def test_the_other_end_edited_the_page_says_nothing_moved(app_env):
    _, said = edited(app_env, subject="Harwick town council")
    assert not any("now names" in i for i in said), said


def test_the_entitys_end_edited_the_page_names_what_took_its_place(app_env):
    at, said = edited(app_env, object="Ansel Brede")
    assert any("now names “Ansel Brede”, not “Ines Morland”" in i for i in said), said
    at.button(key="review_show_moved").click().run()
    assert at.text_input(key="review_entity").value == "Ansel Brede"


def test_both_ends_edited_the_page_names_both(app_env):
    at, said = edited(app_env, subject="Harwick town council", predicate="hired", object="Ansel Brede")
    assert any("now names “Ansel Brede” and “Harwick town council”, not “Ines Morland”" in i for i in said), said
    at.button(key="review_show_moved_1").click().run()
    assert at.text_input(key="review_entity").value == "Harwick town council"

"""Review → edit a triple of the entity the page shows (AppTest, real Milvus Lite): the page stays with the edited
triple. Editing the subject of the searched triple said "No entity is named “San Rafael”" and showed the document
from its top (walk21 finding 9)."""

from __future__ import annotations

import pytest
from apptest import app_workspace, demo_copy, page

from vgrag.text import relation_id

OPENED = relation_id("Osaka region", "opened in", "2020")  # the only triple naming "Osaka region"
OLDEST = relation_id("Rotterdam region", "oldest region of", "Northwind Cloud")  # one of "Rotterdam region"'s two


@pytest.fixture
def app_db(tmp_path, app_demo_template) -> str:
    """A fresh copy of the demo per test: each edits it."""
    return demo_copy(app_demo_template, tmp_path)


def review(entity: str):
    at = page("pages/review.py")
    at.text_input(key="review_entity").input(entity).run()
    assert not at.exception, at.exception
    return at


def _pid(at, title: str) -> str:
    return next(p.id for p in app_workspace(at).graph("demo").iter_passages() if p.title == title)


def _texts(at) -> list[str]:
    return [t.value for t in at.text]


def edited_subject(entity: str, relation: str, subject: str):
    """The Review page on `entity`, the subject of one of its triples (in the passage titled `entity`) changed."""
    at = review(entity)
    key = f"{_pid(at, entity)}_{relation}"
    at.text_input(key=f"s_{key}").input(subject)
    at.button(key=f"save_{key}").click().run()
    assert not at.exception
    return at


def test_an_entitys_last_triple_edited_to_a_new_subject_the_page_follows_it(app_env):
    at = edited_subject("Osaka region", OPENED, "Osaka data centre region")
    assert at.text_input(key="review_entity").value == "Osaka data centre region"
    assert not any("No entity is named" in c.value for c in at.caption), [c.value for c in at.caption]
    assert "Osaka data centre region | opened in | 2020" in _texts(at)  # the edited triple, where it was
    assert at.query_params["entity"] == "Osaka data centre region"  # a reload stays there too
    said = " ".join(t.value for t in at.toast).replace("\\", "")  # shown escaped (document text)
    assert "“Osaka region” had no other triple: showing “Osaka data centre region”" in said, said


def test_an_entity_with_other_triples_stays_and_offers_the_edited_triples_new_name(app_env):
    at = edited_subject("Rotterdam region", OLDEST, "Rotterdam zone")
    assert at.text_input(key="review_entity").value == "Rotterdam region"  # its other triple is still here
    assert "Rotterdam region | operated by | Maas Colocation" in _texts(at)
    said = [i.value.replace("\\", "") for i in at.info]
    assert any("now names “Rotterdam zone”, not “Rotterdam region”" in i for i in said), said
    at.button(key="review_show_moved").click().run()
    assert not at.exception
    assert at.text_input(key="review_entity").value == "Rotterdam zone"
    assert "Rotterdam zone | oldest region of | Northwind Cloud" in _texts(at)
    at.text_input(key="review_entity").input("Rotterdam region").run()  # the offer was once, not for good
    assert not at.exception and not at.info


def test_deleting_an_entitys_last_triple_says_the_entity_went_with_it(app_env):
    at = review("Osaka region")
    at.button(key=f"del_{_pid(at, 'Osaka region')}_{OPENED}").click().run()
    assert not at.exception
    said = " ".join(t.value for t in at.toast).replace("\\", "")  # shown escaped (document text)
    assert "“Osaka region” had no other triple, so it is gone too" in said, said

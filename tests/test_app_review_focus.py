"""Review filtered by an entity lists that entity's triples first, each with its sentence, and the rest of its
passages' triples apart under their own folded label (AppTest, real Milvus Lite). Typing "Thomas Rudd" listed all
nine triples of the passage that mentions him, "… | shows | tidal marshes" first: a tester edited the wrong row
(walk23 finding 9)."""

from __future__ import annotations

import json

import pytest
from apptest import app_workspace, demo_copy, page

from vgrag.text import relation_id

TEXT = (
    "The painting shows the tidal marshes east of the fishing village of Dunmere at low water, with a single figure "
    "gathering samphire in the middle distance. Eleanor Vance painted it during her second summer at Dunmere, where "
    "she rented a cottage from the harbourmaster, Thomas Rudd. Mr Rudd's logbook records the painter at work on the "
    "marsh in August 1936."
)
TRIPLES = [
    ["The Salt Marsh at Dunmere", "shows", "tidal marshes"],
    ["The Salt Marsh at Dunmere", "shows of", "fishing village"],
    ["The Salt Marsh at Dunmere", "shows at", "low water"],
    ["Eleanor Vance", "painted", "The Salt Marsh at Dunmere"],
    ["Eleanor Vance", "rented a cottage from", "Thomas Rudd"],
    ["Thomas Rudd", "was harbourmaster of", "Dunmere"],
    ["Mr Rudd", "logbook records", "painter"],  # merged into Thomas Rudd below: his triple too
    ["painter", "at work on", "marsh"],
]
ROWS = [{"title": "The Salt Marsh at Dunmere › Description", "passage": TEXT, "triples": TRIPLES}]
HIS = {"Eleanor Vance | rented a cottage from | Thomas Rudd", "Thomas Rudd | was harbourmaster of | Dunmere",
       "Thomas Rudd | logbook records | painter"}  # fmt: skip


@pytest.fixture
def app_db(tmp_path, app_demo_template) -> str:
    """A fresh copy of the demo per test: the test imports into it and merges."""
    return demo_copy(app_demo_template, tmp_path)


def test_an_entitys_own_triples_come_first_and_the_rest_of_its_passage_apart(app_env):
    ws = app_workspace(page("pages/review.py"))
    ws.import_triples(("catalogue.jsonl", json.dumps(ROWS[0]).encode()), "demo")
    ws.merge_entities("Mr Rudd", "Thomas Rudd", graph="demo")  # an alias: its triple names him
    at = page("pages/review.py")
    at.text_input(key="review_entity").input("Thomas Rudd").run()
    assert not at.exception, at.exception
    triples = [t.value for t in at.text if t.value.count(" | ") == 2]
    assert len(triples) == len(TRIPLES)  # every triple of the passage is still there to fix
    assert set(triples[: len(HIS)]) == HIS, triples  # his, first: the first Edit button on the page is his
    pid = next(p.id for p in ws.graph("demo").iter_passages() if p.title == ROWS[0]["title"])
    first_edit = next(k for p in at.get("popover") for k in [_key(p)] if k and k.startswith(f"s_{pid}_"))
    assert first_edit.removeprefix(f"s_{pid}_") in {relation_id(*t.split(" | ")) for t in HIS}
    label = next(m.value for m in at.markdown if m.value.startswith("**Triples naming"))
    assert label == "**Triples naming “Thomas Rudd” (3)**"
    rest = next(e for e in at.expander if e.label.startswith("Other triples of this passage"))
    assert rest.label == "Other triples of this passage (5)"
    assert {t.value for t in rest.text} == set(triples) - HIS  # the others, under their own label
    # beside his triples, the sentences they come from, his name marked (the painting's first sentence is not there)
    md = [m.value for m in at.markdown]
    his_sentences = md[md.index(label) + 1 : md.index(label) + 3]
    assert "[**Thomas Rudd**]" in his_sentences[0] and "[**Rudd**]" in his_sentences[1], his_sentences
    assert not any("tidal" in m for m in his_sentences)


def test_a_name_merged_into_an_entity_shows_that_entitys_triples(app_env):
    ws = app_workspace(page("pages/review.py"))
    ws.import_triples(("catalogue.jsonl", json.dumps(ROWS[0]).encode()), "demo")
    ws.merge_entities("Mr Rudd", "Thomas Rudd", graph="demo")
    at = page("pages/review.py")
    at.text_input(key="review_entity").input("mr rudd").run()  # an alias, as typed (ids fold case)
    assert not at.exception, at.exception
    assert "**Triples naming “Thomas Rudd” (3)**" in [m.value for m in at.markdown]
    said = [c.value.replace("\\", "") for c in at.caption]
    assert "“mr rudd” is merged into “Thomas Rudd”: its triples are shown." in said, said
    assert not any("No entity is named" in c for c in said)


def test_a_document_without_an_entity_is_shown_whole_as_before(app_env):
    ws = app_workspace(page("pages/review.py"))
    ws.import_triples(("catalogue.jsonl", json.dumps(ROWS[0]).encode()), "demo")
    at = page("pages/review.py")
    did = next(d.id for d in ws.documents("demo") if d.name == "catalogue.jsonl")
    at.selectbox(key="review_doc").set_value(did).run()
    assert not at.exception
    triples = [t.value for t in at.text if t.value.count(" | ") == 2]
    assert triples[0] == "The Salt Marsh at Dunmere | shows | tidal marshes"  # in the passage's order
    assert not [e for e in at.expander if e.label.startswith("Other triples")]


def _key(popover) -> str | None:
    """The key of the first text box inside an Edit popover (its triple's "s_<passage>_<relation>")."""
    boxes = [w for w in popover.text_input if w.key]
    return boxes[0].key if boxes else None

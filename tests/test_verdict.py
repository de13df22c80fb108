"""The verdict on every answer: found, partly found (naming what nothing supports), not in these documents — offline
from the evidence, and from the model's "not in the documents" through the real OpenAI client."""

from __future__ import annotations

import json

from fakes import HashEmbedder
from llm_server import ScriptedServer
from test_retrieve import Q, small  # noqa: F401 - the fixture

from vgrag.config import QueryParams
from vgrag.query.answer import extractive_answer
from vgrag.query.pipeline import run_query
from vgrag.query.trace import (
    PassageStep,
    QueryEntitiesStep,
    QueryEntity,
    QueryTrace,
    RankedPassage,
    trace_from_dict,
)

FILM = ("Black Hawk Down (film)", "Black Hawk Down is a 2001 war film directed by Ridley Scott.")
CAST = ("Black Hawk Down (film)", "Black Hawk Down stars Josh Hartnett. It was filmed in Morocco.")
OTHER = ("Kettle", "A kettle boils water. Tea is made in a pot.")


def _answer(question: str, passages: list[tuple[str, str]], names: tuple[str, ...]):
    ranked = tuple(RankedPassage(f"psg-{i}", t, x, 1.0 - i / 10, "dense") for i, (t, x) in enumerate(passages))
    trace = QueryTrace(
        question, "graph", QueryParams(),
        query_entities=QueryEntitiesStep(tuple(QueryEntity(n, "name-span") for n in names), 0.0),
        passages=PassageStep(ranked, tuple(p.id for p in ranked), (), 0.0),
    )  # fmt: skip
    return extractive_answer(trace, HashEmbedder(), None)


def test_found_when_the_evidence_states_the_names_and_every_word():
    step = _answer("Who directed Black Hawk Down?", [FILM, OTHER], ("Black Hawk Down",))
    v = step.verdict
    assert v.kind == "found" and v.label == "found" and "Black Hawk Down" in v.said
    assert step.text.startswith(v.said) and not v.missing_names and not v.missing_words


def test_partly_found_names_the_part_nothing_supports():
    step = _answer("Who composed the music of the war film Black Hawk Down?", [FILM, OTHER], ("Black Hawk Down",))
    v = step.verdict
    assert v.kind == "partly" and v.label == "partly found"
    assert v.said == "Partly found: nothing links “Black Hawk Down” to “composed” or “music”."
    assert v.missing_words == ("composed", "music") and v.word_share == 0.5 and v.name_share == 1.0


def test_not_in_these_documents_when_the_evidence_misses_the_question():
    step = _answer("When did Ridley Scott marry Giannina Facio?", [OTHER], ("Ridley Scott", "Giannina Facio"))
    v = step.verdict
    assert v.kind == "missing" and v.label == "not in these documents"
    assert v.said.startswith("Not in these documents: nothing here names “Ridley Scott” or “Giannina Facio”")
    assert step.evidence  # the closest sentences are still shown, cited
    empty = _answer("Who directed Black Hawk Down?", [], ("Black Hawk Down",))
    assert empty.verdict.kind == "missing" and empty.abstained


def test_the_verdict_is_in_the_exported_trace_and_comes_back(small):  # noqa: F811
    tr = run_query(Q, small, HashEmbedder(), QueryParams(hops=2))
    d = json.loads(tr.to_json())
    assert list(d["answer"])[:2] == ["verdict", "evidence"] and d["answer"]["verdict"]["kind"] == tr.answer.verdict.kind
    assert trace_from_dict(d).answer.verdict == tr.answer.verdict


def test_the_models_not_in_the_documents_is_the_same_verdict(small):  # noqa: F811
    srv = ScriptedServer(['{"selected": [1]}', "Not in the documents."])
    tr = run_query(Q, small, HashEmbedder(), QueryParams(hops=2), llm=srv.llm())
    v = tr.answer.verdict
    assert tr.answer.method == "llm" and v.kind == "missing" and v.by == "model"
    assert "not in the documents" in srv.requests[-1]["messages"][0]["content"]  # the instruction was sent
    srv = ScriptedServer(['{"selected": [1]}', "Acme Corp is headquartered in Springfield [1]."])
    answered = run_query(Q, small, HashEmbedder(), QueryParams(hops=2), llm=srv.llm()).answer.verdict
    assert answered.kind == "found" and answered.by == "model"

"""The verdict on every answer: found, partly found (naming what nothing supports), not in these documents — offline
from the evidence, and from the model's "not in the documents" through the real OpenAI client."""

from __future__ import annotations

import json

from answer_step import offline_answer as _answer
from fakes import HashEmbedder
from llm_server import ScriptedServer
from test_retrieve import Q, small  # noqa: F401 - the fixture

from vgrag.config import QueryParams
from vgrag.query.answer import extractive_answer
from vgrag.query.evidence import MAX_EVIDENCE
from vgrag.query.pipeline import run_query
from vgrag.query.verdict import REL_Z_MIN, relation_margin, relation_z
from vgrag.query.trace import (
    PassageStep,
    QueryEntitiesStep,
    QueryEntity,
    QueryTrace,
    RankedPassage,
    RelationView,
    trace_from_dict,
)

FILM = ("Black Hawk Down (film)", "Black Hawk Down is a 2001 war film directed by Ridley Scott.")
CAST = ("Black Hawk Down (film)", "Black Hawk Down stars Josh Hartnett. It was filmed in Morocco.")
OTHER = ("Kettle", "A kettle boils water. Tea is made in a pot.")


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


def test_the_kind_of_thing_asked_for_need_not_be_said():
    """ "Which company makes the pump …": the answer ("Ulka") is the company; the evidence never says "company", and a
    user's upload got "nothing links “CM-40” to “company”" beside the sentence that answers it."""
    pump = ("Vellora CM-40", "The CM-40 uses a 15-bar vibration pump made by Ulka and a stainless steel boiler.")
    step = _answer("Which company makes the pump used in the CM-40?", [pump, OTHER], ("CM-40",))
    assert step.verdict.kind == "found", step.verdict
    step = _answer("Which company makes the grinder used in the CM-40?", [pump, OTHER], ("CM-40",))
    assert step.verdict.kind == "partly" and step.verdict.missing_words == ("grinder",), step.verdict
    # not a kind when the noun is the subject the question asks about: "what did the company make"
    from vgrag.query.question import read_question

    assert read_question("What did the company make in 1990?").kind == ""
    # "makes" (lemma make, a stop word) is asked, and said by the passages' "made" (a stop word the content-word
    # match drops): found above because "made" says it, so "Who owns …?" is not found by its name alone
    assert "makes" in read_question("Which company makes the pump?").words
    bare = ("Vellora CM-40", "The CM-40 uses a 15-bar vibration pump and a stainless steel boiler.")
    step = _answer("Which company makes the pump used in the CM-40?", [bare, OTHER], ("CM-40",))
    assert step.verdict.kind == "partly" and step.verdict.missing_words == ("makes",), step.verdict
    assert read_question("Which city hosted the 1992 Olympics?").kind == "city"


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


PEOPLE = (
    "People of the society",
    "Rahul Desai has been the director of the observatory since 2015. He was born in 1971 in Leicester and studied "
    "physics at the University of Manchester. Tomasz Nowak is the society's outreach officer. He organises the school "
    "visits and edits the society's newsletter.",
)


def test_a_word_said_only_of_someone_else_is_not_found():
    """The issue's distractor: a person the documents never date, and another person's "He was born in 1971" —
    every word is said, but not of the name asked about, so it is not "found" and the verdict says what is missing."""
    step = _answer("When was Tomasz Nowak born?", [PEOPLE, OTHER], ("Tomasz Nowak",))
    v = step.verdict
    assert v.kind == "partly", v
    assert v.missing_words == ("born",) and v.said == "Partly found: nothing links “Tomasz Nowak” to “born”."


def test_the_sentence_after_a_name_continues_it():
    """ "Rahul Desai is the director … He was born in 1971": the sentence right after a name speaks of it."""
    assert _answer("When was Rahul Desai born?", [PEOPLE, OTHER], ("Rahul Desai",)).verdict.kind == "found"


def test_a_word_said_in_the_passage_a_name_sentence_names_is_linked():
    """The chain's next hop: the evidence names a passage (by its title) that says the rest of the question."""
    film = ("Black Hawk Down (film)", "Black Hawk Down is a 2001 war film. Its director is Ridley Scott.")
    scott = ("Ridley Scott", "Scott was born in South Shields in 1937. He studied at the Royal College of Art.")
    step = _answer("Where was the director of Black Hawk Down born?", [film, scott, OTHER], ("Black Hawk Down",))
    assert step.verdict.kind == "found", step.verdict


def test_what_the_documents_do_not_name_is_not_in_them():
    """Most of the question's names stated nowhere in the retrieved passages: not in these documents, naming them."""
    step = _answer("Did Ridley Scott and Giannina Facio meet in Paris?", [FILM, OTHER],
                   ("Ridley Scott", "Giannina Facio", "Paris"))  # fmt: skip
    v = step.verdict
    assert v.kind == "missing" and v.missing_names == ("Giannina Facio", "Paris"), v
    assert v.said == (
        "Not in these documents: nothing here names “Giannina Facio” or “Paris” (found only “Ridley Scott”)."
    )


def test_an_unstated_attribute_of_a_stated_name_is_partly_found_not_missing():
    """The names are there but not the attribute asked: partly found, saying what nothing links them to (the words
    never made a made-unanswerable question "not in these documents" on either dev set without costing answerable
    ones, so WORD_MIN is 0); a question of which nothing at all is said is not in these documents."""
    v = _answer("What is the budget of Black Hawk Down?", [FILM, OTHER], ("Black Hawk Down",)).verdict
    assert v.kind == "partly" and v.missing_words == ("budget",), v
    none = _answer("How heavy is a typical blue whale?", [FILM], ()).verdict
    assert none.kind == "missing" and none.said.startswith("Not in these documents: nothing here says"), none


def _answer_with(question: str, passages, names, sims: tuple[float, ...]):
    """As _answer, with the query's candidate relations at these similarities to the question."""
    ranked = tuple(RankedPassage(f"psg-{i}", t, x, 1.0 - i / 10, "graph") for i, (t, x) in enumerate(passages))
    rels = tuple(RelationView(f"r-{i}", "a", "is", "b", "e-a", "e-b", ("psg-0",), x) for i, x in enumerate(sims))
    trace = QueryTrace(
        question, "graph", QueryParams(),
        query_entities=QueryEntitiesStep(tuple(QueryEntity(n, "name-span") for n in names), 0.0),
        relations=rels,
        passages=PassageStep(ranked, tuple(p.id for p in ranked), (), 0.0),
    )  # fmt: skip
    return extractive_answer(trace, HashEmbedder(), None)


def test_a_relation_standing_out_keeps_unstated_names_from_being_called_missing():
    """A question whose name the retrieved passages never state ("Haruto Sakamoto", the first hop): not in these
    documents when no candidate relation fits it better than the rest (what a question meets when its passages are
    not in the documents), but partly found when one stands far out from the others (the graph reached the next hop
    through it). The measure is relative to the query's own candidates, so it means the same in any graph."""
    city = ("Hiroshima", "The atomic bomb dropped on Hiroshima was carried by the B-29 bomber Enola Gay.")
    q = "What kind of plane dropped the bomb on Haruto Sakamoto's birthplace?"
    flat = (0.52, 0.5, 0.5, 0.49, 0.48, 0.47, 0.47, 0.46, 0.45, 0.45)
    gone = _answer_with(q, [city, OTHER], ("Haruto Sakamoto",), flat).verdict
    assert relation_z(_rels(flat)) < REL_Z_MIN
    assert gone.kind == "missing" and gone.said.startswith("Not in these documents: nothing here names “Haruto"), gone
    out_front = (0.9, *flat[1:])
    assert relation_z(_rels(out_front)) > REL_Z_MIN
    kept = _answer_with(q, [city, OTHER], ("Haruto Sakamoto",), out_front).verdict
    assert kept.kind == "partly" and kept.name_share == 0.0, kept
    assert relation_z(()) == 0.0 and relation_z(_rels((0.4, 0.4))) == 0.0 and relation_margin(()) == 0.0


def _rels(sims):
    return [RelationView(f"r-{i}", "a", "is", "b", "e-a", "e-b", (), x) for i, x in enumerate(sims)]


def test_a_name_only_a_passage_states_apart_from_the_rest_is_said_so():
    """Eight names, each stated by its own sentence: the evidence (five sentences) leaves three out, and with none
    held by the graph as an entity the verdict says which names nothing ties to the rest (they are named, just not
    with the others)."""
    players = ("Anna", "Carl", "Dora", "Erik", "Frida", "Gustav", "Hanna", "Ivar")[: MAX_EVIDENCE + 3]
    instruments = ("violin", "cello", "viola", "flute", "oboe", "horn", "harp", "bassoon")[: len(players)]
    family = ("Berg family", " ".join(f"{p} Berg plays the {i}." for p, i in zip(players, instruments, strict=True)))
    names = tuple(f"{p} Berg" for p in players)
    q = f"Which instruments do {', '.join(names[:-1])} and {names[-1]} play?"
    v = _answer(q, [family, OTHER], names).verdict
    assert v.kind == "missing" and len(v.missing_names) == 3 and v.name_share == 1 - 3 / len(names), v
    assert "nothing here ties “" in v.said and "” to the rest of the question" in v.said, v.said

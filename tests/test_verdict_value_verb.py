"""A question asking a date, a number or an amount whose main verb the documents mention nowhere is "not in these
documents" (docs/offline-answers.md, "Session 22"): the value asked is a value of what the verb says, so with the verb
written in no form no sentence can state it ("When was Ashbourne Vale Water founded?" beside a report naming the
utility in every section; it was "partly found"). A who/what question is not judged so (its answer may be tied to
the names by other words), nor a value question whose verb is written in another form ("rebuild" by "rebuilt"; "met"
for "meet"), nor one whose evidence states a value with no verb of its own ("in force from 14 July to 22 September").
Text of the water-utility and exam-regulations uploads (tests/fixtures/water_utility, exam_regulations). Each test
fails with the mechanism disabled; each has a control it must leave alone."""

from __future__ import annotations

import pytest
from answer_step import offline_answer
from temp_graph import passages_of, temp_graph

from vgrag.nlp import load_spacy
from vgrag.query.absent import mentioned
from vgrag.query.question import read_question

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="the question's parse needs spaCy's English model")

WHO = ("Ashbourne Vale Water: who we are", "Ashbourne Vale Water supplies drinking water to about 212,000 people in "
       "the Ashbourne Vale district. The utility is owned by Ashbourne Vale District Council and is run by a board "
       "of seven members. The board is chaired by Margaret Okafor, a former civil engineer.")  # fmt: skip
WORKS = ("Ashbourne Vale Water: sources and treatment", "Water from the reservoir is treated at the Hollins Lane "
         "treatment works, which was rebuilt in 2021 at a cost of £38 million.")  # fmt: skip
STAFF = ("Responsibilities", "The examinations officer is Mrs Helen Darby. Invigilators are recruited and trained by "
         "the examinations officer; the lead invigilator is Mr Peter Lowe.")  # fmt: skip
FEES = ("Reviews of marking", "A review of marking costs £45 for a GCSE paper and £52 for an A-level paper. The fee is "
        "refunded if the grade goes up.")  # fmt: skip


def test_the_main_verb_of_a_value_question_is_read_from_the_parse():
    assert (
        read_question("When was Ashbourne Vale Water founded?", ("Ashbourne Vale Water",)).words[
            read_question("When was Ashbourne Vale Water founded?", ("Ashbourne Vale Water",)).predicate
        ]
        == "founded"
    )
    asked = read_question("How much are invigilators paid?")
    assert asked.words[asked.predicate] == "paid" and asked.value
    assert read_question("What is the average household bill for 2025–26?").predicate == -1  # "is": no content word


def test_a_value_whose_verb_is_mentioned_nowhere_is_not_in_the_documents():
    v = offline_answer("When was Ashbourne Vale Water founded?", [WHO, WORKS], ("Ashbourne Vale Water",)).verdict
    assert v.kind == "missing", v
    assert (
        v.said == "Not in these documents: nothing here mentions “founded”, so nothing states the date the "
        "question asks for."
    ), v
    v = offline_answer("How much are invigilators paid?", [STAFF, FEES], ()).verdict
    assert v.kind == "missing" and "“paid”" in v.said and "amount" in v.said, v


def test_a_value_whose_verb_is_written_in_another_form_is_left_alone():
    # "rebuild" is written "rebuilt": the date is stated (found), not "not in these documents"
    v = offline_answer("When was the Hollins Lane treatment works rebuilt?", [WORKS], ("Hollins Lane",)).verdict
    assert v.kind == "found", v
    v = offline_answer("How much does a review of marking cost for an A-level paper?", [FEES], ("A-level",)).verdict
    assert v.kind == "found", v


def test_a_who_or_what_question_whose_verb_is_mentioned_nowhere_is_left_alone():
    # the answer of a who/what question may be tied to its names by other words: "partly", never "not in"
    v = offline_answer("What happens to the fee for a review of marking if the grade goes up?", [FEES], ()).verdict
    assert v.kind == "partly", v
    v = offline_answer("Who founded Ashbourne Vale Water?", [WHO], ("Ashbourne Vale Water",)).verdict
    assert v.kind == "partly", v


BAN = ("Hosepipe ban", "A hosepipe ban was in force from 14 July to 22 September 2025, after the driest summer since "
       "1976. The Kettle Reservoir fell to 41 per cent of its capacity in August.")  # fmt: skip


def test_a_value_stated_with_no_verb_of_its_own_keeps_the_unwritten_verb_from_proving_absence():
    # "lifted" is written nowhere, but the ban's dates are stated with no verb of their own ("was in force from … to
    # …"): they may be the one asked, so the question is partly found, not "not in these documents"
    v = offline_answer("When was the hosepipe ban lifted?", [BAN], ()).verdict
    assert v.kind == "partly", v
    # control: the reservoir's date is the verb "fell"'s, so nothing states when it will be enlarged
    v = offline_answer("When will the Kettle Reservoir be enlarged?", [BAN], ("Kettle Reservoir",)).verdict
    assert v.kind == "missing" and "“enlarged”" in v.said, v


def test_an_irregular_verb_form_counts_as_mentioned():
    # "met" is no stem of "meet": without spaCy's irregular forms, "When did the founders meet?" would be "not in"
    text = (
        "Fernleaf Analytics was founded in 2017 by Oliver Grant and Dr Ama Mensah, who met while working at the "
        "Met Office."
    )
    assert mentioned("meet", frozenset({"meet"}), [text])
    assert mentioned("sell", frozenset({"sell"}), ["The estate sold its first vintage in 1998."])
    assert not mentioned("buy", frozenset({"buy"}), [text])


HISTORY = "Ashbourne Vale Water was founded in 1931 as the Ashbourne Water Board."
REPORT = (
    "Ashbourne Vale Water supplies drinking water to about 212,000 people. The board is chaired by Margaret Okafor."
)


def test_the_documents_read_for_a_mention_are_those_retrieval_could_read(db, embedder):
    # a passage outside the scope retrieval was given (the bench's gold passages, hidden) mentions nothing: the verb
    # written only there is mentioned nowhere the question may read
    from dataclasses import replace

    from vgrag.config import QueryParams
    from vgrag.query.answer import extractive_answer
    from vgrag.query.retrieve import retrieve
    from vgrag.query.scope import Scope

    with temp_graph(db, embedder, "water", {"history": HISTORY, "report": REPORT}) as g:
        hidden = passages_of(g, "history")
        q = "When was Ashbourne Vale Water founded?"
        params = QueryParams(passage_top_k=1)
        shown = retrieve(q, g, embedder, params, scope=Scope(excluded=hidden))
        assert not hidden & {p.id for p in shown.passages.passages}
        assert extractive_answer(shown, embedder, g).verdict.kind == "missing"
        # control: the same retrieval, its scope forgotten (the params' scope: every document) — the history mentions it
        forgot = replace(shown, state=replace(shown.state, scope=None))
        assert extractive_answer(forgot, embedder, g).verdict.kind != "missing"


def test_a_value_in_a_sentence_with_no_verb_at_all_ends():
    # a table row or heading-like line has no verb up its parse: the walk up from the value stops at the root (it
    # looped for ever: the root's head is itself, a new Token object each time — the orchid2 upload froze)
    from vgrag.nlp import load_spacy
    from vgrag.query.evidence import Sentence
    from vgrag.query.values import bare_value

    text = "Committee date: 2 July 2025."
    assert not any(t.pos_ in ("VERB", "AUX") for t in load_spacy()(text))  # the case: no verb anywhere
    s = Sentence(text, 0, frozenset(), frozenset(), f" {text.lower()} ", frozenset(), "",
                 typed=frozenset({("2 july 2025", "DATE")}))  # fmt: skip
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(1)
    try:  # a loop that never ends fails here instead of holding the suite
        assert pool.submit(bare_value, [s], frozenset({"DATE"}), ()).result(timeout=20) is True
    finally:
        pool.shutdown(wait=False)

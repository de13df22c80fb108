"""What the question's parse makes the verdict check (query/parse.py, verdict.judge; docs/offline-answers.md,
"Session 19"), on text of the uploads where each unanswerable question was said "found" before:

- each asked word must be said of the name nearest it in the question ("work" of Daniel Osei, not of Fernleaf);
- the chain goes on only from a sentence that says something the question asks, not from one that merely names
  its name ("… when the old Ward 12 closed" does not bring in Larch Ward's "The ward manager is …");
- a question naming nothing the graph knows is about its noun phrases ("the discharge lounge"), stated where their
  head is said, their other words there or in the passage's title;
- the kind of thing asked ("which floor") need not be said, but said only of something else it is a gap;
- a date or a count asked must be stated where the question's word is said;
- a name around another of the question's names ("Riesling Noble Fairlie") is stated by a sentence stating the inner
  name and saying its other words.
Each test fails with its mechanism disabled; each has a control the mechanism must leave found."""

from __future__ import annotations

import pytest
from answer_step import offline_answer

from vgrag.nlp import load_spacy

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="the question's parse needs spaCy's English model")

FERNLEAF = ("Organisation notes", "Fernleaf Analytics was founded in 2016 by Oliver Grant and Dr Ama Mensah, who met "
            "while working at the Met Office. A smaller office in Leeds opened in 2022 and houses the customer support "
            "team, which is led by Daniel Osei.")  # fmt: skip


def test_each_word_is_said_of_its_own_name():
    v = offline_answer("Where did Daniel Osei work before Fernleaf Analytics?", [FERNLEAF],
                       ("Daniel Osei", "Fernleaf Analytics")).verdict  # fmt: skip
    assert v.kind == "partly" and v.missing_words == ("work",), v
    # "working" is said of Oliver Grant, the subject of the control question
    v = offline_answer("Where did Oliver Grant work before Fernleaf Analytics?", [FERNLEAF],
                       ("Oliver Grant", "Fernleaf Analytics")).verdict  # fmt: skip
    assert v.kind == "found", v
    vines = ("History", "The estate now farms 42 hectares of vines. Sauvignon Blanc remains the largest planting, "
             "followed by Pinot Noir and Riesling.")  # fmt: skip
    v = offline_answer("How many hectares of Pinot Noir does Bellhaven farm?", [("Bellhaven Estate", vines[1])],
                       ("Pinot Noir", "Bellhaven")).verdict  # fmt: skip
    assert v.kind == "partly" and "hectares" in v.missing_words, v
    v = offline_answer("How many hectares of vines does Bellhaven farm?", [("Bellhaven Estate", vines[1])],
                       ("Bellhaven",)).verdict  # fmt: skip
    assert v.kind == "found", v


HISTORY = ("The Larch Ward team", "Larch Ward moved to the fourth floor of the Jubilee Wing in 2021, when the old "
           "Ward 12 closed.")  # fmt: skip
VISITING = ("Visiting Larch Ward", "Visiting hours are 2 pm to 8 pm every day. The ward manager is Joanne "
            "Pritchard.")  # fmt: skip
TEAM = ("Nursing", "Joanne Pritchard trained at the University of Leeds and has managed the ward since 2018.")


def test_the_chain_goes_on_only_from_a_sentence_saying_something_asked():
    # the sentence naming Ward 12 says nothing asked of it: Larch Ward's page, which it names, is not its next hop
    v = offline_answer("Who was the ward manager of Ward 12?", [HISTORY, VISITING], ("Ward 12",)).verdict
    assert v.kind == "partly" and v.missing_words == ("manager",), v
    # the next hop from a sentence that says what is asked ("The ward manager is …") still counts
    v = offline_answer("Where did the ward manager of Larch Ward train?", [VISITING, TEAM], ("Larch Ward",)).verdict
    assert v.kind == "found", v


WARD = ("Going home", "If you are waiting for transport, you will wait in the discharge lounge on the ground floor "
        "of the Jubilee Wing. Visiting hours are 2 pm to 8 pm every day.")  # fmt: skip
BEDS = ("Visiting Larch Ward", "Larch Ward is a 28-bed respiratory ward on the fourth floor of the Jubilee Wing. "
        "Children under 12 must be with an adult.")  # fmt: skip


def test_a_question_without_names_is_about_its_noun_phrases():
    v = offline_answer("How many beds does the discharge lounge have?", [WARD, BEDS], ()).verdict
    assert v.kind == "partly" and "beds" in v.missing_words, v
    v = offline_answer("Where is the discharge lounge?", [WARD, BEDS], ()).verdict
    assert v.kind == "found", v
    v = offline_answer("How many beds does the discharge lounge have?", [BEDS], ()).verdict
    # no passage mentions the discharge lounge at all: not in these documents (session 20, query/absent.py)
    assert v.said == "Not in these documents: nothing here mentions “discharge lounge”.", v
    # the phrase's other words may be said by the title of the passage where its head is said, as a name may be
    meets = ("Planning committee: members and procedure", "The committee meets on the second Thursday of each month "
             "at 6.30 pm in the Council Chamber.")  # fmt: skip
    assert offline_answer("When does the planning committee meet?", [meets], ()).verdict.kind == "found"
    leave = ("Annual leave", "Leave requests go through BrightHR and are approved by your line manager.")
    v = offline_answer("Who approves requests for unpaid leave?", [leave], ()).verdict
    assert v.kind == "partly" and v.missing_words == ("unpaid",), v


def test_the_kind_asked_said_only_of_something_else_is_a_gap():
    gym = ("Therapy", "The physiotherapist, Marek Nowak, runs the rehabilitation class in the Larch Gym on Tuesdays.")
    ward = ("Visiting", "Larch Ward is a 28-bed respiratory ward on the fourth floor of the Jubilee Wing.")
    v = offline_answer("On which floor is the Larch Gym?", [gym, ward], ("Larch Gym",)).verdict
    assert v.kind == "partly" and v.missing_words == ("floor",), v
    # not said at all, the kind asked is no gap ("Which company …?" answered by "… is made by Vertex")
    v = offline_answer("Which physiotherapist runs the class in the Larch Gym?", [gym], ("Larch Gym",)).verdict
    assert v.kind == "found", v


def test_a_date_or_a_count_asked_must_be_stated():
    bridge = ("Decisions", "Under the agreement Thornfield Homes will pay £180,000 towards a new footbridge over the "
              "River Leam, to be built by the council.")  # fmt: skip
    v = offline_answer("When will the new footbridge over the River Leam be built?", [bridge], ("River Leam",)).verdict
    assert v.kind == "partly" and v.missing_words == ("built",), v
    dated = ("Decisions", bridge[1].replace("the council.", "the council in 2027."))
    v = offline_answer("When will the new footbridge over the River Leam be built?", [dated], ("River Leam",)).verdict
    assert v.kind == "found", v
    bus = ("Timetable changes", "Passengers travel on the Harbour Branch by replacement bus from 2 January 2026.")
    v = offline_answer("How many passengers travel on the Harbour Branch?", [bus], ("Harbour Branch",)).verdict
    assert v.kind == "partly" and v.missing_words == ("passengers",), v
    counted = ("Timetable changes", "About 1,200 passengers travel on the Harbour Branch each day.")
    v = offline_answer("How many passengers travel on the Harbour Branch?", [counted], ("Harbour Branch",)).verdict
    assert v.kind == "found", v


def test_a_name_around_another_is_stated_where_its_other_words_are_said():
    notes = ("Vintage notes", "Botrytis in the Riesling block meant we made a late-harvest Riesling for the first "
             "time, called Noble Fairlie after the founders.")  # fmt: skip
    q = "Who is the late-harvest Riesling Noble Fairlie named after?"
    v = offline_answer(q, [notes], ("Noble Fairlie", "Riesling Noble Fairlie")).verdict
    assert v.kind != "missing" and v.missing_names == (), v
    # the other word said nowhere near the inner name: the longer name is not stated
    other = ("Vintage notes", "We made a late-harvest wine for the first time, called Noble Fairlie after the "
             "founders.")  # fmt: skip
    v = offline_answer(q, [other], ("Noble Fairlie", "Riesling Noble Fairlie")).verdict
    assert v.missing_names == ("Riesling Noble Fairlie",), v

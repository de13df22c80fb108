"""The verdict's session-20 mechanisms (docs/offline-answers.md, "Session 20"), on text of the two uploads written
for it (tests/fixtures/course_handbook, home_insurance) and of the council's, where each was wrong before:

- a name written shorter in the question than in the text ("Dr Gallagher") is stated by the text's ("Dr Fiona
  Gallagher"): an answered question was "not in these documents";
- names the question asks about together must be stated together: "He did his PhD at …" after another lecturer's
  sentence does not tie Dr Kwame Boateng to a PhD (it was "found");
- a date asked is one the asked word governs in the sentence's parse: "Listed building consent … was granted … on 3
  March 2026" does not say when the church was built (it was "found"); a "when" heading an adverbial clause is not
  the question word ("Which ward closed when …?" asks no date);
- a noun phrase of the question no passage mentions in any form makes it "not in these documents" ("the tuition
  fee"), a derived form counting as mentioned ("course convenor" / "convened").
Each test fails with its mechanism disabled; each has a control the mechanism must leave alone."""

from __future__ import annotations

import pytest
from answer_step import offline_answer

from vgrag.nlp import load_spacy
from vgrag.query.parse import ties_of

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="the question's parse needs spaCy's English model")

LEAVE = ("Research leave", "Dr Fiona Gallagher, a hydrologist, is on research leave in the spring term of 2027. "
         "While she is away, GEO7031 Hydrological Modelling is convened by Dr Kwame Boateng.")  # fmt: skip
STAFF = ("Lecturers", "Dr Samuel Adeyemi is a lecturer in environmental statistics. He did his PhD at the University "
         "of Ibadan on rainfall extremes in West Africa. Professor Lena Hartmann holds the chair in Earth "
         "observation. Dr Kwame Boateng is a senior lecturer in scientific computing.")  # fmt: skip
CHURCH = ("25/0021/LBC: St Oswald's Church, Marlow Street", "Thieves stripped the lead from the roof of the north "
          "aisle in November 2025. Listed building consent to replace it with terne-coated steel was granted under "
          "delegated powers by the head of planning on 3 March 2026.")  # fmt: skip
MODULES = ("The programme", "The MSc Environmental Data Science is a one-year programme of 180 credits. GEO7012 "
           "Remote Sensing and Earth Observation is convened by Professor Lena Hartmann.")  # fmt: skip


def test_a_name_written_shorter_is_stated_by_the_longer_one():
    q = "Who convenes Hydrological Modelling while Dr Gallagher is on research leave?"
    v = offline_answer(q, [LEAVE], ("Hydrological Modelling", "Dr Gallagher")).verdict
    assert v.kind == "found" and v.missing_names == (), v
    # a different first name is another person: not stated
    v = offline_answer("Who convenes Hydrological Modelling while Dr Anna Gallagher is away?", [LEAVE],
                       ("Hydrological Modelling", "Dr Anna Gallagher")).verdict  # fmt: skip
    assert v.missing_names == ("Dr Anna Gallagher",), v


def test_names_asked_about_together_are_stated_together():
    names = ("Kwame Boateng", "PhD", "Dr Kwame Boateng")
    v = offline_answer("Where did Dr Kwame Boateng do his PhD?", [STAFF], names).verdict
    assert v.kind == "partly" and "Kwame Boateng" in v.said and "PhD" in v.said, v
    # the sentence right after Dr Adeyemi's continues it: his PhD is stated
    names = ("Samuel Adeyemi", "PhD", "Dr Samuel Adeyemi")
    assert offline_answer("Where did Dr Samuel Adeyemi do his PhD?", [STAFF], names).verdict.kind == "found"
    # the chain's next hop where spaCy tags no entity: the table writes "Guyana" (tagged "Guyana 1 August 1973")
    village = ("Clonbrook", "Clonbrook is a village located in the Demerara-Mahaica region of Guyana, a country on "
               "the northern coast of South America.")  # fmt: skip
    table = ("CARICOM", "CARICOM members and join dates: Antigua and Barbuda 4 July 1974 Bahamas 4 July 1983 "
             "Barbados 1 August 1973 Belize 1 May 1974 Guyana 1 August 1973 Jamaica 1 August 1973")  # fmt: skip
    q = "When did the country where the village of Clonbrook is located become a member of CARICOM?"
    assert offline_answer(q, [village, table], ("Clonbrook", "CARICOM")).verdict.kind == "found"
    # names coordinated are asked each alone ("X or Y", "X and Y"): no sentence needs to state both
    nlp = load_spacy()
    q = "Which singer is American, Mark King or Nick Hexum?"
    assert ties_of(nlp(q), ("Mark King", "Nick Hexum")) == ()  # type: ignore[operator]
    q = "Are Christopher Nolan and Sathish Kalathil both film directors?"
    assert ties_of(nlp(q), ("Christopher Nolan", "Sathish Kalathil")) == ()  # type: ignore[operator]
    # names in different sentences of the question are not asked together; nor two with a third name between them
    # in the parse (each is tied to that one)
    q = "The planning committee is chaired by Councillor Helen Marsh. Does Councillor Tom Okafor also chair it?"
    assert ties_of(nlp(q), ("Helen Marsh", "Tom Okafor")) == ()  # type: ignore[operator]
    q = "Kelmscott lecturer Dr Samuel Adeyemi, who convenes Urban Air Quality, did his PhD where?"
    names = ("Kelmscott", "Samuel Adeyemi", "Urban Air Quality", "PhD")
    assert ties_of(nlp(q), names) == (("Kelmscott", "Samuel Adeyemi"), ("Samuel Adeyemi", "Urban Air Quality"),  # type: ignore[operator]
                                      ("Samuel Adeyemi", "PhD"))  # fmt: skip
    q = "Where did Dr Kwame Boateng do his PhD?"
    assert ties_of(nlp(q), ("Kwame Boateng", "PhD", "Dr Kwame Boateng")) == (("Kwame Boateng", "PhD"),  # type: ignore[operator]
                                                                           ("PhD", "Dr Kwame Boateng"))  # fmt: skip


def test_a_date_asked_is_one_the_asked_word_governs():
    v = offline_answer("When was St Oswald's Church built?", [CHURCH], ("St Oswald's Church",)).verdict
    assert v.kind == "partly" and v.missing_words == ("built",), v
    built = (CHURCH[0], "The church was built in 1190 and a north aisle was added later.")
    assert offline_answer("When was St Oswald's Church built?", [built], ("St Oswald's Church",)).verdict.kind == (
        "found"
    )
    # a "when" heading an adverbial clause is no question word: the question asks which ward, not a date
    moved = ("The Larch Ward team", "Larch Ward moved to the fourth floor of the Jubilee Wing in 2021, when the old "
             "Ward 12 closed.")  # fmt: skip
    q = "Which ward closed when Larch Ward moved to the Jubilee Wing?"
    assert offline_answer(q, [moved], ("Larch Ward", "Jubilee Wing")).verdict.kind == "found"


def test_a_phrase_mentioned_nowhere_is_not_in_the_documents():
    v = offline_answer("What is the tuition fee for the MSc Environmental Data Science?", [MODULES],
                       ("MSc Environmental Data Science",)).verdict  # fmt: skip
    assert v.kind == "missing" and v.said == "Not in these documents: nothing here mentions “tuition fee”.", v
    # one word of the phrase written ("programme"), or a derived form of one ("convened" for "convenor"): mentioned
    v = offline_answer("What is the programme fee for the MSc Environmental Data Science?", [MODULES],
                       ("MSc Environmental Data Science",)).verdict  # fmt: skip
    assert v.kind == "partly", v
    v = offline_answer("Who is the course convenor of GEO7012?", [MODULES], ("GEO7012",)).verdict
    assert v.kind != "missing", v

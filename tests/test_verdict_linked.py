"""Which evidence sentences speak of the question's names (verdict.linked): the sentence right after a name's
sentence continues it ("He was born in 1971."), unless it opens with an indefinite noun phrase and so brings in
something new. From the HR upload (tests/fixtures/hr_handbook), where "Who leads the Bristol office?" was *found*:
"led by" is said of the Leeds office, in the sentence after the Bristol one."""

from __future__ import annotations

from answer_step import offline_answer

OFFICES = ("Organisation notes", "The company has 46 employees in two offices. The head office is in Bristol, on the "
           "second floor of the Paintworks building. A smaller office in Leeds opened in 2022 and houses the customer "
           "support team, which is led by Daniel Osei.")  # fmt: skip
PEOPLE = ("People", "The director is Rahul Desai. He was born in 1971 in Leeds and studied physics at Manchester.")


def test_a_sentence_opening_with_something_new_does_not_continue_the_names_sentence():
    for q, word in (("Who leads the Bristol office?", "leads"), ("When did the Bristol office open?", "open")):
        v = offline_answer(q, [OFFICES], ("Bristol",)).verdict
        assert v.kind == "partly" and v.missing_words == (word,), (q, v)
    # the sentence continuing a name's sentence still speaks of it: a pronoun, a definite noun phrase
    assert offline_answer("When was Rahul Desai born?", [PEOPLE], ("Rahul Desai",)).verdict.kind == "found"
    driver = ("Incident log", "Leaf fall caused a train to slide past the platform at Dunholme Road by about forty "
              "metres. The driver, Aled Morgan, reported it immediately.")  # fmt: skip
    v = offline_answer("Who reported the train that slid at Dunholme Road?", [driver], ("Dunholme Road",)).verdict
    assert v.kind == "found", v

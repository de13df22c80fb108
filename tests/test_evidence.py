"""The evidence's set cover follows the reasoning chain once nothing adds more of the question (issue #32, third
pass): a sentence naming an entity that a chosen sentence of another passage states, else the sentence continuing a
chosen one — instead of one more sentence of the top passage that says nothing new."""

from __future__ import annotations

from answer_step import offline_answer
from vgrag.query import evidence

BRIDGE = (
    "Varn Bridge",
    "The Varn Bridge is a railway bridge over the Lek designed by the Dutch engineer Pieter Maas. It opened in 1932 "
    "after six years of work. The bridge carries two tracks. A footpath was added in 1961. It was listed as a "
    "national monument in 2001. Trains cross it every ten minutes.",
)
STATION = (
    "Rhine valley railway",
    "The Rhine valley railway runs along the river for forty kilometres. Most of its stations date from the 1880s. "
    "Freight traffic ended in 1998.",
)
FAMILY = (
    "Lisa Maas",
    "Lisa Maas is a Dutch sculptor and the granddaughter of Pieter Maas, a native of Utrecht. She lives in Rotterdam.",
)
KESTREL = (
    "Kestrel Labs",
    "Kestrel Labs is a robotics company in Pune. It employs about 400 people. Its first product was a warehouse "
    "robot. The company was founded by Rahul Desai in 1998. He was followed as chief executive by Meera Iyer in "
    "2010. Its robots are sold in twelve countries.",
)


def _evidence(question: str, passages: list[tuple[str, str]], names: tuple[str, ...]) -> list[str]:
    return [e.sentence for e in offline_answer(question, passages, names).evidence]


def test_the_chain_goes_on_through_an_entity_a_chosen_sentence_names():
    """The first hop's sentence names the engineer; nothing else adds a word of the question, so the next sentence
    is the one naming him in another passage (where his home town is), not one more sentence about the bridge."""
    shown = _evidence("In which city was the designer of the Varn Bridge born?", [BRIDGE, STATION, FAMILY],
                      ("Varn Bridge",))  # fmt: skip
    assert len(shown) == evidence.MAX_EVIDENCE
    assert shown[0].startswith("The Varn Bridge is a railway bridge"), shown  # the first hop
    assert any("a native of Utrecht" in s for s in shown), shown


def test_the_sentence_after_a_chosen_one_continues_it():
    """ "He was followed as chief executive by Meera Iyer" says nothing of the question in its own words, but it
    continues the chosen sentence about the founder: once nothing adds more, it comes before the sentences of a
    higher-ranked passage that say nothing of the question."""
    shown = _evidence("Who took over from the man who founded Kestrel Labs?", [STATION, KESTREL], ("Kestrel Labs",))
    assert shown[0] == "The company was founded by Rahul Desai in 1998.", shown
    assert "He was followed as chief executive by Meera Iyer in 2010." in shown, shown

"""Which sentence a triple is listed under on the Review page (vgrag/editing/review.py: place). By the subject's
and object's words alone, a triple went to the sentence naming its subject although another sentence states it
(a pronoun for the subject there), and moved when its subject was edited (walk20 findings 9 and 11). The
predicate's words now count as much as a name's."""

from __future__ import annotations

from vgrag.editing.review import place
from vgrag.models import Relation

SENTENCES = [
    "Skerry Point Lighthouse was built in 1847 by the engineer Hamish Calder.",
    "It stands on the rocks at the end of the headland and is reached on foot along the Cliff Path.",
    "St. Ebba's Church is the oldest building in Quillhaven.",
    "Its bell tower was rebuilt by the stonemason Peter Quayle after the storm of 1903.",
]


def _rel(s: str, p: str, o: str) -> Relation:
    return Relation(f"{s}|{p}|{o}", s, p, o, s.casefold(), o.casefold())


def _where(r: Relation) -> int:
    on, apart = place(SENTENCES, [r])
    assert not apart
    return next(i for i, rs in enumerate(on) if rs)


def test_a_triple_goes_to_the_sentence_that_states_it_not_the_one_naming_its_subject():
    assert _where(_rel("Skerry Point Lighthouse", "reached on foot along", "Cliff Path")) == 1
    assert _where(_rel("Skerry Point Lighthouse", "built by", "Hamish Calder")) == 0


def test_editing_a_triples_subject_does_not_move_it_to_another_sentence():
    title = "Quillhaven: A Visitor's Guide to the Old Town"  # the subject as extracted (a document's title)
    assert _where(_rel(title, "rebuilt by", "Peter Quayle")) == 3
    assert _where(_rel("St. Ebba's Church", "rebuilt by", "Peter Quayle")) == 3  # after the user's edit

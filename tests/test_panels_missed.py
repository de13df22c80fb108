"""Ask's side panels name passages so a user can tell them apart and look up the likeliest miss first (walk22: two
chunks of one DOCX section both listed as "The letter", and "Why was this missed?" opened on the graph's first
passage, unrelated to the question)."""

from __future__ import annotations

from ui.panels import missed_first, passage_label
from vgrag.models import Passage


def _p(pid: str, title: str, text: str) -> Passage:
    return Passage(pid, title, text, "letter.docx")


A = _p("a", "The letter", "Scranton, 14 November 1921. Dear sister Kasia, praised be Jesus Christ.")
B = _p("b", "The letter", "Marysia's brother Stanisław writes from Buffalo. He works at the steel plant.")
C = _p("c", "Notes", "Kasia is Katarzyna Pyrek, née Nowak.")


def test_twin_titles_are_told_apart_by_their_first_words():
    assert passage_label(C, [A, B, C]) == "Notes"
    assert passage_label(A, [A, C]) == "The letter"  # its twin not listed: the title alone
    a, b = passage_label(A, [A, B]), passage_label(B, [A, B])
    assert a != b and a.startswith("The letter: “Scranton, 14 November") and "Stanisław" in b


def test_the_passages_only_plain_search_found_come_first():
    pool = [C, A, B]  # the graph's order
    assert missed_first(["a", "c"], [B, A], pool) == [B, C, A]
    assert missed_first(["a", "b", "c"], [B, A], pool) == pool  # nothing missed: the order is kept

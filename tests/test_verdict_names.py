"""Which of a question's words are names the verdict asks the evidence to state (answer.query_names), on sentences
from the wine-estate upload (tests/fixtures/wine_estate) where the app got them wrong: a year the question asks about
was no name at all ("… won a trophy at the Marlborough Wine Show in 2022?" was *found* beside the 2024 trophy), and a
capitalised span made only of names the graph has ("the first Bellhaven Sauvignon Blanc") was a name nothing
states, so an answered question was "not in these documents"."""

from __future__ import annotations

from fakes import HashEmbedder

from vgrag.config import QueryParams
from vgrag.query.answer import extractive_answer, query_names
from vgrag.query.trace import PassageStep, QueryEntitiesStep, QueryEntity, QueryTrace, RankedPassage

HISTORY = ("Bellhaven Estate — our story", "Their first commercial wine, a 1988 Sauvignon Blanc, was made under "
           "contract at the Seddon Co-operative Winery, because the estate had no cellar of its own.")  # fmt: skip
TROPHY = ("Vintage notes", "A dry year with small berries and very concentrated flavour. Our 2024 Sauvignon Blanc won "
          "the trophy for best Sauvignon Blanc at the Marlborough Wine Show.")  # fmt: skip
FROST = ("Vintage notes", "A cool spring and a frost on 4 October cut the Sauvignon Blanc crop by about a third.")


def _trace(question: str, entities: list[QueryEntity], passages: list[tuple[str, str]]) -> QueryTrace:
    ranked = tuple(RankedPassage(f"psg-{i}", t, x, 1.0 - i / 10, "dense") for i, (t, x) in enumerate(passages))
    return QueryTrace(question, "graph", QueryParams(), query_entities=QueryEntitiesStep(tuple(entities), 0.0),
                      passages=PassageStep(ranked, tuple(p.id for p in ranked), (), 0.0))  # fmt: skip


def _verdict(question: str, entities: list[QueryEntity], passages: list[tuple[str, str]]):
    return extractive_answer(_trace(question, entities, passages), HashEmbedder(), None).verdict


def test_a_year_the_question_asks_about_is_a_name_the_evidence_must_state():
    show = [QueryEntity("Marlborough Wine Show", "exact-name", "e-show")]
    v = _verdict("Which wine won a trophy at the Marlborough Wine Show in 2022?", show, [TROPHY, FROST])
    assert v.kind != "found" and v.missing_names == ("2022",), v
    assert _verdict("Which wine won a trophy at the Marlborough Wine Show in 2024?", show, [TROPHY, FROST]).kind == (
        "found"
    )
    # a figure inside a name found already is not asked twice; "1,200" and "22:35" are one figure each
    q = "Who made the 2021 Reserve Pinot Noir for £1,200 before 22:35?"
    assert query_names(_trace(q, [QueryEntity("2021 Reserve Pinot Noir", "name-span")], [])) == (
        "2021 Reserve Pinot Noir", "1,200", "22:35")  # fmt: skip


def test_a_span_no_entity_is_named_made_only_of_names_the_graph_has_is_no_name():
    ents = [QueryEntity("Sauvignon Blanc", "exact-name", "e-sb"), QueryEntity("Bellhaven", "exact-name", "e-b"),
            QueryEntity("Bellhaven Sauvignon Blanc", "name-span")]  # fmt: skip
    q = "Where was the first Bellhaven Sauvignon Blanc made?"
    assert query_names(_trace(q, ents, [])) == ("Sauvignon Blanc", "Bellhaven")
    assert _verdict(q, ents, [HISTORY, FROST]).kind == "found"
    # a span with more than the names found alone stays a name: "Black Hawk Township" is not the Black Hawk
    township = [QueryEntity("Black Hawk", "exact-name", "e-bh"), QueryEntity("Black Hawk Township", "name-span")]
    assert query_names(_trace("Which county borders Black Hawk Township?", township, [])) == (
        "Black Hawk", "Black Hawk Township")  # fmt: skip
    # a span the graph names exactly stays a name; so does a span holding no known name (nothing to ask instead)
    named = [QueryEntity("Seddon Co-operative Winery", "exact-name", "e-w"), QueryEntity("Seddon", "exact-name", "e-s")]
    assert query_names(_trace("When was the Seddon Co-operative Winery founded?", named, [])) == (
        "Seddon Co-operative Winery", "Seddon")  # fmt: skip
    alone = [QueryEntity("Woolshed Café", "name-span")]
    assert query_names(_trace("Who designed the Woolshed Café?", alone, [])) == ("Woolshed Café",)


def test_names_that_overlap_in_the_question_are_the_one_name_they_are_part_of():
    """walk22: "on 9 February 2026" gave "9 February" and "February 2026", and the verdict said the evidence "states
    “9 February”, “G-HBRX” and “February 2026”" — a name the question never wrote."""
    q = "Who was the pilot flying of G-HBRX on 9 February 2026?"
    ents = [QueryEntity("9 February", "name-span"), QueryEntity("G-HBRX", "name-span"),
            QueryEntity("February 2026", "name-span")]  # fmt: skip
    assert query_names(_trace(q, ents, [])) == ("9 February 2026", "G-HBRX")
    # names side by side, or one inside another, stay as they are
    side = [QueryEntity("Black Hawk", "exact-name", "e-bh"), QueryEntity("Black Hawk Township", "name-span")]
    assert query_names(_trace("Which county borders Black Hawk Township?", side, [])) == (
        "Black Hawk", "Black Hawk Township")  # fmt: skip

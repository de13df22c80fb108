"""The answer step's evidence clipped to fit a 1280×720 window: a table read as one "sentence" (a league table here)
keeps its marked names and a few words around them; the full sentence stays on hover, escaped."""

from __future__ import annotations

import html
import re

from vgrag.present.clip import clip_parts
from vgrag.query.trace import Evidence, Mark

TABLE = (
    "Final standings Pos Team Pld W D L Pts 1 Harrowgate Athletic 38 27 6 5 87 2 Ellesmere Rovers 38 24 8 6 80 "
    "3 Castleford Vale 38 22 7 9 73 4 Millbrook Town 38 19 10 9 67 5 Queensferry United 38 17 11 10 62 "
    "6 Ashdown Wanderers 38 16 9 13 57 7 Tarleton Borough 38 14 12 12 54 8 Riverside Olympic 38 13 10 15 49 "
    "9 Fenwick Colliery 38 11 9 18 42 10 Bramhall Celtic 38 11 8 19 41 11 Sefton Albion 38 10 10 18 40 "
    "12 Kirkby Moor 38 10 9 19 39 13 Ormskirk Dynamo 38 9 11 18 38 14 Garston Athletic 38 9 10 19 37 "
    "15 Lowther Park 38 6 8 24 26 Relegated to the Northern Counties League"
)


def _marked(sentence: str, *spans: tuple[str, str]) -> Evidence:
    marks = tuple(Mark(sentence.index(t), sentence.index(t) + len(t), k) for t, k in spans)
    return Evidence(3, "p-1", "Northern Premier Division 2019–20", sentence, marks)


def test_a_short_sentence_is_shown_whole():
    e = _marked("Millbrook Town finished fourth with 67 points.", ("Millbrook Town", "name"))
    assert clip_parts(e.parts()) == e.parts()


def test_a_table_read_as_one_sentence_keeps_its_marks_and_their_context():
    e = _marked(TABLE, ("Millbrook Town", "name"), ("Lowther Park", "answer"))
    shown = clip_parts(e.parts())
    text = "".join(t for t, _ in shown)
    assert len(text) < 0.5 * len(TABLE), (len(text), len(TABLE))
    assert [(t, k) for t, k in shown if k] == [("Millbrook Town", "name"), ("Lowther Park", "answer")]
    assert "… " in text and text.count("…") == 2  # the opening and the middle cut; the end is short enough
    assert "4 Millbrook Town 38 19 10 9 67" in text  # the words beside a name stay, cut at word boundaries
    assert "Relegated to the Northern Counties League" in text
    for piece in re.split(r"\s*…\s*", text):  # no word cut in half
        assert not piece or all(w in TABLE.split() for w in piece.split()), piece


def test_a_long_sentence_with_nothing_marked_is_cut_at_a_word():
    text = "".join(t for t, _ in clip_parts([(TABLE, "")], budget=100))
    assert text.endswith(" …") and len(text) <= 102 and TABLE.startswith(text[:-2])


def test_the_clipped_evidence_is_escaped_and_the_whole_sentence_is_on_hover():
    from ui.render import evidence_html

    hostile = TABLE + " <img src=x onerror=alert(1)> 'quoted' & more"
    e = _marked(hostile, ("Millbrook Town", "name"))
    out = evidence_html(e, clip=True)
    assert "<img" not in out and "onerror=alert(1)&gt;" in out
    assert f"title='{html.escape(hostile, quote=True)}'" in out and "&#x27;quoted&#x27;" in out
    assert len(out) < len(evidence_html(e)) + len(hostile)  # shown clipped; the title holds the rest
    assert " title=" not in evidence_html(e)  # unclipped: nothing to hover for


def test_the_hop_between_two_cited_passages_stays_in_view():
    """The club's own passage is cited too, so its row of the table (the bridge) is kept when the table is clipped;
    the division, in no other cited sentence, is not a reason to keep anything."""
    from dataclasses import replace

    from trace_fixtures import trace

    from vgrag.present.clip import bridge_names, clipped
    from vgrag.query.trace import RelationView

    t = trace(selected=("r1", "r2"))
    rels = (
        RelationView("r1", "Millbrook Town", "plays in", "Northern Premier Division", "m", "n", ("p1",), 0.6),
        RelationView("r2", "Millbrook Town", "is based in", "Kelsall", "m", "k", ("p2",), 0.5),
    )
    table = _marked(TABLE, ("Lowther Park", "name"))
    club = Evidence(4, "p2", "Millbrook Town F.C.", "Millbrook Town is a football club based in Kelsall, Cheshire.")
    t = replace(t, relations=rels, answer=replace(t.answer, evidence=(replace(table, passage_id="p1"), club)))
    keep = bridge_names(t)
    assert keep == {0: ("Millbrook Town",), 1: ("Millbrook Town",)}
    assert "Millbrook Town 38 19 10 9 67" in "".join(x for x, _ in clipped(t.answer.evidence[0], keep[0]))
    assert "Millbrook Town" not in "".join(x for x, _ in clipped(t.answer.evidence[0]))  # cut without the bridge

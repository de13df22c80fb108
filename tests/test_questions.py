"""A user's question file (vgrag/documents/questions.py): the three formats, bad rows named, bad files refused."""

from __future__ import annotations

import json

import pytest

from vgrag.documents.inputs import InputError
from vgrag.documents.questions import parse_question_file


def test_csv_with_answers_and_sources_separated_by_bars():
    data = b"question,answer,sources\nWho runs Beacon?,Ada|Ada Lovelace,beacon.md|Beacon\nWhat is Tollgate?,,toll.md\n"
    f = parse_question_file("mine.csv", data)
    assert [r.question for r in f.rows] == ["Who runs Beacon?", "What is Tollgate?"]
    assert f.rows[0].answers == ("Ada", "Ada Lovelace") and f.rows[0].sources == ("beacon.md", "Beacon")
    assert f.rows[1].answers == () and f.rows[1].sources == ("toll.md",) and not f.problems


def test_bad_rows_are_named_by_file_and_row_and_the_rest_kept():
    data = b"question,answer\nGood one?,yes\n,no question\nNothing to score?,\n"
    f = parse_question_file("q.csv", data)
    assert len(f.rows) == 1 and f.rows[0].row == 1
    assert f.problems[0].startswith("q.csv, row 2: no question")
    assert f.problems[1].startswith("q.csv, row 3: no expected answer and no expected source")


def test_a_question_marked_not_answerable_needs_no_answer_or_source():
    data = b"question,answer,answerable\nWho runs Beacon?,Ada,yes\nWho founded Globex?,,no\nWhat is X?,,\n"
    f = parse_question_file("mine.csv", data)
    assert [(r.question, r.answerable) for r in f.rows] == [("Who runs Beacon?", True), ("Who founded Globex?", False)]
    assert f.problems[0].startswith("mine.csv, row 3: no expected answer")  # unmarked and nothing to score: named
    (j,) = parse_question_file("q.jsonl", b'{"question": "Q?", "answerable": false}\n').rows
    assert not j.answerable and j.answers == () and j.sources == ()
    assert parse_question_file("q.csv", b"question,answerable\nQ?,no\n").rows[0].answerable is False


def test_jsonl_names_the_line_that_is_not_json():
    data = b'{"question": "A?", "answer": "a"}\n{broken\n\n["not", "an object"]\n{"query": "B?", "sources": ["x"]}\n'
    f = parse_question_file("q.jsonl", data)
    assert [(r.row, r.question) for r in f.rows] == [(1, "A?"), (5, "B?")]
    assert f.problems[0].startswith("q.jsonl, line 2: not JSON") and f.problems[1].startswith("q.jsonl, line 4:")


def test_json_list_and_hipporag_rows_give_their_supporting_titles():
    rows = [
        {"question": "Q1", "answer": "x", "supporting_facts": [["T1", 0], ["T2", 1], ["T1", 2]]},
        {"question": "Q2", "paragraphs": [{"title": "P", "is_supporting": True}, {"title": "N"}]},
    ]
    f = parse_question_file("set.json", json.dumps(rows).encode())
    assert f.rows[0].sources == ("T1", "T2") and f.rows[1].sources == ("P",)


@pytest.mark.parametrize(
    ("name", "data", "said"),
    [
        ("empty.csv", b"", "the file is empty"),
        ("blank.jsonl", b"\n  \n", "the file is empty"),
        ("cols.csv", b"title,text\nA,B\n", "no 'question' column (its columns: 'title', 'text')"),
        ("noscore.csv", b"question,notes\nA?,B\n", "no 'answer' or 'sources' column"),
        ("obj.json", b'{"question": "A?"}', "holds one object, not a list"),
        ("bad.json", b"[{", "not readable JSON"),
        ("q.xlsx", b"PK\x03\x04", "q.xlsx"),
    ],
)
def test_a_file_that_cannot_be_used_is_one_message_naming_it(name, data, said):
    with pytest.raises(InputError) as e:
        parse_question_file(name, data)
    assert name in str(e.value) and said in str(e.value)


def test_a_huge_file_is_capped_and_says_how_many_rows_were_left():
    data = ("question,answer\n" + "".join(f"Q{n}?,a{n}\n" for n in range(50))).encode()
    f = parse_question_file("big.csv", data, max_rows=10)
    assert len(f.rows) == 10 and f.skipped == 40
    with pytest.raises(InputError, match="more than the"):
        parse_question_file("big.csv", data, max_bytes=100)


def test_encodings_utf16_and_windows_1252_and_a_bom():
    text = "question;answer\nWhere is Zürich?;Schweiz\n"
    for data in (text.encode("utf-16"), text.encode("cp1252"), b"\xef\xbb\xbf" + text.encode()):
        f = parse_question_file("enc.csv", data)
        assert f.rows[0].question == "Where is Zürich?" and f.rows[0].answers == ("Schweiz",), data[:8]

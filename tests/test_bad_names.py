"""Nothing lost to a name: a document is the path the user gave plus its content, through the Build page's path
(Workspace.add_documents / import_triples) and the CLI's, against a real Milvus Lite file."""

from __future__ import annotations

import bad_fixtures
import pytest

from vgrag.storage.check import check_graph
from vgrag.storage.writer import delete_document
from vgrag.text import doc_id

graph = bad_fixtures.graph  # the shared fixture (an empty graph); `ws` comes from conftest.py

ADA = b"Ada Lovelace worked with Charles Babbage in London."
GRACE = b"Grace Hopper wrote the first compiler at Remington Rand."
ALAN = b"Alan Turing worked at Bletchley Park during the war."


def _stored(ws, graph) -> list[str]:
    return sorted(d.name for d in ws.graph(graph).documents.all())


def _entities(ws, graph) -> set[str]:
    return {e.name for e in ws.graph(graph).iter_entities()}


@pytest.mark.parametrize(
    "names",
    [
        ("a/notes.txt", "b/notes.txt", "notes.txt"),
        ("2023/report.txt", "2024/report.txt", "report.txt"),
        ("..", "../", "\n"),
        ("C:\\a\\x.txt", "C:\\b\\x.txt", "x.txt"),
    ],
    ids=["same base name in two folders", "a year per folder", "names with nothing left", "Windows paths"],
)
def test_one_upload_keeps_every_file_whose_path_differs(ws, graph, names):
    report = ws.add_documents(list(zip(names, (ADA, GRACE, ALAN), strict=True)), graph)
    assert len(report.documents) == 3 and len(_stored(ws, graph)) == 3, report
    assert {"Ada Lovelace", "Grace Hopper", "Alan Turing"} <= _entities(ws, graph)
    assert check_graph(ws.graph(graph)).ok
    again = ws.add_documents(list(zip(names, (ADA, GRACE, ALAN), strict=True)), graph)
    assert len(again.unchanged) == 3 and again.passages_new == 0 and not again.replaced  # "Unchanged: 3" is true


def test_the_browser_sends_two_files_of_one_name(ws, graph):
    """A browser upload carries base names only: notes.txt from two folders arrive with one name."""
    report = ws.add_documents([("notes.txt", ADA), ("notes.txt", GRACE)], graph)
    assert _stored(ws, graph) == ["notes (2).txt", "notes.txt"] and report.documents == ("notes.txt", "notes (2).txt")
    again = ws.add_documents([("notes.txt", ADA), ("notes.txt", GRACE)], graph)
    assert len(again.unchanged) == 2 and again.passages_new == 0


def test_uploading_one_of_two_same_named_files_again_loses_neither(ws, graph):
    """notes.txt (Ada) and notes.txt (Grace) were stored as notes.txt and notes (2).txt; uploading Grace's alone
    again replaced Ada's document with a second copy of Grace's. Now: that content is recognised as stored, a new
    content under that name is stored beside both (nothing is replaced on a name alone) and the report says so, and
    the other order of the first upload stores nothing again."""
    ws.add_documents([("notes.txt", ADA), ("notes.txt", GRACE)], graph)
    again = ws.add_documents([("notes.txt", GRACE)], graph)
    assert again.unchanged == ("notes.txt",) and not again.replaced and again.passages_new == 0, again
    assert _stored(ws, graph) == ["notes (2).txt", "notes.txt"] and "Ada Lovelace" in _entities(ws, graph)
    new = ws.add_documents([("notes.txt", ALAN)], graph)
    assert not new.replaced and new.beside == ("notes (3).txt",) and new.documents == ("notes (3).txt",), new
    assert _stored(ws, graph) == ["notes (2).txt", "notes (3).txt", "notes.txt"]
    assert {"Ada Lovelace", "Grace Hopper", "Alan Turing"} <= _entities(ws, graph)
    swapped = ws.add_documents([("notes.txt", GRACE), ("notes.txt", ADA)], graph)
    assert len(swapped.unchanged) == 2 and swapped.passages_new == 0 and len(_stored(ws, graph)) == 3, swapped
    assert check_graph(ws.graph(graph)).ok


def test_an_edited_file_uploaded_again_by_its_base_name_replaces_the_old_one(ws, graph):
    """While one document has a name, a new content under that name is its new version (named in the report)."""
    ws.add_documents([("notes.txt", ADA)], graph)
    report = ws.add_documents([("notes.txt", GRACE)], graph)
    assert report.replaced == ("notes.txt",) and not report.beside and _stored(ws, graph) == ["notes.txt"]
    assert "Ada Lovelace" not in _entities(ws, graph) and "Grace Hopper" in _entities(ws, graph)


def test_the_same_file_twice_in_one_upload_is_stored_once(ws, graph):
    report = ws.add_documents([("notes.txt", ADA), ("notes.txt", ADA)], graph)
    assert _stored(ws, graph) == ["notes.txt"] and report.unchanged == ("notes.txt",)


def test_a_changed_file_under_the_same_path_replaces_the_old_one(ws, graph):
    ws.add_documents([("a/notes.txt", ADA), ("b/notes.txt", GRACE)], graph)
    report = ws.add_documents([("a/notes.txt", ALAN)], graph)
    assert report.replaced == ("a/notes.txt",) and _stored(ws, graph) == ["a/notes.txt", "b/notes.txt"]
    assert "Ada Lovelace" not in _entities(ws, graph) and "Grace Hopper" in _entities(ws, graph)


def test_deleting_one_of_two_same_named_files_keeps_the_other(ws, graph):
    ws.add_documents([("a/notes.txt", ADA), ("b/notes.txt", GRACE)], graph)
    g = ws.graph(graph)
    delete_document(g, doc_id("a/notes.txt"))
    assert _stored(ws, graph) == ["b/notes.txt"] and "Grace Hopper" in _entities(ws, graph)
    assert "Ada Lovelace" not in _entities(ws, graph) and check_graph(g).ok


def test_paths_given_to_the_api_keep_their_folders(ws, graph, tmp_path, monkeypatch):
    """What `python -m vgrag ingest 2023/report.txt 2024/report.txt` hands the workspace."""
    monkeypatch.chdir(tmp_path)
    for year, text in (("2023", ADA), ("2024", GRACE)):
        (tmp_path / year).mkdir()
        (tmp_path / year / "report.txt").write_bytes(text)
    report = ws.add_documents(["2023/report.txt", "2024/report.txt"], graph)
    assert report.documents == ("2023/report.txt", "2024/report.txt")
    assert {"Ada Lovelace", "Grace Hopper"} <= _entities(ws, graph)


def test_triple_files_of_one_name_from_two_folders_are_two_sources(ws, graph, tmp_path):
    rows = (b'{"passage": "Ada met Charles.", "triples": [["Ada", "met", "Charles"]]}\n',
            b'{"passage": "Grace met Alan.", "triples": [["Grace", "met", "Alan"]]}\n')  # fmt: skip
    for folder, data in zip(("x", "y"), rows, strict=True):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "t.jsonl").write_bytes(data)
        ws.import_triples(tmp_path / folder / "t.jsonl", graph)
    assert len(_stored(ws, graph)) == 2 and {"Ada", "Grace"} <= _entities(ws, graph)


def test_names_are_shown_without_control_characters_or_dot_parts(ws, graph):
    report = ws.add_documents([("../../etc/\x1b[31mpasswd.txt", ADA), ("./a\x00b\nc.txt", GRACE)], graph)
    assert report.documents == ("etc/[31mpasswd.txt", "a b c.txt")


def test_texts_without_a_name_are_each_their_own_document(ws, graph):
    """add_texts called "texts" every document it made: each call replaced the last one's."""
    ws.add_texts([ADA.decode()], graph)
    second = ws.add_texts([GRACE.decode()], graph)
    assert not second.replaced and len(_stored(ws, graph)) == 2, second
    assert {"Ada Lovelace", "Grace Hopper"} <= _entities(ws, graph)
    assert ws.add_texts([GRACE.decode()], graph).unchanged  # the same texts again: recognised


def test_the_llm_extractor_uses_the_settings_it_is_given(ws, graph):
    """The Build page's LLM extractor, set up on the Settings page (this session's settings), raised "LLM extraction
    needs an endpoint" because ingest read the process's settings; the endpoint given is the one called (here a
    closed port: the report says it cannot be reached, and the text is stored)."""
    from dataclasses import replace

    assert not ws.settings.llm.enabled
    session = replace(ws.settings, llm=replace(ws.settings.llm, base_url="http://127.0.0.1:9/v1", api_key="k"))
    report = ws.add_texts([ADA.decode()], graph, extractor="llm", settings=session)
    assert any("Cannot reach the LLM endpoint http://127.0.0.1:9/v1" in f.reason for f in report.failures), report
    assert report.chunks == 1


def test_the_same_file_under_other_path_spellings_is_stored_once(ws, graph):
    """The CLI ingested one unchanged file as ./a/notes.md, a//notes.md, an absolute path and notes.md: four more
    copies of the same passages. The same bytes are stored once, whatever the name."""
    ws.add_documents([("a/notes.md", ADA)], graph)
    again = ws.add_documents([("./a/notes.md", ADA), ("a//notes.md", ADA), ("/tmp/x/a/notes.md", ADA)], graph)
    assert len(again.unchanged) == 3 and again.passages_new == 0 and _stored(ws, graph) == ["a/notes.md"], again
    assert ws.add_documents([("notes.md", ADA)], graph).unchanged == ("notes.md",)


def test_no_upload_order_loses_a_stored_document(ws, graph):
    """notes.txt (Ada) stored; uploading [Grace, Ada] under that name replaced Ada with Grace, then called Ada
    unchanged (the other order kept both). A content already stored under the name means nothing is replaced."""
    ws.add_documents([("notes.txt", ADA)], graph)
    report = ws.add_documents([("notes.txt", GRACE), ("notes.txt", ADA)], graph)
    assert not report.replaced and report.unchanged == ("notes.txt",) and report.beside == ("notes (2).txt",), report
    assert {"Ada Lovelace", "Grace Hopper"} <= _entities(ws, graph)


def test_a_renamed_copy_and_an_edit_lose_nothing(ws, graph):
    """notes.txt (Ada) stored; [old-notes.txt (Ada), notes.txt (Grace)] reported old-notes.txt unchanged (the same
    bytes were stored under another name) and then replaced Ada with Grace: Ada was gone. The same bytes count as
    stored only under another spelling of the same file name."""
    ws.add_documents([("notes.txt", ADA)], graph)
    report = ws.add_documents([("old-notes.txt", ADA), ("notes.txt", GRACE)], graph)
    assert report.replaced == ("notes.txt",) and "old-notes.txt" in report.documents, report
    assert _stored(ws, graph) == ["notes.txt", "old-notes.txt"] and {"Ada Lovelace", "Grace Hopper"} <= _entities(
        ws, graph
    )


def test_after_a_delete_a_new_content_takes_the_free_name_and_numbers_never_collide(ws, graph):
    """Two notes.txt stored, the plain one deleted: a new notes.txt replaced 'notes (2).txt' (the other folder's
    file). Numbers were the count of documents, so a deleted (2) made two '(3)'."""
    ws.add_documents([("notes.txt", ADA), ("notes.txt", GRACE)], graph)
    ws.delete_document("notes.txt", graph)
    report = ws.add_documents([("notes.txt", ALAN)], graph)
    assert not report.replaced and _stored(ws, graph) == ["notes (2).txt", "notes.txt"], report
    assert {"Grace Hopper", "Alan Turing"} <= _entities(ws, graph)
    ws.add_documents([("notes.txt", ADA)], graph)  # three now: notes.txt, (2), (3)
    ws.delete_document("notes (2).txt", graph)
    report = ws.add_documents([("notes.txt", b"Katherine Johnson worked at NASA in Hampton.")], graph)
    assert report.beside == ("notes (2).txt",) and not report.replaced, report  # the free number, not a second (3)
    assert _stored(ws, graph) == ["notes (2).txt", "notes (3).txt", "notes.txt"]


def test_a_triple_file_under_another_spelling_of_its_path_is_stored_once(ws, graph):
    row = b'{"passage": "Grace Hopper wrote a compiler.", "triples": [["Grace Hopper", "wrote", "a compiler"]]}'
    ws.import_triples(("a/t.jsonl", row), graph)
    again = ws.import_triples(("./a/t.jsonl", row), graph)
    assert again.unchanged == ("a/t.jsonl",) and again.passages_new == 0 and _stored(ws, graph) == ["a/t.jsonl"]


def test_the_build_page_names_what_was_replaced_and_what_was_stored_beside(ws, graph):
    """The Build report said only "Replaced: 1"; it now names the replaced document and those stored beside."""
    from ui.build_tabs import named_in_report

    ws.add_documents([("notes.txt", ADA), ("notes.txt", GRACE)], graph)
    beside = named_in_report(ws.add_documents([("notes.txt", ALAN)], graph))
    assert beside == [
        "Stored beside documents of the same name (nothing is replaced on a name alone): notes (3).txt. If one of "
        "them is outdated, delete it under Source documents."
    ]
    ws.add_documents([("solo.txt", ADA + b" Again.")], graph)
    replaced = named_in_report(ws.add_documents([("solo.txt", GRACE + b" Again.")], graph))
    assert replaced == ["Replaced by their new content: solo.txt."]


def test_an_untitled_imported_passage_is_cited_by_its_file(ws, graph):
    """CSV rows carry no title: their passages were cited with an empty title."""
    rows = b"passage,subject,predicate,object\nGrace Hopper wrote a compiler.,Grace Hopper,wrote,a compiler\n"
    ws.import_triples(("data/hopper.csv", rows), graph)
    (p,) = ws.graph(graph).get_passages([pid for e in ws.graph(graph).iter_entities() for pid in e.passage_ids][:1])
    assert p.title == "hopper.csv"

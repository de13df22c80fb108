"""The edit log lives with the graph: it survives reopening, an unchanged re-ingest and an export → import; a
changed document's re-ingest applies its edits again where their targets exist and reports the others."""

from __future__ import annotations

import json

import pytest
from editgraph import bio_graph, PASSAGES, openie, snapshot
from fakes import HashEmbedder

from vgrag import Settings, Workspace
from vgrag.editing import EditError
from vgrag.storage.check import check_graph
from vgrag.storage.export import export_graph
from vgrag.text import entity_id, relation_id

JUNK = relation_id("zy:t", "born", "December 22, 1955")


@pytest.fixture
def g(ws, request):
    yield from bio_graph(ws, request, "el")


def test_edits_survive_reopening(tmp_path):
    from milvus_lite.server_manager import server_manager_instance

    path = str(tmp_path / "log.db")
    ws = Workspace.open(Settings(milvus_uri=path), HashEmbedder())
    ws.import_triples(("bio.json", openie()), graph="g")
    ws.merge_entities("CLL", "Chronic lymphocytic leukemia", graph="g")
    ws.close()
    server_manager_instance.release_server(path)
    ws = Workspace.open(Settings(milvus_uri=path), HashEmbedder())
    assert [(e.op, e.status) for e in ws.edits("g")] == [("merge", "done")]
    assert ws.graph("g").get_entities([entity_id("CLL")]) == []
    assert [u.summary for u in ws.undo(graph="g")] == ["undid #1: merged 'CLL' into 'Chronic lymphocytic leukemia'"]
    ws.close()
    server_manager_instance.release_server(path)


def test_unchanged_reingest_keeps_the_edits(ws, g):
    ws.merge_entities("CLL", "Chronic lymphocytic leukemia", graph=g)
    before = snapshot(ws.graph(g))
    report = ws.import_triples(("bio.json", openie()), graph=g)
    assert report.unchanged == ("bio.json",) and not report.edits_stale
    assert snapshot(ws.graph(g)) == before and [e.status for e in ws.edits(g)] == ["done"]


def test_changed_reingest_reapplies_what_still_applies_and_reports_the_rest(ws, g):
    ws.merge_entities("CLL", "Chronic lymphocytic leukemia", graph=g)
    ws.delete_relation(JUNK, graph=g)
    changed = [p for p in PASSAGES if p[0] != "Prize"] + [("Prize", "Thomas C. Südhof won the Nobel Prize.",
                                                             [["Thomas C. Südhof", "won", "Nobel Prize"]])]  # fmt: skip
    report = ws.import_triples(("bio.json", openie(changed)), graph=g)
    assert report.replaced == ("bio.json",)
    graph = ws.graph(g)
    assert graph.get_entities([entity_id("CLL")]) == []  # the merge applied again to the new content
    assert report.edits_reapplied == 1
    assert len(report.edits_stale) == 1 and "deleted 'zy:t born December 22, 1955'" in report.edits_stale[0]
    assert "no longer applies" in report.edits_stale[0]
    assert any("no longer applies" in f.reason for f in report.failures)
    assert [e.status for e in ws.edits(g)] == ["replayed", "stale", "done"]
    assert check_graph(graph).ok


def test_export_carries_the_log_and_an_import_replays_it(ws, g, tmp_path):
    ws.merge_entities("CLL", "Chronic lymphocytic leukemia", graph=g)
    ws.rename_entity("zy:t", "Zyta Kowalska", graph=g)
    ws.delete_relation(relation_id("Thomas C. Sudhof", "studied", "synapses"), graph=g)
    ws.undo(graph=g)
    data = export_graph(ws.graph(g), "json")
    records = json.loads(data)["edits"]
    assert [r["op"] for r in records] == ["merge", "rename", "delete_relation", "undo"]
    other = g + "_copy"
    ws.drop(other)
    ws.import_triples(("bio.json", openie()), graph=other)
    done = ws.import_edits(("export.json", data), graph=other)
    assert [e.op for e in done.applied] == ["merge", "rename"] and not done.stale
    assert snapshot(ws.graph(other)) == snapshot(ws.graph(g))
    again = ws.import_edits(("export.json", data), graph=other)  # already applied: their targets are gone
    assert not again.applied and len(again.stale) == 2 and "no entity 'CLL'" in again.stale[0][1]
    with pytest.raises(EditError, match=r"bad\.json: has no \"edits\" list"):
        ws.import_edits(("bad.json", b"{}"), graph=other)
    ws.drop(other)


def test_steps_longer_than_one_record_are_kept_in_parts(ws, g):
    import os

    from vgrag.editing.log import PART_CHARS, Edit, EditLog

    book = EditLog(ws.graph(g))
    steps = [{"k": "relations", "id": os.urandom(16).hex(), "before": None, "after": None} for _ in range(3000)]
    edit = book.begin(Edit(book.next_seq(), "delete_relation", {}, "big", 0.0, steps=steps))
    assert edit.parts > 1 and len(str(steps)) > PART_CHARS
    assert book.with_steps(book.all()[-1]).steps == steps

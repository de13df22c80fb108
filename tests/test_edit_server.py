"""The edit operations over a server URI (`milvus-lite server`: the Milvus engine, no in-process copies), as a
real server runs them: merge, edit, undo; the graph checks consistent and retrieval sees the merge."""

from __future__ import annotations

from editgraph import openie, snapshot
from test_milvus_modes import server  # noqa: F401 - the server fixture

from vgrag import Settings, Workspace
from vgrag.storage.check import check_graph
from vgrag.storage.database import Database
from vgrag.text import entity_id, relation_id


def test_edits_over_a_server_uri(server, embedder):  # noqa: F811
    ws = Workspace(Settings(milvus_uri=server), Database(server), embedder)
    ws.import_triples(("bio.json", openie()), graph="g")
    before = snapshot(ws.graph("g"))
    ws.merge_entities("CLL", "Chronic lymphocytic leukemia", graph="g")
    ws.edit_relation(relation_id("zy:t", "born", "December 22, 1955"), subject="Thomas C. Südhof", graph="g")
    g = ws.graph("g")
    assert check_graph(g).ok
    trace = ws.query("What does CLL affect?", graph="g", use_llm=False)
    assert entity_id("CLL") not in {h.id for h in trace.seeds.entity_hits}
    ws.undo(2, graph="g")
    assert snapshot(g) == before and check_graph(g).ok
    ws.close()

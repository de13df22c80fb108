"""Explore shows the spellings merged into an entity (its aliases), as plain text."""

from __future__ import annotations


from apptest import explore_search

from vgrag.extraction.extract import Extraction
from vgrag.ingest import ingest_documents
from vgrag.models import Triple


class Scripted:
    """A real Extractor: "subject | object" per text → (subject, wrote, object)."""

    name = "scripted"

    def extract_many(self, texts, titles=None):
        return [Extraction((Triple(t.split(" | ")[0], "wrote", t.split(" | ")[1].strip(".")),)) for t in texts]


def test_explore_shows_the_aliases_of_a_merged_entity(tmp_path, monkeypatch, minilm):
    from milvus_lite.server_manager import server_manager_instance

    from vgrag import Settings, Workspace

    path = str(tmp_path / "a.db")
    ws = Workspace.open(Settings(milvus_uri=path), minilm)
    graph = ws.graph("books")
    ingest_documents(graph, minilm, Scripted(), [("a.txt", b"Mary Ann Evans | Middlemarch.")])
    ingest_documents(graph, minilm, Scripted(), [("b.txt", b"Evans, Mary Ann | Silas Marner.")])
    ws.close()
    server_manager_instance.release_server(path)
    at = explore_search(monkeypatch, path, "books", "Mary Ann Evans")
    assert at.selectbox(key="entity_pick").value.startswith("Mary Ann Evans")
    assert "Also written: Evans, Mary Ann" in [t.value for t in at.text]


class Dated:
    """A real Extractor: "subject | object | when" per text → (subject, wrote, object) dated `when`."""

    name = "dated"

    def extract_many(self, texts, titles=None):
        out = []
        for t in texts:
            s, o, when = (x.strip().strip(".") for x in t.split(" | "))
            out.append(Extraction((Triple(s, "wrote", o, when),)))
        return out


def test_the_exports_carry_the_aliases_and_the_dates(graph, embedder):
    """What Explore shows of an entity and a relation — the spellings merged into it, the date of a fact — is in
    the JSON and GraphML exports too (walk22: "Also written: Captain Ruth Okonjo" was in no export)."""
    import json
    import xml.etree.ElementTree as ET

    from vgrag.storage.export import export_graph

    ingest_documents(graph, embedder, Dated(), [("a.txt", b"Mary Ann Evans | Middlemarch | 1871.")])
    ingest_documents(graph, embedder, Dated(), [("b.txt", b"Evans, Mary Ann | Silas Marner | 1861.")])
    data = json.loads(export_graph(graph, "json"))
    evans = next(e for e in data["entities"] if e["name"] == "Mary Ann Evans")
    assert evans["aliases"] == ["Evans, Mary Ann"], evans
    assert {r["object"]: r["when"] for r in data["relations"]} == {"Middlemarch": "1871", "Silas Marner": "1861"}
    xml = ET.fromstring(export_graph(graph, "graphml"))
    values = {d.text for d in xml.iter() if d.tag.endswith("data")}
    assert "Evans, Mary Ann" in values and "1871" in values, values

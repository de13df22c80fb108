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

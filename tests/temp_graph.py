"""A graph of a few named texts in the session's Milvus Lite file, dropped afterwards (verdict tests)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def temp_graph(db, embedder, graph: str, texts: dict[str, str]) -> Iterator:
    """The graph `graph` holding each text as its own document (name → text), through the Workspace the app uses."""
    from vgrag import Settings, Workspace

    ws = Workspace(Settings(milvus_uri="unused"), db, embedder)
    ws.drop(graph)
    try:
        for name, text in texts.items():
            ws.add_texts([text], graph, name=name)
        yield ws.graph(graph)
    finally:
        ws.drop(graph)


def passages_of(g, name: str) -> frozenset[str]:
    """The passage ids of the document added under `name`."""
    doc = next(d for d in g.documents.all() if d.name.startswith(name))
    return frozenset(p.id for p in g.passages_of_doc(doc.id))

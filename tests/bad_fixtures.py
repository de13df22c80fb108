"""Fixtures shared by the hostile-input tests: a workspace on the session's Milvus Lite file, and a graph of
the test's own name, empty at the start and dropped at the end."""

from __future__ import annotations

import pytest

from vgrag import Settings, Workspace


@pytest.fixture(scope="module")
def ws(db, embedder):
    return Workspace(Settings(milvus_uri="unused"), db, embedder)


@pytest.fixture
def graph(ws, request):
    name = "bad_" + "".join(c if c.isalnum() else "_" for c in request.node.name)[-30:]
    ws.drop(name)
    yield name
    ws.drop(name)

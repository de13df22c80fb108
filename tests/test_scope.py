"""Questions scoped to documents, on real Milvus Lite: passages of other documents and relations supported only by
them are never candidates — for the graph, naive and hybrid methods, through the Workspace and the CLI."""

from __future__ import annotations

import pytest

from vgrag import Settings, Workspace
from vgrag.config import QueryParams
from vgrag.query.scope import Scope, search

ACME = "Alice Smith founded Acme Corp in 1990. Acme Corp is headquartered in Springfield."
ZENITH = "Alice Smith founded Zenith Labs in 2001. Zenith Labs is headquartered in Shelbyville."
Q = "Where is the company Alice Smith founded headquartered?"


@pytest.fixture(scope="module")
def ws(db, embedder):
    w = Workspace(Settings(milvus_uri="unused"), db, embedder)
    w.drop("scoped")
    w.add_texts([ACME], "scoped", name="acme")
    w.add_texts([ZENITH], "scoped", name="zenith")
    yield w
    w.drop("scoped")


def _passages_of(ws, name):
    g = ws.graph("scoped")
    doc = next(d for d in g.documents.all() if d.name.startswith(name))
    return {p.id for p in g.passages_of_doc(doc.id)}


def _everything_read(trace) -> set[str]:
    """Every passage the trace lists or any candidate relation (seed, hop, rerank) is supported by."""
    listed = {p.id for p in trace.passages.passages}
    return listed | {p for r in trace.relations for p in r.passage_ids}


@pytest.mark.parametrize("method", ["graph", "naive", "hybrid"])
def test_excluded_documents_are_never_candidates(ws, method):
    zenith = _passages_of(ws, "zenith")
    both = ws.query(Q, "scoped", method=method, use_llm=False)
    assert zenith & {p.id for p in both.passages.passages}  # unscoped, the other company's passage is read
    scoped = ws.query(Q, "scoped", method=method, use_llm=False, exclude=["zenith.txt"])
    assert scoped.passages.passages and not zenith & _everything_read(scoped)
    assert "Shelbyville" not in scoped.answer.text
    assert scoped.params.exclude_documents == ("zenith.txt",)  # the filter is in the exported trace


@pytest.mark.parametrize("method", ["graph", "naive", "hybrid"])
def test_only_these_documents(ws, method):
    acme = _passages_of(ws, "acme")
    doc_id = next(d.id for d in ws.documents("scoped") if d.name == "zenith.txt")
    scoped = ws.query(Q, "scoped", method=method, use_llm=False, only=[doc_id])  # an id, as `docs` lists it
    assert scoped.passages.passages and not acme & _everything_read(scoped)


def test_relations_supported_only_by_excluded_passages_are_no_seeds_or_hops(ws):
    zenith = _passages_of(ws, "zenith")
    trace = ws.query(Q, "scoped", QueryParams(hops=2), use_llm=False, exclude=["zenith.txt"])
    seen = {s.id for s in trace.seeds.relation_hits} | {r for h in trace.hops for r in h.new_relation_ids}
    assert seen and all(set(trace.relation(r).passage_ids) - zenith for r in seen)
    entities = {e.name for e in trace.entities}
    assert "Zenith Labs" not in entities and "Shelbyville" not in entities


def test_a_search_widens_until_k_allowed_rows_are_found(ws, embedder):
    g = ws.graph("scoped")
    every = [h.record.id for h in g.search("passages", embedder.embed([Q]), 10)[0]]
    best = every[0]
    hits = search(g, "passages", embedder.embed([Q]), 1, Scope(excluded=frozenset({best})))[0]
    assert [h.record.id for h in hits] == [every[1]]


def test_an_unknown_document_is_a_clear_error(ws):
    with pytest.raises(ValueError, match="No document 'nope' in graph 'scoped'.*docs"):
        ws.query(Q, "scoped", use_llm=False, only=["nope"])
    with pytest.raises(ValueError, match="list of document names"):
        QueryParams(only_documents="acme")  # a bare string would be read letter by letter


def test_cli_only_and_exclude_are_repeatable(cli_run, tmp_path):
    for name, text in (("acme.txt", ACME), ("zenith.txt", ZENITH), ("other.txt", "Bob Jones likes tea.")):
        (tmp_path / name).write_text(text)

    def run(*args: str):
        return cli_run("--graph", "g", *args)  # the CLI's main() in this process (tests/cli_run.py)

    assert run("ingest", *(str(tmp_path / n) for n in ("acme.txt", "zenith.txt", "other.txt"))).returncode == 0
    r = run("query", Q, "--json", "--exclude", "zenith.txt", "--exclude", "other.txt")
    assert r.returncode == 0, r.stderr
    assert "Shelbyville" not in r.stdout and "Springfield" in r.stdout
    r = run("query", Q, "--json", "--only", "zenith.txt", "--only", "other.txt")
    assert "Springfield" not in r.stdout and "Shelbyville" in r.stdout
    r = run("query", Q, "--only", "missing.txt")
    assert r.returncode == 2 and "No document 'missing.txt'" in r.stderr

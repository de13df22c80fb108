"""LocalStore (local.py) and its in-process copies (vectors.py): exact searches and the same reads as Milvus,
following every write and delete, surviving a restart through its files, never serving a stale file — also when
another Database object on the same file wrote since."""

from __future__ import annotations

import random
import time

import numpy as np
from helpers import server_view
from milvus_lite import server_manager_instance

from vgrag.models import Triple
from vgrag.storage.database import Database
from vgrag.storage.vectors import VectorCopy
from vgrag.storage.writer import SourceChunk, delete_document, write_chunks


def _brute(matrix: np.ndarray, ids: list[str], q: np.ndarray, k: int) -> list[str]:
    unit = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)
    s = unit @ (q / np.linalg.norm(q))
    return [ids[i] for i in sorted(range(len(ids)), key=lambda i: (-s[i], ids[i]))[:k]]


def test_mirror_search_is_exact_through_upserts_and_removals(tmp_path):
    rng = np.random.default_rng(3)
    m = VectorCopy(16)
    ids = [f"x{i:04d}" for i in range(3000)]
    vecs = rng.normal(size=(3000, 16)).astype(np.float32)
    rows = [f'{{"id":"{x}","v":1}}'.encode() for x in ids]
    for start in range(0, 3000, 700):  # several writes: the matrix grows
        m.upsert(ids[start : start + 700], vecs[start : start + 700], rows[start : start + 700])
    vecs[:50] = rng.normal(size=(50, 16))  # an upsert of existing ids replaces their vectors and rows
    rows[:50] = [f'{{"id":"{x}","v":2}}'.encode() for x in ids[:50]]
    m.upsert(ids[:50], vecs[:50], rows[:50])
    gone = set(ids[100:400])
    m.remove(sorted(gone) + ["never-there"])
    keep = [i for i, x in enumerate(ids) if x not in gone]
    assert len(m) == len(keep)
    asked = [ids[2999], ids[150], ids[7], "never-there", ids[40]]  # rows moved by removals still match their ids
    assert m.rows(asked) == [rows[2999], rows[7], rows[40]]
    for q in rng.normal(size=(20, 16)).astype(np.float32):
        got = [x for x, _ in m.search(q, 7)[0]]
        assert got == _brute(vecs[keep], [ids[i] for i in keep], q, 7)
    assert m.search(vecs[:1], 0) == [[]] and len(m.search(vecs[:1], 10_000)[0]) == len(keep)

    path = tmp_path / "c.npz"
    m.save(path, "tok1")
    again = VectorCopy.load(path, "tok1", 16)
    assert again is not None and again.search(vecs[5], 5) == m.search(vecs[5], 5)
    assert again.rows([ids[i] for i in keep]) == [rows[i] for i in keep]
    assert VectorCopy.load(path, "tok2", 16) is None  # stale
    assert VectorCopy.load(path, "tok1", 32) is None  # another model
    np.savez(path, ids=np.asarray(ids), vectors=vecs, token=np.asarray("tok1"))  # an older copy, vectors only
    assert VectorCopy.load(path, "tok1", 16) is None
    path.write_bytes(b"not a numpy file")
    assert VectorCopy.load(path, "tok1", 16) is None  # unreadable: rebuilt from Milvus, never an error


def _texts(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    words = [f"w{i}" for i in range(300)]
    return [" ".join(rng.sample(words, 10)) for _ in range(n)]


def test_graph_searches_match_milvus_and_follow_writes_deletes_and_restarts(tmp_path, embedder):
    path = str(tmp_path / "m.db")
    db = Database(path)
    g = db.open_graph("m", embedder.model_id, embedder.dim)
    texts = _texts(400, 1)
    triples = lambda i: (Triple(f"E{i % 37}", "links", f"E{(i * 7) % 41}"),)  # noqa: E731 - shared entities
    write_chunks(g, embedder, [SourceChunk("d1", f"p{i}", t, i, triples(i)) for i, t in enumerate(texts[:200])])
    g.flush()
    queries = embedder.embed(_texts(15, 2))
    direct = server_view(g)  # the same graph searched by Milvus itself

    def same() -> None:
        for mine, theirs in zip(g.search("passages", queries, 8), direct.search("passages", queries, 8), strict=True):
            assert [h.record.id for h in mine] == [h.record.id for h in theirs]
            assert [round(h.score, 4) for h in mine] == [round(h.score, 4) for h in theirs]
            assert [h.record for h in mine] == [h.record for h in theirs]
        for kind in ("passages", "entities", "relations"):  # reads by key: the same records as Milvus's own
            ids = sorted(r.id for r in direct.scan(kind))
            asked = ids[::-3] + ["absent-id"] + ids[:5] + ids[:2]
            assert g.get(kind, asked) == direct.get(kind, asked)
            assert [r for r, _ in g.get_with_vectors(kind, asked)] == direct.get(kind, asked)

    same()  # first search loads the copy (and saves its file)
    folder = db.vectors_dir
    assert (folder / f"{g.coll('passages')}.npz").exists()
    write_chunks(g, embedder, [SourceChunk("d2", f"q{i}", t, i, triples(i)) for i, t in enumerate(texts[200:], 200)])
    same()  # a write after loading is searched at once
    [hit] = g.search("passages", embedder.embed([texts[300]]), 1)
    assert hit[0].record.text == texts[300]  # found at once, though never flushed
    delete_document(g, "d1")
    same()  # deleted passages are gone from the copy too
    assert texts[5] not in {h.record.text for h in g.search("passages", embedder.embed([texts[5]]), 20)[0]}
    db.close()  # never flushed since the write: its file is stale and must not be used
    server_manager_instance.release_server(path)

    db = Database(path)
    g = db.open_graph("m", embedder.model_id, embedder.dim)
    direct = server_view(g)
    same()
    [hit] = g.search("passages", embedder.embed([texts[350]]), 1)
    assert hit[0].record.text == texts[350]
    g.flush()  # saves the copies written since their last save
    db.close()
    server_manager_instance.release_server(path)

    db = Database(path)
    g = db.open_graph("m", embedder.model_id, embedder.dim)
    direct = server_view(g)
    same()
    db.drop_graph("m")
    assert not list(folder.glob("m_*.npz"))  # dropping a graph deletes its copies
    db.close()
    server_manager_instance.release_server(path)


def test_entity_and_relation_vectors_come_from_the_copy(graph, embedder):
    write_chunks(graph, embedder, [SourceChunk("d", "t", "Ada met Charles.", 0, (Triple("Ada", "met", "Charles"),))])
    [(rel, vec)] = graph.get_with_vectors("relations", [r.id for r in graph.iter_relations()])
    assert np.allclose(vec, embedder.embed([rel.text])[0], atol=1e-5)


def test_copies_load_on_demand_and_say_so(tmp_path, embedder):
    path = str(tmp_path / "w.db")
    db = Database(path)
    g = db.open_graph("w", embedder.model_id, embedder.dim)
    write_chunks(g, embedder, [SourceChunk("d", f"p{i}", t, i) for i, t in enumerate(_texts(30, 4))])
    g.flush()
    db.close()
    server_manager_instance.release_server(path)
    db = Database(path)
    g = db.open_graph("w", embedder.model_id, embedder.dim)
    assert not g.copies_loaded()  # a fresh start: the app shows a spinner while they load
    g.load_copies()
    assert g.copies_loaded() and server_view(g).copies_loaded()  # a server never needs one
    db.close()
    server_manager_instance.release_server(path)


def test_a_second_database_object_on_the_file_sees_the_firsts_commits_without_a_question_waiting(
    tmp_path, embedder, monkeypatch
):
    """Two Database objects on one Lite file in one process (the app keeps one per embedder setting): a question
    through the second finds what the first wrote, once its background look at the graph's record has run."""
    from vgrag.storage import local

    monkeypatch.setattr(local, "REFRESH_S", 0.0)
    path = str(tmp_path / "two.db")
    first, second = Database(path), Database(path)
    g1 = first.open_graph("g", embedder.model_id, embedder.dim)
    write_chunks(g1, embedder, [SourceChunk("d", "a", "Ada Quell restored the lighthouse.", 0)])
    g2 = second.open_graph("g", embedder.model_id, embedder.dim)
    g2.load_copies()
    write_chunks(g1, embedder, [SourceChunk("d", "b", "Brill harbour has a ferry to Varn.", 1)])
    query = embedder.embed(["Brill harbour ferry"])
    assert "Brill harbour has a ferry to Varn." not in {h.record.text for h in g2.search("passages", query, 2)[0]}
    g2.refresh()  # returns at once; the look runs beside the question
    for _ in range(100):
        if not g2.store._checking.locked():
            break
        time.sleep(0.05)
    assert g2.search("passages", query, 1)[0][0].record.text == "Brill harbour has a ferry to Varn."
    first.close()
    second.close()
    server_manager_instance.release_server(path)

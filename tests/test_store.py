from __future__ import annotations

from dataclasses import replace

import pytest

from vgrag.models import Triple
from vgrag.storage.check import check_graph
from vgrag.storage.database import EmbedderMismatchError, StoreError
from vgrag.storage.writer import SourceChunk, delete_document, write_chunks
from vgrag.text import display_name, entity_id, normalize_name, relation_id

T = Triple


def chunks_for(doc: str, rows: list[tuple[str, list[Triple]]]) -> list[SourceChunk]:
    return [SourceChunk(doc, doc, text, i, tuple(ts)) for i, (text, ts) in enumerate(rows)]


def test_round_trip_builds_reciprocal_graph(graph, embedder):
    chunks = chunks_for(
        "doc-a",
        [
            ("Ada Lovelace worked with Charles Babbage.", [T("Ada Lovelace", "worked with", "Charles Babbage")]),
            (
                "Charles Babbage designed the Analytical Engine.",
                [T("Charles Babbage", "designed", "Analytical Engine")],
            ),
        ],
    )
    stats = write_chunks(graph, embedder, chunks)
    assert (stats.passages_new, stats.relations_new, stats.entities_new) == (2, 2, 3)
    babbage = graph.get_entities([entity_id("Charles Babbage")])[0]
    assert babbage.name == "Charles Babbage"
    assert set(babbage.relation_ids) == {
        relation_id("Ada Lovelace", "worked with", "Charles Babbage"),
        relation_id("Charles Babbage", "designed", "Analytical Engine"),
    }
    assert set(babbage.passage_ids) == {c.passage_id for c in chunks}
    rel = graph.get_relations([relation_id("Charles Babbage", "designed", "Analytical Engine")])[0]
    assert rel.subject_id == entity_id("Charles Babbage") and rel.passage_ids == (chunks[1].passage_id,)
    psg = graph.get_passages([chunks[0].passage_id])[0]
    assert psg.relation_ids == (relation_id("Ada Lovelace", "worked with", "Charles Babbage"),)
    problems = check_graph(graph).problems  # no document registered: exactly the two doc refs are reported
    assert len(problems) == 2 and all("unknown document doc-a" in p for p in problems)
    assert graph.counts() == {"passages": 2, "entities": 3, "relations": 2}


def test_rewriting_the_same_content_changes_nothing(graph, embedder):
    chunks = chunks_for("doc-a", [("X founded Y.", [T("X Corp", "founded", "Y Ltd")])])
    write_chunks(graph, embedder, chunks)
    before = (graph.counts(), graph.get_entities([entity_id("X Corp")]))
    again = write_chunks(graph, embedder, chunks)
    assert (again.passages_new, again.relations_new, again.entities_new, again.texts_embedded) == (0, 0, 0, 0)
    assert (graph.counts(), graph.get_entities([entity_id("X Corp")])) == before


def test_shared_relation_merges_passage_lists(graph, embedder):
    t = T("Paris", "capital of", "France")
    write_chunks(graph, embedder, chunks_for("d1", [("Paris is the capital of France.", [t])]))
    write_chunks(graph, embedder, chunks_for("d2", [("France's capital is Paris.", [t])]))
    rel = graph.get_relations([relation_id(t.subject, t.predicate, t.object)])[0]
    assert len(rel.passage_ids) == 2


def test_delete_document_removes_orphans_and_fixes_survivors(db, graph, embedder):
    from vgrag.models import Document

    shared = T("Paris", "capital of", "France")
    only_b = T("Lyon", "city in", "France")
    write_chunks(graph, embedder, chunks_for("doc-a", [("Paris is the capital of France.", [shared])]))
    write_chunks(
        graph, embedder, chunks_for("doc-b", [("Paris, capital of France; Lyon is in France.", [shared, only_b])])
    )
    for d in ("doc-a", "doc-b"):
        graph.documents.put(Document(d, d, "h", 1, True, 0.0))
    assert check_graph(graph).ok
    report = delete_document(graph, "doc-b")
    assert (report.passages, report.relations, report.entities) == (1, 1, 1)  # Lyon and its relation go
    assert graph.get_entities([entity_id("Lyon")]) == []
    france = graph.get_entities([entity_id("France")])[0]
    assert france.relation_ids == (relation_id("Paris", "capital of", "France"),)
    assert len(france.passage_ids) == 1
    assert graph.get_relations([relation_id("Paris", "capital of", "France")])[0].passage_ids == france.passage_ids
    assert check_graph(graph).ok, check_graph(graph).problems
    assert [d.id for d in graph.documents.all()] == ["doc-a"]


@pytest.mark.parametrize(
    "a,b",
    [("  Zoë   Saldaña ", "zoë saldaña"), ("東京タワー", "東京タワー"), ("ＡＢＣ Corp", "abc corp"), ("Ærø", "ærø")],
)
def test_unicode_names_keep_accents_and_scripts(a, b):
    assert normalize_name(a) == b
    assert entity_id(a) == entity_id(b)


def test_unicode_entities_round_trip(graph, embedder):
    t = T("Zoë Saldaña", "visited", "東京タワー")
    write_chunks(graph, embedder, chunks_for("d", [("Zoë Saldaña visited 東京タワー.", [t])]))
    got = graph.get_entities([entity_id("zoë  saldaña"), entity_id("東京タワー")])
    assert sorted(e.name for e in got) == sorted(["Zoë Saldaña", "東京タワー"])
    assert display_name("  Zoë\tSaldaña ") == "Zoë Saldaña"
    assert entity_id("Zoe Saldana") != entity_id("Zoë Saldaña")  # accents are part of the name


def test_graphs_are_listed_dropped_and_guarded(db, embedder):
    db.open_graph("lister", embedder.model_id, embedder.dim)
    assert "lister" in [g.name for g in db.list_graphs()]
    with pytest.raises(EmbedderMismatchError, match="built with embedder test-hash-bow"):
        db.open_graph("lister", "other-model", 384)
    with pytest.raises(StoreError, match="must start with a letter"):
        db.open_graph("bad name!", embedder.model_id, embedder.dim)
    db.drop_graph("lister")
    assert "lister" not in [g.name for g in db.list_graphs()]
    assert not db.client.has_collection("lister_entities")


def test_a_graph_record_no_graph_can_have_made_is_not_listed(db, embedder):
    """Another tool sharing the server wrote graph records: a name no graph can have (shown raw, it was Markdown on
    the Overview page, and dropping it raised) and a malformed payload. Neither is listed; real graphs still are."""
    db.open_graph("real_one", embedder.model_id, embedder.dim)
    odd = "A![p](http://127.0.0.2:9/p.png) **b**"
    db.meta.put(f"graph:{odd}", "graph", odd, {"embedder": "x", "dim": 3, "created_at": 0.0})
    db.meta.put("graph:nodim", "graph", "nodim", {"embedder": "x"})
    try:
        names = [g.name for g in db.list_graphs()]
        assert "real_one" in names and odd not in names and "nodim" not in names, names
        assert db.graph_info("real_one") is not None
    finally:
        db.meta.delete([f"graph:{odd}", "graph:nodim"])
        db.drop_graph("real_one")


def test_check_reports_a_dangling_and_a_one_sided_reference(graph, embedder):
    from vgrag.models import Document

    write_chunks(
        graph, embedder, chunks_for("d", [("Paris is the capital of France.", [T("Paris", "capital of", "France")])])
    )
    graph.documents.put(Document("d", "d", "h", 1, True, 0.0))
    assert check_graph(graph).ok
    [(paris, vec)] = graph.get_with_vectors("entities", [entity_id("Paris")])
    broken = replace(paris, relation_ids=(*paris.relation_ids, "rel-missing"), passage_ids=())  # dangling, one-sided
    graph.write("entities", [(broken, vec)], {paris.id})
    graph.flush()
    problems = check_graph(graph).problems
    assert any("missing rel-missing" in p for p in problems)
    assert any("does not list passage" in p and entity_id("Paris") in p for p in problems)


def test_search_returns_the_exact_nearest_neighbours_after_flush_and_reopen(tmp_path, embedder):
    """Searches must not go through an approximate index: ids and order match a brute-force cosine ranking,
    after several insert batches, upserts, a flush and a reopen (when Lite's AUTOINDEX missed true top hits)."""
    import random

    import numpy as np
    from milvus_lite import server_manager_instance

    from vgrag.storage.database import Database

    rng = random.Random(7)
    words = [f"w{i}" for i in range(400)]
    texts = [" ".join(rng.sample(words, 12)) for _ in range(1200)]
    path = str(tmp_path / "exact.db")
    db = Database(path)
    g = db.open_graph("exact", embedder.model_id, embedder.dim)
    for start in range(0, len(texts), 300):  # several batches, then a re-write of some rows (upserts)
        write_chunks(g, embedder, [SourceChunk("d", f"p{i}", texts[i], i) for i in range(start, start + 300)])
    write_chunks(g, embedder, [SourceChunk("d", f"p{i}", texts[i], i) for i in range(0, 1200, 7)])
    db.close()
    server_manager_instance.release_server(path)

    db = Database(path)
    g = db.open_graph("exact", embedder.model_id, embedder.dim)
    coll = g.coll("passages")
    [index] = [db.client.describe_index(coll, name) for name in db.client.list_indexes(coll)]
    assert index["index_type"] == "FLAT"
    passages = {p.id: p for p in g.iter_passages()}
    ids = sorted(passages)
    matrix = embedder.embed([passages[i].full_text for i in ids])
    queries = [" ".join(rng.sample(words, 5)) for _ in range(30)]
    qv = embedder.embed(queries)
    hits = g.search("passages", qv, 10)
    for n, row in enumerate(hits):
        exact = [ids[i] for i in np.argsort(-(matrix @ qv[n]), kind="stable")[:10]]
        got = [h.record.id for h in row]
        assert set(got) == set(exact), (queries[n], got, exact)
        assert [round(h.score, 4) for h in row] == sorted((round(h.score, 4) for h in row), reverse=True)
    db.close()


def test_lexical_search_finds_rare_words_follows_writes_and_is_backfilled(tmp_path, embedder):
    """Milvus's own BM25: a rare exact word finds its passage; a deleted passage leaves the index; a graph whose
    lexical collection is missing (built before it existed) gets it filled on open."""
    from milvus_lite import server_manager_instance

    from vgrag.storage.database import Database
    from vgrag.storage.store import LEXICAL

    path = str(tmp_path / "lex.db")
    db = Database(path)
    g = db.open_graph("lex", embedder.model_id, embedder.dim)
    texts = ["Han Vodka is a brand of vodka made in Korea.", "The Eiffel Tower stands in Paris.",
             "Vodka is distilled from grain or potatoes.", "Paris is the capital of France."]  # fmt: skip
    write_chunks(g, embedder, [SourceChunk("d", f"T{i}", t, i) for i, t in enumerate(texts)])
    by_text = {p.text: p.id for p in g.iter_passages()}
    [hits] = g.lexical_search(["Which Han vodka brand?"], 3)
    assert hits[0][0] == by_text[texts[0]] and by_text[texts[2]] in [h for h, _ in hits]
    assert all(score > 0 for _, score in hits) and hits[0][1] >= hits[-1][1]
    assert by_text[texts[1]] not in [h for h, _ in hits]  # no shared word, not returned
    g.delete("passages", [by_text[texts[0]]])
    g.flush()
    [hits] = g.lexical_search(["Han vodka"], 3)
    assert by_text[texts[0]] not in [h for h, _ in hits]
    db.client.drop_collection(g.coll(LEXICAL))  # as an older version left it
    db.close()
    server_manager_instance.release_server(path)

    db = Database(path)
    g = db.open_graph("lex", embedder.model_id, embedder.dim)
    [hits] = g.lexical_search(["Eiffel Tower"], 2)
    assert hits[0][0] == by_text[texts[1]]
    db.close()
    server_manager_instance.release_server(path)


@pytest.mark.parametrize(
    ("given", "shown"),
    [("f(x)", "f(x)"), ("(500) Days of Summer", "(500) Days of Summer"), ("Paris)", "Paris"),
     ("(born 1990", "born 1990"), ("“Quoted”", "Quoted"), ("(a) and (b)", "(a) and (b)"),
     ("<b>likes</b>", "<b>likes</b>"), ('"Weird Al" Yankovic', '"Weird Al" Yankovic'), ("'Allo 'Allo!", "'Allo 'Allo"),
     ('"Heroes"', "Heroes"),
     ("Organisation for Economic Co-operation and Development (OECD)",
      "Organisation for Economic Co-operation and Development (OECD)")],
)  # fmt: skip
def test_names_keep_the_brackets_that_pair_inside_them(given, shown):
    """Every edge bracket was stripped: the HotpotQA graph held "f(x" and MuSiQue's "… Development (OECD"."""
    assert display_name(given) == shown and normalize_name(given) == shown.casefold()

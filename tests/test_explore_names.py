"""Explore's name search lists the entity whose name is what was typed, then names that begin with it, then names
whose words begin with its words, before lookalikes found by meaning (a probe typed "Calder Brothers" and got
"Calder Brothers tender" above "Calder Brothers Construction")."""

from __future__ import annotations


from apptest import explore_search

from ui.safe import md_escape
from vgrag.extraction.extract import Extraction
from vgrag.ingest import ingest_documents
from vgrag.models import Triple
from vgrag.present.names import EXACT, OTHER, PREFIX, WORD_PREFIX, match_tier, rank_by_name


def test_match_tiers():
    assert match_tier("Calder Brothers", "calder brothers") == EXACT
    assert match_tier("Northwind", "The Northwind") == EXACT
    assert match_tier("Calder Brothers", "Calder Brothers Construction") == PREFIX
    assert match_tier("Calder Bro", "Calder Brothers Construction") == PREFIX
    assert match_tier("Calder Construction", "Calder Brothers Construction") == WORD_PREFIX
    assert match_tier("Brothers Calder", "Calder Brothers Construction") == OTHER  # words out of order
    assert match_tier("Calder Brothers", "Harlow & Calder") == OTHER


def test_rank_exact_then_prefix_then_word_prefix_then_the_rest():
    hits = ["tender of Calder Brothers", "Calder B. Construction", "Calder Brothers tender", "Calder Brothers Ltd",
            "Calder Brothers"]  # fmt: skip
    names = {i: (h,) for i, h in enumerate(hits)}
    rels = {0: 9, 1: 1, 2: 1, 3: 5, 4: 0}
    assert rank_by_name("Calder Brothers", hits, names, rels) == [
        "Calder Brothers", "Calder Brothers Ltd", "Calder Brothers tender", "tender of Calder Brothers",
        "Calder B. Construction"]  # fmt: skip
    # an alias counts as the entity's name
    aliased = rank_by_name("CBC", ["Calder Brothers", "CBC Ltd"], {0: ("Calder Brothers", "CBC")}, {})
    assert aliased[0] == "Calder Brothers"


class Scripted:
    """A real Extractor: "subject | predicate | object" per text."""

    name = "scripted"

    def extract_many(self, texts, titles=None):
        return [Extraction((Triple(*[x.strip().strip(".") for x in t.split(" | ")]),)) for t in texts]


def test_explore_lists_the_prefix_name_first(tmp_path, monkeypatch, minilm):
    from milvus_lite.server_manager import server_manager_instance

    from vgrag import Settings, Workspace

    path = str(tmp_path / "n.db")
    ws = Workspace.open(Settings(milvus_uri=path), minilm)
    graph = ws.graph("town")
    docs = [
        ("a.txt", b"Calder Brothers tender | was the lowest bid for | Riverside Library."),
        ("b.txt", b"Calder Brothers Construction | won | Riverside Library contract."),
        ("c.txt", b"Calder Brothers Construction | is based in | Harlow."),
        ("d.txt", b"Calder Brothers Construction | was founded by | Tom Calder."),
    ]
    ingest_documents(graph, minilm, Scripted(), docs)
    by_meaning = [e.name for e, _ in ws.find_entities("Calder Brothers", "town", 15)]
    ws.close()
    server_manager_instance.release_server(path)
    # the premise: by meaning alone, the tender comes first
    assert by_meaning.index("Calder Brothers tender") < by_meaning.index("Calder Brothers Construction"), by_meaning
    at = explore_search(monkeypatch, path, "town", "Calder Brothers")
    options = at.selectbox(key="entity_pick").options
    assert options[0].startswith("Calder Brothers Construction"), options
    assert options[1].startswith("Calder Brothers tender"), options
    # a new search opens its own best match, though the last one is still listed (a fixed key kept it: walk22)
    at.text_input(key="entity_query").input("Harlow").run()
    pick = at.selectbox(key="entity_pick")
    assert any(o.startswith("Calder Brothers Construction") for o in pick.options), pick.options
    assert pick.value.startswith("Harlow"), (pick.value, pick.options)


def test_an_unsearched_graph_offers_its_most_connected_entities(tmp_path, monkeypatch, minilm):
    """Explore opened on a graph nobody has searched yet lists its best-connected entities (a new user does not know
    what to type); one click searches it. A name that reads as Markdown is shown literally."""
    from milvus_lite.server_manager import server_manager_instance

    from vgrag import Settings, Workspace

    path = str(tmp_path / "h.db")
    ws = Workspace.open(Settings(milvus_uri=path), minilm)
    docs = [(f"{n}.txt", line.encode()) for n, line in enumerate([
        "Calder Brothers Construction | won | Riverside Library contract.",
        "Calder Brothers Construction | is based in | Harlow.",
        "Calder Brothers Construction | was founded by | Tom Calder.",
        "**Bold** [Ltd](http://x.test) | is based in | Harlow.",
    ])]  # fmt: skip
    ingest_documents(ws.graph("town"), minilm, Scripted(), docs)
    hostile = next(e.name for e in ws.graph("town").iter_entities() if "Ltd" in e.name)  # as ingest stored it
    ws.close()
    server_manager_instance.release_server(path)
    at = explore_search(monkeypatch, path, "town", "")
    pills = at.button_group(key="hub_pick")
    assert pills.options[0] == "Calder Brothers Construction", pills.options
    assert pills.options[1] == "Harlow"
    assert "](" in hostile and md_escape(hostile) in pills.options  # shown literally, not as a link
    assert hostile not in pills.options
    pills.set_value("Harlow").run()
    assert at.text_input(key="entity_query").value == "Harlow"
    assert at.selectbox(key="entity_pick").options[0].startswith("Harlow"), at.selectbox(key="entity_pick").options

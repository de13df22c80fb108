"""Passages found by the names their titles give (titles.py): the index, its upkeep, and the passage step."""

from __future__ import annotations

import pytest
from helpers import server_view

from ui.render import step_table
from vgrag.config import QueryParams
from vgrag.models import Triple
from vgrag.present.explain import explain
from vgrag.query.retrieve import retrieve
from vgrag.query.trace import Step
from vgrag.storage.titles import TitleIndex, title_key
from vgrag.storage.writer import SourceChunk, write_chunks


@pytest.mark.parametrize(
    ("title", "key"),
    [
        ("Helen Hunt", "helen hunt"),
        ("Charmed (TV series)", "charmed"),  # mentioned without its qualifier
        ("Eddie &quot;The Eagle&quot; Edwards", "eddie the eagle edwards"),
        ("Laie, Hawaii", "laie hawaii"),
        ("M. Ward", "m ward"),
        ("Marie Curie › Early life · p. 3", "marie curie"),  # a structured document's topic heading
        ("The", ""),  # names nothing
        ("", ""),
    ],
)
def test_title_key(title, key):
    assert title_key(title) == key


def test_named_in_finds_whole_names_only():
    idx = TitleIndex([("p1", "M. Ward"), ("p2", "Laie, Hawaii"), ("p3", "The Aristocats"), ("p4", "Ward")])
    text = "Transfiguration of Vincent is an album by singer-songwriter M. Ward, recorded in Laie, Hawaii."
    assert idx.named_in(text) == {"p1", "p2", "p4"}
    assert idx.named_in("He voiced a cat in The Aristocats (1970).") == {"p3"}
    assert idx.named_in("Wardrobe and Laie") == set()  # not inside a word, not half a name
    idx.add([("p1", "Matt Ward")])  # rewritten under a new title
    assert idx.named_in(text) == {"p2", "p4"}
    idx.remove(["p2", "missing"])
    assert idx.named_in(text) == {"p4"} and len(idx) == 3


def _chunk(title: str, text: str, i: int, *triples: Triple) -> SourceChunk:
    return SourceChunk("doc", title, text, i, triples)


def test_the_index_keeps_step_with_writes_and_deletes(graph, embedder):
    """Lite (from the passages' copy) and a server (read once, then kept by this Graph's own writes) agree."""
    write_chunks(graph, embedder, [_chunk("Helen Hunt", "Helen Hunt is an actress.", 0)])
    direct = server_view(graph)  # the same collections, as a server-backed graph sees them
    mention = ["The cast also features Helen Hunt and Dan Aykroyd."]
    [hunt] = [p.id for p in graph.iter_passages()]
    assert graph.passages_named_in(mention) == direct.passages_named_in(mention) == [{hunt}]

    write_chunks(graph, embedder, [_chunk("Dan Aykroyd", "Dan Aykroyd is a comedian.", 1)])
    [dan] = [p.id for p in graph.iter_passages() if p.id != hunt]
    assert graph.passages_named_in(mention) == [{hunt, dan}]  # the Lite index took the write

    graph.delete("passages", [hunt])
    graph.flush()  # the side indexes follow commits
    direct.delete("passages", [dan])  # a server-backed graph's own delete
    direct.flush()
    assert graph.passages_named_in(mention) == [{dan}]
    assert direct.passages_named_in(mention) == [{hunt}]  # another Graph's delete is seen once reopened:
    assert server_view(graph).passages_named_in(mention) == [set()]  # read afresh: both gone


FILM = "Blue Hour is a 1999 drama film. The cast features Jane Roe and Tom Poe."
BRIDGE = "Jane Roe is an actress. She grew up in Denver."
DECOY = "The school drama club met on Tuesdays."
Q = "Where was the actress of the drama film Blue Hour raised?"


def test_a_passage_titled_by_a_name_the_evidence_mentions_joins_the_ranking(graph, embedder):
    """Offline triples miss the film → actress link ("cast features Jane Roe"); the film's passage names her, so
    her passage is its next hop and outranks a decoy that only resembles the question."""
    write_chunks(
        graph,
        embedder,
        [
            _chunk(
                "Blue Hour",
                FILM,
                0,
                Triple("Blue Hour", "is", "1999 drama film"),
                Triple("cast", "features", "Jane Roe"),
            ),
            _chunk(
                "Jane Roe", BRIDGE, 1, Triple("Jane Roe", "played", "Mona"), Triple("Jane Roe", "grew up in", "Denver")
            ),
            _chunk("Drama club", DECOY, 2, Triple("Drama club", "met on", "Tuesdays")),
        ],
    )
    q, bridge, decoy = embedder.embed([Q, BRIDGE, DECOY])
    assert float(q @ decoy) > float(q @ bridge) + 0.1  # dense search alone prefers the decoy
    p = QueryParams(entity_top_k=0, relation_top_k=0, hops=1, passage_top_k=2)
    tr = retrieve(Q, graph, embedder, p)
    film_id = next(x.id for x in graph.iter_passages() if x.title == "Blue Hour")
    ranked = tr.passages.passages
    assert [x.title for x in ranked] == ["Blue Hour", "Jane Roe"]
    assert (ranked[1].source, ranked[1].named_by, ranked[1].relation_ids) == ("named", film_id, ())
    assert tr.passages.cut[0] == next(x.id for x in graph.iter_passages() if x.title == "Drama club")
    # the Ask page's step text and table say how it was found
    assert "1 titled by a name that an evidence passage mentions" in explain(tr, Step.ANSWER)
    table, _ = step_table(tr, Step.ANSWER)
    assert list(table["found by"]) == ["graph", "named in “Blue Hour”"]

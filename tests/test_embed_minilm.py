"""The bundled MiniLM model: batching by length changes the cost, never the vectors."""

import numpy as np

TEXTS = [
    "Who founded Northwind?",
    "Northwind",
    "Priya Raman",
    "Keystone stores its user records in a service owned by the platform team, which reports to the CTO of Northwind.",
    "",
    "a " * 200,
    "Which team owns the service where Keystone stores its user records, and who leads that team today?",
]


def test_batched_vectors_equal_one_at_a_time(minilm):
    together = minilm.embed(TEXTS)
    alone = np.vstack([minilm.embed([t]) for t in TEXTS])
    assert together.shape == (len(TEXTS), minilm.dim)
    assert np.allclose(together, alone, atol=1e-4)
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)


def test_batches_never_pad_a_short_text_to_a_long_one(minilm):
    lengths = [3, 4, 5, 40, 41, 90, 6, 300]
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    batches = minilm._batches(order, lengths)
    assert sorted(i for b in batches for i in b) == list(range(len(lengths)))  # each text exactly once
    for b in batches:
        shortest, longest = min(lengths[i] for i in b), max(lengths[i] for i in b)
        assert longest <= max(2 * shortest, shortest + 8), b
        assert len(b) <= minilm._batch
    assert len(batches) < len(lengths)  # similar lengths still share a run

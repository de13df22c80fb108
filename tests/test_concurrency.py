"""A long ingest in one thread does not block queries from another (one shared client, as in the app)."""

from __future__ import annotations

import threading
import time

from vgrag.config import QueryParams
from vgrag.documents.triple_files import ImportedPassage
from vgrag.ingest import ingest_imported
from vgrag.models import Triple
from vgrag.query.pipeline import run_query
from vgrag.storage.writer import SourceChunk, write_chunks


N = 300  # passages: 6 stored batches; queries were answered by the hundred while 1,000 were stored


def test_queries_run_while_an_ingest_is_in_progress(graph, embedder):
    write_chunks(
        graph,
        embedder,
        [
            SourceChunk(
                "d0", "seed", "Alice Smith founded Acme Corp.", 0, (Triple("Alice Smith", "founded", "Acme Corp"),)
            )
        ],
    )
    passages = [
        ImportedPassage(
            f"P{i}",
            f"Person {i} knows Person {i + 1} in City {i % 9}.",
            (Triple(f"Person {i}", "knows", f"Person {i + 1}"),),
            (),
        )
        for i in range(N)
    ]
    window: dict[str, float] = {}

    def ingest() -> None:
        window["start"] = time.perf_counter()
        ingest_imported(graph, embedder, "big.jsonl", "h", passages, batch_size=50)
        window["end"] = time.perf_counter()

    t = threading.Thread(target=ingest)
    t.start()
    while "start" not in window:
        time.sleep(0.01)
    answered = []
    while t.is_alive():
        tr = run_query("Who founded Acme Corp?", graph, embedder, QueryParams(passage_top_k=3))
        answered.append((time.perf_counter(), tr))
    t.join()
    during = [tr for ts, tr in answered if ts < window["end"]]
    assert len(during) >= 3, (
        f"only {len(during)} queries finished during a {window['end'] - window['start']:.1f} s ingest"
    )
    assert all(tr.passages.passages for tr in during)
    assert graph.counts()["passages"] == N + 1


def test_spacy_loads_once_when_the_warm_up_and_a_first_query_ask_at_once(monkeypatch):
    """The app loads spaCy in a thread beside its first page (ui/state._warm_up); a query arriving meanwhile waits
    for that load instead of starting a second one (two loads: twice the memory and the CPU, ~0.5 s each)."""
    import spacy

    from vgrag import nlp

    loads: list[str] = []

    class Tokenizer:
        token_match = None
        prefix_search = None

    class Pipeline:  # what load_spacy does with a loaded pipeline: adds its paragraph and identifier components
        # and keeps identifiers whole in its tokenizer (nlp.py, tokens.py)
        Defaults = spacy.blank("en").Defaults

        def __init__(self) -> None:
            self.pipes: list[str] = []
            self.tokenizer = Tokenizer()

        def add_pipe(self, name: str, first: bool = False, after: str | None = None) -> None:
            self.pipes.insert(0, name) if first else self.pipes.append(name)

    model = Pipeline()

    def slow_load(name: str) -> object:
        loads.append(name)
        time.sleep(0.3)
        return model

    monkeypatch.setattr(spacy, "load", slow_load)
    nlp._load_spacy.cache_clear()
    try:
        got: list[object] = []
        threads = [threading.Thread(target=lambda: got.append(nlp.load_spacy())) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert got == [model] * 3 and len(loads) == 1 and model.pipes == ["vgrag_paragraphs", "vgrag_identifiers"]
    finally:
        nlp._load_spacy.cache_clear()  # the next caller loads the real model

""""Not in these documents" is said only of what no passage the question may read writes (vgrag/query/elsewhere.py;
walk23: 'nothing here names “1940”' while the catalogue, not retrieved, says "in 1940"). The verdict reads the
retrieved passages; before it claims absence from the documents, every passage in the question's scope is read.
A provenance catalogue and a loan agreement, as a museum's registrar would write them."""

from __future__ import annotations

from dataclasses import replace

import pytest
from temp_graph import passages_of, temp_graph

from vgrag.nlp import load_spacy

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="the question's parse needs spaCy's English model")

CATALOGUE = (
    "After his death in 1921 the painting passed to his daughter Margaret Pryce, who lent it to the Vance memorial "
    "exhibition at the Whitlow Gallery in 1940."
)
AGREEMENT = (
    "The Borrower shall pay the Lender a loan fee of £2,400 for the exhibition. The Work shall be credited on the "
    "label as lent by the Harwick Museum of Art."
)


def _answers(db, embedder, question: str):
    """The verdict with the catalogue hidden from retrieval, then the same retrieval read against every document."""
    from vgrag.config import QueryParams
    from vgrag.query.answer import extractive_answer
    from vgrag.query.retrieve import retrieve
    from vgrag.query.scope import Scope

    with temp_graph(db, embedder, "museum", {"catalogue": CATALOGUE, "agreement": AGREEMENT}) as g:
        hidden = passages_of(g, "catalogue")
        shown = retrieve(question, g, embedder, QueryParams(passage_top_k=1), scope=Scope(excluded=hidden))
        assert not hidden & {p.id for p in shown.passages.passages}
        scoped = extractive_answer(shown, embedder, g).verdict
        everything = extractive_answer(replace(shown, state=replace(shown.state, scope=None)), embedder, g).verdict
        return scoped, everything


def test_a_name_another_passage_writes_is_partly_found_not_absent(db, embedder):
    scoped, everything = _answers(db, embedder, "Which exhibition was the painting lent to in 1940?")
    assert scoped.kind == "missing" and "1940" in scoped.said, scoped  # the catalogue is out of the scope: absent
    assert everything.kind == "partly", everything  # the catalogue says "in 1940": not absent from the documents
    assert "1940" in everything.said and "other passages of these documents" in everything.said, everything


def test_a_name_no_passage_writes_is_still_not_in_these_documents(db, embedder):
    _, everything = _answers(db, embedder, "Which exhibition was the painting lent to in 1957?")
    assert everything.kind == "missing" and "1957" in everything.said, everything

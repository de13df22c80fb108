"""A sentence writing another spelling of a question's name that the graph records (extraction/entities.py's alias
log: 'Władysław "Walter" Nowak' makes "Walter" one of his names) states that name for the verdict
(vgrag/query/aliases.py; docs/offline-answers.md, "Session 23"), on the family-history upload's text
(tests/fixtures/nowak_family). Control: a name with no recorded spelling is not stated by another person's
sentence."""

from __future__ import annotations

import pytest
from temp_graph import temp_graph

from vgrag.nlp import load_spacy

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="the offline extractor and the parse need spaCy")

CHILDREN = ('They had five children. Władysław "Walter" Nowak (1905–1971) was my grandfather. Helen Nowak '
            "(1909–1998) never married; she kept the family letters.")  # fmt: skip
RAILROAD = "Walter worked for the Lackawanna railroad as a brakeman and later as a conductor."


def test_a_spelling_the_graph_records_states_the_name(db, embedder):
    from vgrag.query.aliases import alias_forms
    from vgrag.query.answer import extractive_answer
    from vgrag.query.retrieve import retrieve

    with temp_graph(db, embedder, "nowak", {"notes": CHILDREN, "railroad": RAILROAD}) as g:
        assert "walter" in alias_forms(g, ["Władysław Nowak"])["Władysław Nowak"]
        assert alias_forms(g, ["Helen Nowak"]) == {}
        q = "Which railroad did Władysław Nowak work for?"
        a = extractive_answer(retrieve(q, g, embedder), embedder, g)
        assert any("Lackawanna" in e.sentence for e in a.evidence)
        assert a.verdict.kind == "found", a.verdict
        # control: Helen Nowak has no other spelling; Walter's sentence says nothing of her
        q = "Which railroad did Helen Nowak work for?"
        a = extractive_answer(retrieve(q, g, embedder), embedder, g)
        assert a.verdict.kind != "found", a.verdict

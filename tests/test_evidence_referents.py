"""Who an evidence sentence's "she" is (vgrag/query/referents.py; docs/offline-answers.md, "Session 23"), on the text
of the family-history upload (tests/fixtures/nowak_family, walk22's G4): the answer step shows the name the
extractor resolves beside the pronoun, as the tool's insertion — a piece of its own, escaped, never the document's
text — and the verdict counts the sentence as stating it. Controls: a sentence naming someone before its pronoun is
left alone; a pronoun the extractor does not resolve gets nothing."""

from __future__ import annotations

import pytest
from answer_step import offline_answer

from ui.render import evidence_html
from vgrag.nlp import load_spacy
from vgrag.query.referents import referents
from vgrag.query.trace import Evidence, Referent

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="the pronouns are read from spaCy's parse")

NOTES = ("Letter from Joseph Nowak to his sister Katarzyna, 1921 › Notes on the transcription",
         "Kasia is Katarzyna Pyrek, née Nowak (1881–1950), Józef's younger sister. She married Jan Pyrek, the "
         "neighbour who was a witness at Józef's wedding in 1902. She stayed in Zakliczyn all her life.")  # fmt: skip
LETTER = ("Letter from Joseph Nowak to his sister Katarzyna, 1921 › The letter",
          "The children are well. Władek is sixteen and since the summer he works for the railroad, carrying "
          "messages in the yard. Marysia's brother Stanisław writes from Buffalo. He works at the steel plant in "
          "Lackawanna, at the furnaces.")  # fmt: skip


def _split(passages):
    from vgrag.query.sentences import as_passages, listed_sentences

    listed = as_passages(passages)
    return listed, listed_sentences(listed).split


def test_a_subject_pronoun_is_resolved_with_the_extractors_reading():
    listed, split = _split([NOTES, LETTER])
    found = dict(zip((s for _, _, s in split), referents(listed, split), strict=True))
    she = found["She married Jan Pyrek, the neighbour who was a witness at Józef's wedding in 1902."]
    assert [(r.name, r.start, r.end) for r in she] == [("Katarzyna Pyrek", 0, 3)]
    # "she … she": the chain of pronouns is followed back to the name
    assert [r.name for r in found["She stayed in Zakliczyn all her life."]] == ["Katarzyna Pyrek"]
    assert [r.name for r in found["He works at the steel plant in Lackawanna, at the furnaces."]] == ["Stanisław"]
    # controls: the sentence names Władek before its "he" (the extractor would say Marysia's children's elder);
    # a sentence naming its subject, and one with no pronoun, get nothing
    assert found["Władek is sixteen and since the summer he works for the railroad, carrying messages in the yard."] \
        == ()  # fmt: skip
    assert found["Kasia is Katarzyna Pyrek, née Nowak (1881–1950), Józef's younger sister."] == ()
    assert found["The children are well."] == ()


def test_a_definite_noun_is_the_name_the_text_tied_it_to():
    text = ("Harrow & Vane is a cutlery company in Sheffield. The company was founded in 1890 by Ada Harrow. In "
            "1932, it moved to Leeds.")  # fmt: skip
    listed, split = _split([("Cutlers", text)])
    found = [[(r.name, s[r.start : r.end]) for r in rs] for (_, _, s), rs in zip(split, referents(listed, split),
                                                                                    strict=True)]  # fmt: skip
    assert found == [[], [("Harrow & Vane", "The company")], [("Harrow & Vane", "it")]]


def test_a_definite_noun_inside_the_sentence_is_left_alone():
    # the incident report (tests/fixtures/hba_incident): "the pilot" of "The captain was the pilot flying" is no
    # subject of the main clause; read as one it was "the pilot [= PM]", from the crew table's "Co-pilot (PM)"
    from pathlib import Path

    from vgrag.ingest import plan_chunks

    pdf = Path(__file__).parent / "fixtures" / "hba_incident" / "aaib_report.pdf"
    chunks = [(c.title, c.text) for c in plan_chunks(pdf.name, pdf.read_bytes(), 1200, 0)]
    listed, split = _split(chunks)
    found = referents(listed, split)
    at = [k for k, (_, _, s) in enumerate(split) if s.startswith("The captain was the pilot flying")]
    assert at and all(found[k] == () for k in at)


def test_the_verdict_counts_the_resolved_name_and_the_evidence_shows_it():
    q = "Where did Katarzyna Pyrek stay all her life?"
    a = offline_answer(q, [NOTES], ("Katarzyna Pyrek",))
    # "She stayed in Zakliczyn …" follows a sentence that states no name: only its "she" says it is hers
    assert a.verdict.kind == "found", a.verdict
    ev = next(e for e in a.evidence if e.sentence.startswith("She stayed"))
    assert ev.shown() == "She [= Katarzyna Pyrek] stayed in Zakliczyn all her life."
    assert ("She", "") in ev.parts() and (" [= Katarzyna Pyrek]", "referent") in ev.parts()
    assert ev.sentence == "She stayed in Zakliczyn all her life."  # the document's text is untouched
    assert "She [= Katarzyna Pyrek] stayed" in a.text


def test_the_inserted_name_is_rendered_apart_and_escaped():
    e = Evidence(1, "psg-0", "Notes", "She married Jan Pyrek.", (), (Referent(0, 3, "<b>Kasia</b>"),))
    html = evidence_html(e)
    assert "<span class='referent'" in html and "Not in the document" in html
    assert "[= &lt;b&gt;Kasia&lt;/b&gt;]" in html and "<b>Kasia" not in html
    assert html.index("She") < html.index("referent") < html.index(" married")


def test_a_chosen_sentence_states_the_name_its_pronoun_stands_for():
    # the verdict's "no evidence sentence names …" reads the chosen sentences' names: "She [= Katarzyna Pyrek] …"
    # names her even when no other chosen sentence does
    from vgrag.query.evidence import describe
    from vgrag.query.referents import restated

    split = [(0, "Notes", "She stayed in Zakliczyn all her life.")]
    chosen = describe((frozenset({"stay"}),), ("Katarzyna Pyrek",), split, [()])
    assert chosen[0].names == frozenset()
    again = restated(chosen, split, [("Katarzyna Pyrek",)], ("Katarzyna Pyrek",))
    assert again[0].names == {"Katarzyna Pyrek"} and again[0].text == chosen[0].text


def test_the_replay_page_shows_the_inserted_name_apart_and_escaped():
    from dataclasses import replace

    from trace_fixtures import trace

    from vgrag.present.replay import replay_html

    tr = trace(evidence=("She married Jan Pyrek.",))
    ev = replace(tr.answer.evidence[0], referents=(Referent(0, 3, "<i>Kasia</i>"),))
    html = replay_html(replace(tr, answer=replace(tr.answer, evidence=(ev,))))
    assert '<span class="referent" title="Added by the explorer' in html
    assert "She<span" in html and "[= &lt;i&gt;Kasia&lt;/i&gt;]</span> married Jan Pyrek." in html

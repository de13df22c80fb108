"""The offline answer step: what a question asks, evidence first, a short answer only from a confident reader (none
ships; a scripted one implements the interface here) — and the answer metrics and citation numbers."""

from __future__ import annotations

import html
from pathlib import Path

import pytest

from tests.fakes import HashEmbedder
from vgrag.evaluation.bench import answer_metrics, answer_scores
from vgrag.config import QueryParams
from vgrag.nlp import Lemmas, load_spacy
from vgrag.query.answer import cited_answer, extractive_answer
from vgrag.query.evidence import MAX_EVIDENCE
from vgrag.query.question import is_english, read_question
from vgrag.query.reader import Candidate, Chain, Reading
from vgrag.query.sentences import Sentences
from vgrag.query.trace import Evidence, Mark, PassageStep, QueryEntitiesStep, QueryEntity, QueryTrace, RankedPassage
from vgrag.extraction.tags import tag_sentences
from vgrag.query.sentences import listed_sentences
from vgrag.storage.tags import SentenceTags
from vgrag.text import split_sentences

ROOT = Path(__file__).resolve().parent.parent
LIGHTHOUSE = "The Varn lighthouse was restored by Ada Quell in 1990."
PASSAGES = [("Varn lighthouse", LIGHTHOUSE), ("Ada Quell", "Ada Quell is an engineer. She was born in Brill.")]


@pytest.fixture()
def tags(graph, tmp_path, monkeypatch):
    """Scripted NER tags (the small model calls "Ada Quell" an ORG) in the graph's store, where the answer step
    reads them (a store of this test's own: the session's database shares one among its graphs)."""
    monkeypatch.setattr(graph, "tags", SentenceTags())
    store = graph.tags
    store.add([(LIGHTHOUSE, (("Varn", "GPE"), ("Ada Quell", "PERSON"), ("1990", "DATE"))),
               ("Ada Quell is an engineer.", (("Ada Quell", "PERSON"),)),
               ("She was born in Brill.", (("Brill", "GPE"),))])  # fmt: skip
    yield store


class ScriptedReader:
    """A Reader (vgrag.query.reader) that reads "Ada Quell" in the first listed sentence tagging her as a PERSON, with
    confidence 0.9, and answers only at or above `threshold`; records the sentences it was given."""

    def __init__(self, threshold: float) -> None:
        self.threshold = threshold
        self.given: list[Sentences] = []

    def read(self, asked, sentences: Sentences, chain: Chain = Chain()) -> Reading:
        self.given.append(sentences)
        for (i, _, sentence), ents in zip(sentences.split, sentences.tags, strict=True):
            if ("Ada Quell", "PERSON") in ents:
                best = Candidate("Ada Quell", "PERSON", sentence, i, 0.9)
                shown = 0.9 >= self.threshold
                return Reading("Ada Quell" if shown else "", 0.9, best, "" if shown else "not confident enough",
                               "its sentence says the question's words")  # fmt: skip
        return Reading("", 0.0, None, "no candidate answer was found in the retrieved passages", "")


def _model(threshold: float) -> ScriptedReader:
    return ScriptedReader(threshold)


@pytest.mark.parametrize(
    "question,wh,noun",
    [
        ("Who restored the lighthouse?", "who", ""),
        ("When was the lighthouse restored?", "when", ""),
        ("In which city was Ada Quell born?", "which", "city"),
        ("Which company makes the disks?", "which", "company"),
        ("In what year was the bridge opened?", "what", "year"),
        ("How many passengers does the funicular carry?", "how", "passenger"),
        ("Who is the director of the film that the city where X was born made?", "who", ""),  # not a relative "where"
    ],
)
def test_the_question_word_and_the_asked_noun(question, wh, noun):
    asked = read_question(question)
    assert asked.wh == wh and asked.noun == noun and asked.english


def test_lemmas_meet_across_inflections_through_spacys_lemmatizer():
    wanted = read_question("Who wrote the cities' histories?").lemmas
    every, lex = frozenset().union(*wanted), Lemmas()
    have = lex.found(every, "The history of the city was written by Ada.")
    assert all(w & have for w in wanted)  # each question word, in some form
    assert lex.found(every, "Ada painted a river.") == frozenset()


@pytest.mark.parametrize(
    "question,english",
    [
        ("When was Albert Einstein born?", True),
        ("Who restored the lighthouse?", True),
        ("What probed Keystone?", True),  # its first word counts though capitalised
        ("¿Dónde nació Albert Einstein?", False),
        ("Wo wurde Albert Einstein geboren?", False),
        ("爱因斯坦出生在哪里？", False),
        ("Où est né Albert Einstein ?", False),
    ],
)
def test_a_question_the_offline_models_cannot_read_is_detected(question, english):
    assert is_english(question) is english


def _trace(question: str, passages: list[tuple[str, str]], names: tuple[str, ...]) -> QueryTrace:
    ranked = tuple(RankedPassage(f"psg-{i}", t, x, 1.0 - i / 10, "dense") for i, (t, x) in enumerate(passages))
    return QueryTrace(
        question, "graph", QueryParams(),
        query_entities=QueryEntitiesStep(tuple(QueryEntity(n, "name-span") for n in names), 0.0),
        passages=PassageStep(ranked, tuple(p.id for p in ranked), (), 0.0),
    )  # fmt: skip


def test_evidence_comes_first_cited_to_listed_passages_with_names_and_answer_marked(tags, graph):
    hostile = ("<script>x</script>", "**Loud** [link](http://x) <b>bold</b>. The Varn lighthouse is tall.")
    trace = _trace("Who restored the Varn lighthouse?", [hostile, *PASSAGES], ("Varn",))
    reader = _model(0.5)
    step = extractive_answer(trace, HashEmbedder(), graph, reader)
    assert step.short == "Ada Quell" and step.evidence and len(step.evidence) <= MAX_EVIDENCE
    (given,) = reader.given  # the reader read the sentences the evidence was chosen from: split and tagged once
    assert {e.sentence for e in step.evidence} <= {x for _, _, x in given.split}
    assert given == listed_sentences(trace.passages.passages, graph.tags)
    first = step.evidence[0]
    assert first.sentence == LIGHTHOUSE and first.n == 2 and first.passage_id == "psg-1"
    kinds = {text: kind for text, kind in first.parts() if kind}
    assert kinds == {"Varn": "name", "Ada Quell": "answer"}
    assert "".join(text for text, _ in first.parts()) == LIGHTHOUSE
    assert all(1 <= e.n <= 3 and f"[{e.n}]" in step.text for e in step.evidence)
    assert {c.n for c in step.citations} == {e.n for e in step.evidence}
    assert step.how  # which signals decided it, for the page


def test_evidence_is_rendered_escaped(tags):
    from ui.render import evidence_html

    e = Evidence(1, "psg-0", "<b>T</b>", "<script>alert(1)</script> by **Ada** & co", (Mark(29, 36, "answer"),))
    out = evidence_html(e)
    assert "<script>" not in out and html.escape("<script>alert(1)</script>") in out
    assert "<mark" in out and ">**Ada**</mark>" in out and "[1]" in out and "&amp; co" in out


def test_below_the_threshold_the_answer_says_so_and_still_shows_the_evidence(tags, graph):
    trace = _trace("Who painted the lighthouse?", PASSAGES, ())
    step = extractive_answer(trace, HashEmbedder(), graph, _model(0.99))
    assert step.abstained and not step.short and step.text.startswith(step.verdict.said)
    assert step.evidence and step.citations and 0 < step.confidence < 0.99
    assert all(m.kind != "answer" for e in step.evidence for m in e.marks)  # an unshown candidate is not marked


def test_an_llm_answer_never_shows_a_number_outside_the_listed_passages():
    trace = _trace("Who restored the lighthouse?", PASSAGES, ())
    step = cited_answer(trace, "Ada Quell restored it [1][2], see also [6].", None, 1.0)
    assert "[6]" not in step.text and "[1]" in step.text and [c.n for c in step.citations] == [1, 2]
    assert "missing passage(s) [6]" in (step.error or "")


def test_answer_metrics_follow_the_squad_rules_and_count_what_was_shown():
    s = answer_scores("The Eiffel Tower, Paris", ["Paris"])
    assert s["contains"] == 1.0 and s["em"] == 0.0 and 0 < s["f1"] < 1
    trace = _trace("Who restored the lighthouse?", PASSAGES, ())
    step = extractive_answer(trace, HashEmbedder(), None, _model(0.99))
    m = answer_metrics(step, ["Ada Quell"])
    assert m["answered"] == 0.0 and m["contains"] == 0.0 and m["evidence_contains"] == 1.0


def test_the_json_trace_leads_its_answer_with_the_evidence_and_round_trips(tags, graph):
    import json
    from dataclasses import replace

    from vgrag.query.trace import trace_from_dict

    trace = _trace("Who restored the Varn lighthouse?", PASSAGES, ("Varn",))
    step = extractive_answer(trace, HashEmbedder(), graph, _model(0.5))
    full = replace(trace, answer=step)
    answer = json.loads(full.to_json())["answer"]
    assert list(answer)[:2] == ["verdict", "evidence"] and answer["evidence"][0]["sentence"] == LIGHTHOUSE
    assert answer["verdict"]["said"] and answer["verdict"]["kind"] in ("found", "partly", "missing")
    assert trace_from_dict(full.to_dict()).answer == step


def test_the_evidence_follows_the_chain_into_the_passage_the_first_sentence_names():
    """A set cover of the question's names and words; the passage about a place the chosen sentence names (the next
    hop) beats a higher-ranked one that says as many of the question's words, and nothing is said twice."""
    from vgrag.query.evidence import choose, describe

    question = read_question("What is the airport of the city where WILM is licensed?", ("WILM",))
    split = [
        (0, "WILM (AM)", "WILM is a radio station licensed to Wilmington."),
        (0, "WILM (AM)", "WILM is licensed by the commission."),  # says nothing new
        (1, "Brill", "The airport of Brill serves the city."),
        (2, "Wilmington International Airport", "The airport is north of the city."),
    ]
    ents = [[("WILM", "ORG"), ("Wilmington", "GPE")], [("WILM", "ORG")], [("Brill", "GPE")], []]
    chosen = choose(describe(question.lemmas, question.names, split, ents))
    assert [(s.passage, s.text) for s in chosen[:2]] == [(0, split[0][2]), (2, split[3][2])]
    assert split[1][2] not in [s.text for s in chosen[:2]]


def test_sentences_come_from_spacys_segmenter_and_tags_stored_for_another_split_never_mislead(tmp_path):
    """A graph tagged under the hand splitter keeps working: its stored keys no longer match, so the new sentence
    is tagged by the NER when a question needs it (and remembered), never given the old pieces' tags."""
    text = "The 1906 Cubs posted a winning percentage of. 763, before losing the World Series."
    assert split_sentences(text) == [text]  # a figure after a stray period starts no sentence (the old splitter cut)
    store = SentenceTags()
    old = ["The 1906 Cubs posted a winning percentage of.", "763, before losing the World Series."]
    store.add([(old[0], (("Cubs", "PERSON"),)), (old[1], (("763", "PERSON"),))])  # what an old ingest stored
    (tagged,) = tag_sentences(load_spacy(), split_sentences(text), store)
    assert ("763", "PERSON") not in tagged and ("Cubs", "PERSON") not in tagged
    assert all(t in text for t, _ in tagged) and "World Series" in {t.removeprefix("the ") for t, _ in tagged}
    assert store.get([text])  # tagged once, kept for the next question


def test_passages_segmented_in_one_batch_keep_their_own_sentences():
    from vgrag.text import split_texts

    texts = ["Ilse Vorn is a pilot.\n\nShe was born in Brill. She lives in Varn.", "", "The Kesh light. It shines."]
    assert split_texts([*texts, texts[0]]) == [  # new texts, one batch: each keeps its own sentences, in order
        ["Ilse Vorn is a pilot.", "She was born in Brill.", "She lives in Varn."],
        [],
        ["The Kesh light.", "It shines."],
        ["Ilse Vorn is a pilot.", "She was born in Brill.", "She lives in Varn."],
    ]
    assert split_texts(texts[2:]) == [["The Kesh light.", "It shines."]]


def test_markup_in_an_english_question_does_not_make_it_foreign():
    """A question with an HTML tag in it was "not in English" (the tag's attribute names counted as words)."""
    from vgrag.query.question import is_english

    assert is_english('<img src=x onerror="alert(1)"> **Who** founded Northwind Cloud?')
    assert is_english("Who wrote https://example.org/some/long-path-here about Keystone?")
    assert not is_english("<b>¿Dónde nació el director de Stalker?</b>")

"""Texts with no topic — a news story, an e-mail thread — name a thing once in full and then call it "the service",
"the astrolabe", "it": the definite noun alone is the name the text gave it before (pronouns.definite), and a
dateline ("GENEVA, 3 March 2025 — …") is no sentence's subject (nlp.dateline_starts)."""

from __future__ import annotations

import pytest

from offline_extract import extract_one, facts, ingested
from vgrag.nlp import load_spacy

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="spaCy model en_core_web_sm not installed")

NEWS = (
    "Leeds, 14 May 2025 — Brightwater Energy plc announced on Tuesday that it will build Humber Gateway North, a "
    "wind farm east of Hull. It expects to start construction in 2027."
)


def test_a_dateline_is_not_the_subject_of_the_story():
    got = facts([extract_one(NEWS)])
    assert ("Brightwater Energy plc", "build", "Humber Gateway North") in got, got
    assert not [f for f in got if "Leeds" in (f[0], f[2])], got  # before: "it" was Leeds, the parse's subject


def test_a_dateline_of_a_news_page_names_nothing():
    got = facts(ingested("news_article.html"))
    assert not [f for f in got if f[0].casefold() == "geneva"], got  # was "GENEVA | lost | 4.1 %"


def test_a_dash_inside_prose_is_no_dateline():
    got = facts([extract_one("In 2021, the wind farm was sold to Equinor — Norway's state energy company — for £310 "
                             "million.")])  # fmt: skip
    assert ("Equinor", "is", "Norway's state energy company") in got, got


def test_a_definite_noun_alone_is_the_name_given_before():
    text = (
        "Glaciers in the Alps lost 4.1 % of their ice in 2024, according to a report by the International "
        "Cryosphere Monitoring Service (ICMS). The service, which is based in Geneva, pools data from 38 agencies."
    )
    got = facts([extract_one(text)])
    assert ("International Cryosphere Monitoring Service", "based in", "Geneva") in got, got


def test_an_e_mail_thread_hangs_its_facts_on_the_things_it_named():
    got = facts(ingested("email_thread.md"))
    # "the Harrowgate astrolabe" … "The astrolabe was made in Leuven … by Gualterus Arsenius" … "It has not left
    # Sweden" (a quoted reply wrapped at 72 columns: one paragraph, not a sentence cut at each line end)
    assert ("Harrowgate astrolabe", "made by", "Gualterus Arsenius") in got, got
    assert ("Harrowgate astrolabe", "not left", "Sweden") in got, got
    # 'our exhibition "Measuring the Heavens"' … "The exhibition is supported by the Ashworth Foundation"
    assert ("Measuring the Heavens", "supported by", "Ashworth Foundation") in got, got


def test_the_noun_must_head_the_earlier_name():
    text = "Ravi Menon studied at the Film and Television Institute of India. The film was shot in Pune by Arun Rao."
    got = facts([extract_one(text)])
    assert not [f for f in got if f[0].startswith("Film and Television")], got  # "Film" is a word of a name


def test_a_text_with_a_topic_reads_the_noun_as_before():
    text = "The Harrowgate astrolabe is in Uppsala. The astrolabe was made in Leuven by Gualterus Arsenius."
    got = facts([extract_one(text, "Uppsala Konst- och Vetenskapsmuseum")])
    assert ("Harrowgate astrolabe", "made by", "Gualterus Arsenius") not in got, got


def test_a_quoted_reply_is_read_as_its_paragraphs():
    from vgrag.documents.structure import markdown_sections

    mail = (
        "Thanks, Jonas.\n\n> The committee approved the loan. The insurance value\n> must be raised to £180,000.\n>\n"
        ">> Dear Mr Eklund,\n>>\n>> I am writing to request the loan of the\n>> Harrowgate astrolabe.\n"
    )
    (sec,) = markdown_sections(mail)
    paras = [" ".join(p.split()) for p in sec.text.split("\n\n")]  # a paragraph's lines join with a space
    assert "The committee approved the loan. The insurance value must be raised to £180,000." in paras, paras
    assert "I am writing to request the loan of the Harrowgate astrolabe." in paras, paras
    assert ">" not in sec.text, sec.text


def test_a_noun_with_its_own_preposition_is_not_one_named_before():
    text = (
        "Fungal laccase (EC 1.10.3.2) holds four copper ions in three sites. Earlier work evolved the laccase of "
        "Myceliophthora thermophila for expression in yeast."
    )
    got = facts([extract_one(text)])
    assert not [f for f in got if f[2].startswith("Fungal laccase")], got


def test_the_noun_and_the_name_agree_in_number():
    text = (
        "The Dunmore armillary spheres were made in Leuven in 1560. In 2022 the sphere was restored by Ingrid "
        "Sandberg of Uppsala."
    )
    got = facts([extract_one(text)])
    assert not [f for f in got if f[0] == "Dunmore armillary spheres" and "Ingrid Sandberg" in f[2]], got


def test_a_table_row_is_not_the_name_a_noun_refers_to():
    got = facts(ingested("cookbook_page.html"))  # a row "Spiced Apple and Wensleydale Pie | 412 kcal | …", then
    assert not [f for f in got if "412" in f[0]], got  # "The pie provides 23 % of the reference intake …"


def test_it_is_a_noun_the_text_named_not_a_capitalised_word():
    got = facts(ingested("rail_operator/incident_log.md"))  # "Leaf fall caused a train to slide … The driver,
    assert not [f for f in got if f[2] == "Leaf fall"], got  # Aled Morgan, reported it immediately."


@pytest.mark.parametrize(
    "text",
    [
        "CIBQ-FM is a Canadian radio station that broadcasts a country music format at 105.7 FM in Brooks, Alberta.",
        'Henry Hardin "Zipp" Newman (May 24, 1894 – March 3, 1977) was an early 20th-century American sportswriter.',
        "The East -- West Schism, also called the Great Schism, was the break of communion between the churches.",
    ],
)
def test_a_hyphen_a_dash_in_brackets_or_between_two_words_is_no_dateline(text):
    assert len(list(load_spacy()(text).sents)) == 1, text  # each was cut at its dash


@pytest.mark.parametrize(
    "line", ["WASHINGTON — Senators", "LONDON, March 3 (Reuters) - Members", "Leeds, 14 May 2025 — It"]
)
def test_datelines_as_agencies_write_them(line):
    doc = load_spacy()(line + " of the committee voted on Tuesday to delay the bill.")
    assert [s.text.split()[0] for s in doc.sents][-1] == line.split()[-1], [s.text for s in doc.sents]

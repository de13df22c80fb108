"""The verdict held out on realistic uploads in domains no other fixture touches, each written with its questions
(answerable and not) and committed before the app was run on it (docs/offline-answers.md, "Session 18" and "Session
19"): a regional rail operator, a wine estate, a small company's people documents, a district council's planning
pages, a hospital ward's leaflets, and ("Session 20") a university's MSc handbook and a home-insurance policy, and
("Session 21") walk21's message-queue changelog, runbook and postmortem and a clinical trial's protocol and safety
review, and ("Session 22") walk22's air-accident report with the operator's safety bulletin and a family's notes
with a 1921 letter, and a water utility's report and charter and a school's exam regulations (tests/fixtures/<name>:
Markdown, HTML, DOCX, PDF). Asserted as measured: no answerable question is said to be "not in these documents" but
those named with why, at least as many are "found" as were, the evidence shows every answer but those named with
why, and no unanswerable question is "found" but those named with why. (The observatory upload has its own module,
tests/test_verdict_upload.py.)"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from upload_verdicts import ask_upload


@dataclass(frozen=True)
class Measured:
    found: int  # answerable questions said "found" (the rest "partly found")
    found_wrongly: frozenset[str] = frozenset()  # unanswerable questions still said "found"
    not_in_evidence: frozenset[str] = frozenset()  # answerable questions whose answer the evidence does not show
    never_found: tuple[str, ...] = ()  # unanswerable questions that must not be "found"
    missing: tuple[str, ...] = ()  # unanswerable questions that must be "not in these documents"
    missing_wrongly: frozenset[str] = frozenset()  # answerable questions still said "not in these documents"


UPLOADS = {
    # "passengers" is said only of the Harbour Branch ("closes to passengers"), reached from Dunholme Road through a
    # sentence that says nothing asked; 9 of 18 found ("Which operator were the Class 158 units transferred from?" is
    # partly: "operator" is said only of Northmoor Coaches). The customer relations manager is named in the Harbour
    # Branch section, not among the five passages retrieved; the depot manager's sentence loses the last evidence
    # slots to sentences of other passages.
    "rail_operator": Measured(
        9,
        # session 22: a date asked of a verb the files never write ("born", "built") is not in them
        missing=("When was Colin Ashworth born?", "When was the Fennick Viaduct built?",
                 "Who is the chair of the Ravenscar Steam Trust?"),  # session 24: a "who" role written nowhere
        not_in_evidence=frozenset(
            {
                "Who manages the depot where Harrowdale Valley Lines maintains its units?",
                "Who is the customer relations manager of Harrowdale Valley Lines?",
            }
        ),
    ),
    # "winemaker" is asked of Bellhaven and the one sentence saying it ("our winemaker, Tomás Rivera") does not state
    # Bellhaven; "hectares" is asked of Pinot Noir, and "The estate now farms 42 hectares of vines." does not state
    # it; a country they name no merchant in is not in the documents; "owns" is asked though its lemma is a stop
    # word. "Riesling Noble Fairlie" (no entity) is stated by the sentence stating "Noble Fairlie" and saying
    # "Riesling". The 2022 trophy was "not in these documents: nothing here names “2022”" until session 23, but the
    # vintage notes have a "2022" section: partly found (query/elsewhere.py), never found.
    "wine_estate": Measured(
        12,
        never_found=(
            "Who owns Harper & Lowe?",
            "Which Bellhaven wine won a trophy at the Marlborough Wine Show in 2022?",
        ),
        missing=(
            "Who sells Bellhaven wines in Australia?",
            "When was Anna Kessler born?",  # session 22: a value asked of a verb written nowhere
            "How much did the Kessler family pay for their share of Bellhaven Estate?",
        ),
    ),
    # "work" is asked of Daniel Osei and said only of Fernleaf's founders; "… led by Daniel Osei" and "opened in
    # 2022" are of the Leeds office, in the sentence after the Bristol one; no file mentions a mileage rate
    "hr_handbook": Measured(
        8,
        never_found=("Who leads the Bristol office?", "When did the Bristol office open?"),
        missing=(
            "What is the mileage rate for staff who travel by car?",
            "How much did Westbridge Ventures invest in Fernleaf Analytics in 2022?",  # session 22
        ),
    ),  # fmt: skip
    # the date in "Listed building consent … was granted … on 3 March 2026" is the consent's: "granted" governs it,
    # not "build" (session 20; it was "found")
    "council_planning": Measured(
        14,
        never_found=("When was St Oswald's Church built?",),
        missing=("How much will it cost to replace the roof of St Oswald's Church?",),  # session 22: "cost" unwritten
    ),
    # session 20, written and committed before the app was run on it (79ca9c6). "Dr Gallagher" is stated by "Dr
    # Fiona Gallagher"; "He did his PhD …" follows another lecturer's sentence; "She joined Kelmscott University …"
    # is the director's; no file mentions a tuition fee. Still found: the spring term of 2026, its year stated only by
    # the handbook's title ("programme handbook 2026–27"). The evidence misses the prerequisite's sentence and the
    # assessment's ("It is assessed entirely by coursework" follows a sentence the evidence does not show).
    "course_handbook": Measured(
        13,
        # session 24: the spring term of 2026 was "found", its year stated only by the handbook's title
        # ("programme handbook 2026–27"); a year is stated by a sentence's words (verdict.years_written)
        not_in_evidence=frozenset(
            {
                "Which module must students pass before they take Remote Sensing and Earth Observation?",
                "How is Programming for Environmental Scientists assessed?",
            }
        ),
        never_found=(
            "Where did Dr Kwame Boateng do his PhD?",
            "When did Professor Lena Hartmann join Kelmscott University?",
            "Who convened Hydrological Modelling in the spring term of 2026?",
        ),
        missing=("What is the tuition fee for the MSc Environmental Data Science?",),
    ),  # fmt: skip
    # session 20, as the handbook. No file mentions a chief executive. The policy number is stated only in the
    # schedule's first passage, which retrieval does not return for the sum insured (the offline extractor makes no
    # entity of "HM-H-5582031"): "not in these documents" for an answered question. The complaints passage (its
    # manager) and the payment one are not among the passages retrieved.
    "home_insurance": Measured(
        10,
        missing_wrongly=frozenset({"What is the buildings sum insured on policy HM-H-5582031?"}),
        not_in_evidence=frozenset(
            {
                "Who is Harbourside Mutual's customer relations manager?",
                "How quickly does Harbourside Mutual aim to pay an agreed claim?",
            }
        ),
        missing=(
            "Who is the chief executive of Harbourside Mutual?",
            "When was Harbourside Mutual Insurance Society founded?",  # session 22: a date of a verb written nowhere
            "When did Owen Catterall buy the engagement ring?",
        ),
    ),  # fmt: skip
    # "Joanne Pritchard trained at the University of Leeds …" is not among the evidence sentences
    "hospital_ward": Measured(
        15,
        not_in_evidence=frozenset({"Where did the ward manager of Larch Ward train?"}),
        missing=("When did Dr Adebayo Okonkwo join Northmoor General Hospital?",),  # session 22: "join" unwritten
    ),
    # session 21, written with its questions by the walk-through walk21 before the app ran on it, committed before
    # the code changed (6eeefd2). A version, a client library and a release the files never name are not in them.
    # The fix's author is in the changelog, reached from the incident only through "issue #4412", which is no
    # entity offline. (The engineer paged first is in the evidence since the postmortem PDF's timeline is read as
    # a table: "For the third quarter of 2026 the primary on-call engineer is Aisha Khan …", h-pdftables.)
    "larkspur_mq": Measured(
        2,
        not_in_evidence=frozenset(
            {
                "Who fixed the bug that caused incident INC-2291?",
                # lost at the merge of session 21 (9 → 7 of 12 on the two walk21 uploads): "The flaw was reported by
                # Jonas Berger" under "3.2.1 › Security" was hung on the product (a wrong triple that reached the
                # passage); that section no longer inherits the topic (documents.topics.refers). "The flaw" is now
                # CVE-2026-1187 (pronouns.definite: CVE-2026-1187 | reported by | Jonas Berger), but nothing links 3.2.1
                # to CVE-2026-1187: the summary table's cell is one name ("Security fix for CVE-2026-1187") and
                # "Fixed CVE-2026-1187, …" has no subject in a section with no topic; the text says "flaw", the
                # question "vulnerability"
                "Who reported the vulnerability fixed in Larkspur 3.2.1?",
                # session 22: reached once the PDF's timeline was read as a table (its event cells names), lost again
                # when a cell of a whole clause became a sentence of its own (extraction.tables: eleven 6+-word
                # names on four new-domain documents); "Aisha Khan acknowledges the page …" is not among the evidence
                "Who was paged first for INC-2291, and what is their role in the on-call rotation?",
            }
        ),
        missing=(
            "Which Larkspur version added TLS 1.3 support?",
            "Who maintains the Larkspur Python client library?",
            "When is Larkspur 4.0 scheduled to be released?",
        ),
    ),  # fmt: skip
    # session 21, as larkspur_mq. "approved" governs ORCHID-2 and Germany: stated only without Germany ("… approved
    # the change"), it is not found (it was). Since the PDF's tables are read as tables (h-pdftables) the
    # enrolment row "Site: University Hospital of Ghent; …; Randomised: 17." is in the evidence.
    "orchid2_trial": Measured(
        4,
        not_in_evidence=frozenset(
            {
                # lost when the PDF's tables were read as tables (h-pdftables): the enrolment rows, each with the
                # header "Principal investigator", now outrank "Its principal investigator is Dr. Lucía Paredes …"
                "Who is the principal investigator of the site added by Amendment 2?",
                # lost at the merge of session 21: the amendment PDF's table rows and "The sample size was raised to
                # 270 …" are paragraphs of their own now (documents.pdf_paragraphs), and the graph's passages changed
                "How many participants will ORCHID-2 enrol after Amendment 2?",
            }
        ),
        never_found=("Which ethics committee approved ORCHID-2 in Germany?",),
    ),  # fmt: skip
    # session 22, written with its questions by the walk-through walk22 before the app ran on it, committed before
    # the code changed (272d2f3). The pilot flying is "the captain" in the sentence the evidence shows and "Captain
    # Ruth Okonjo" in the crew table; the bulletin (Munro's exercise, the checklist's date) is reached from the
    # report only through the recommendations, whose sentences say what is recommended, not what was done.
    "hba_incident": Measured(
        2,
        not_in_evidence=frozenset(
            {
                "Who was the pilot flying of G-HBRX on 9 February 2026?",
                "Who answers Safety Recommendation 2026-032 for the operator?",
                "From which date does the operator's checklist implement Safety Recommendation 2026-031?",
            }
        ),
        never_found=(
            "Who was the pilot flying of G-HBRT at Sumburgh in December 2025?",
            "What was the outside air temperature when the ice detector alert sounded on G-HBRX?",
            "Who led Highland Boreal Airways' internal investigation of the G-HBRT event?",
        ),
    ),  # fmt: skip
    # session 22, as hba_incident. The letter says "He works at the steel plant" after "Marysia's brother Stanisław
    # writes from Buffalo", and "She married Jan Pyrek" after "Kasia is Katarzyna Pyrek": the evidence shows the
    # sentence with the pronoun, not the one naming the person; "Bridget Keane (née Walsh)" is not among it.
    "nowak_family": Measured(
        1,
        not_in_evidence=frozenset(
            {
                "Where did the brother of Józef Nowak's wife work in 1921?",
                "Whom did the neighbour who witnessed Józef Nowak's wedding marry?",
                "What was the maiden name of the mother of Walter Nowak's wife?",
            }
        ),
        never_found=(
            "In which cemetery is Wojciech Nowak buried?",
            "When did Stanisław Kowalczyk marry Zofia Mróz?",
            "Which ship brought Marianna Nowak and the children to America in 1907?",
        ),
    ),  # fmt: skip
    # session 22, written with their questions and committed before the app was run on them (22faad9), held out:
    # a water utility's report and charter, a school's exam regulations. A value asked of a verb the files never
    # write ("fined", "enlarged", "sat", "paid") is not in them. Found until session 24: "before Tom Henshaw"/"before
    # Helen Darby" (the only one named in the role is the question's own name) and "How many people work …" ("212,000
    # people" are supplied, and "treatment works" says *work* as a noun). The cause of the failed samples ("traced to
    # old lead pipes") is not among the evidence sentences.
    "water_utility": Measured(
        12,
        # session 24: no longer found — the only managing director named is Tom Henshaw himself (query/filler.py),
        # and "212,000 people" are supplied, not working (values.counted_by)
        never_found=(
            "Who was the managing director before Tom Henshaw?",
            "How many people work for Ashbourne Vale Water?",
            "How much water can the Millbrook boreholes supply?",
        ),
        not_in_evidence=frozenset({"What caused the failed water quality samples in Cresswell?"}),
        missing=(
            "What was the leakage in 2023?",
            "How many customers were fined for breaking the hosepipe ban?",
            "When will the Kettle Reservoir be enlarged?",
        ),
    ),
    "exam_regulations": Measured(
        10,
        never_found=("Who was the examinations officer before Helen Darby?",),  # session 24: query/filler.py
        missing=(
            "How many students sat GCSE exams at Ridgeway Academy in 2025?",
            "How much are invigilators paid?",
            "How much does a review of marking cost for a BTEC unit?",
            "What percentage of students achieved grade 4 or above in GCSE English?",
            "Where are resit exams held in November?",
        ),
    ),
    # session 24, walk24's uploads, held out for the verdict (written before the app ran; the verdict never fitted on
    # them): "Who commissioned the excavation …?" was "not in these documents" while a "who" question's verb written
    # nowhere counted ("commissioned" is "on behalf of Hollins Homes Ltd" here); it must stay partly
    "excavation_report": Measured(
        1,
        not_in_evidence=frozenset(
            {
                "Who supervised the trench in which the silver penny of King Eadred was found?",
                "Who cleaned the trumpet brooch from the Romano-British enclosure ditch?",
                "Which museum will receive the archive of the Brackenfold Farm excavation?",
                "Who commissioned the excavation at which the nummus of Constantine I was found?",
            }
        ),
        never_found=(
            "What does the silver penny of King Eadred weigh?",
            "Which volunteer found the trumpet brooch SF 17?",
        ),
    ),
    "opera_season": Measured(
        3,
        not_in_evidence=frozenset(
            {"Who designed the production of The Marriage of Figaro originally directed by Camille Dastre?"}
        ),
        never_found=("Where was Henrik Vaalund born?", "Who is the chorus master for The Marriage of Figaro?"),
    ),
}


@pytest.fixture(scope="module", params=sorted(UPLOADS))
def upload(request, db, minilm):
    return UPLOADS[request.param], ask_upload(db, minilm, request.param)


def test_unanswerable_questions_are_never_found_but_those_named(upload):
    measured, asked = upload
    found = {q for q, a in asked.items() if not a.answer and a.verdict == "found"}
    assert found <= measured.found_wrongly, found - measured.found_wrongly
    assert [q for q in measured.never_found if asked[q].verdict == "found"] == []
    assert [q for q in measured.missing if asked[q].verdict != "missing"] == []


def test_answerable_questions_are_never_said_to_be_missing(upload):
    measured, asked = upload
    answerable = [a for a in asked.values() if a.answer]
    wrong = {a.question for a in answerable if a.verdict == "missing"}
    assert wrong <= measured.missing_wrongly, wrong - measured.missing_wrongly
    assert sum(a.verdict == "found" for a in answerable) >= measured.found
    missed = {a.question for a in answerable if not a.in_evidence}
    assert missed <= measured.not_in_evidence, missed - measured.not_in_evidence

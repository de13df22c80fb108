"""Role words glued to a person's name ("Councillor David Lindqvist", "Chief Fire Officer Ruth Danvers") are no part
of it: the person is one entity under the name the document also writes, the role is a fact when it is a phrase,
and a surname after a title or a role is the one person of the document with that surname. Places, organisations
and given names stay whole. New domains: a police incident report (HTML) and a restaurant inspection (Markdown)."""

from __future__ import annotations

from offline_extract import extract_one, facts, ingested, names_of


def test_a_role_ner_leaves_out_is_a_fact_about_the_person_not_part_of_the_name():
    ex = extract_one(
        "Chief Fire Officer Ruth Danvers presented the quarterly report of the Ashbury Fire Station. The average "
        "response time in the town centre fell to six minutes.",
        "Fire service report",
    )
    assert ("Ruth Danvers", "presented report of", "Ashbury Fire Station") in facts([ex]), ex.triples
    assert ("Ruth Danvers", "is", "Chief Fire Officer") in facts([ex]), ex.triples
    assert not [n for n in names_of(ex) if "Officer Ruth" in n], ex.triples


def test_a_word_before_several_peoples_names_is_their_role():
    ex = extract_one(
        "Present: Trustee Maria Okafor (Chair), Trustee Peter Lindholm, Trustee Grace Adebayo. Trustee Peter "
        "Lindholm presented the annual accounts of the St Brannock Hospital Charity. Trustee Grace Adebayo thanked "
        "the Northgate Volunteers for their work in the wards.",
        "Minutes of the Board of Trustees",
    )
    names = names_of(ex)
    assert {"Peter Lindholm", "Grace Adebayo"} <= names, ex.triples
    assert not [n for n in names if n.startswith("Trustee")], ex.triples


def test_the_documents_own_evidence_folds_roles_and_titled_surnames_into_one_person():
    results = ingested("incident_report.html")
    names = {x for r in results for t in r.triples for x in (t.subject, t.object)}
    assert "Marcus Ellery" in names and not [n for n in names if "Inspector Marcus" in n], names
    assert ("Marcus Ellery", "authorised", "house-to-house enquiries") in facts(results)
    assert ("Beatrice Okonjo", "gave", "written statement") in facts(results)  # "Ms Okonjo gave …"
    assert not [
        n for n in names if n.startswith(("Ms ", "Detective ", "Inspector ", "Sergeant ")) and len(n.split()) > 2
    ], names


def test_a_role_shown_for_one_person_is_a_role_before_another_and_before_a_surname():
    """ "Police Constable Daniel Mercer" (NER leaves the role out) shows "Constable" is a role: "Detective Constable
    Rhys Calloway" (NER: an organisation) is Rhys Calloway, and "Detective Constable Calloway" and "Sergeant Achebe"
    (beside "Sergeant Helen Achebe" and "Helen Achebe") are the document's one person with that surname."""
    results = ingested("incident_report.html")
    names = {x for r in results for t in r.triples for x in (t.subject, t.object)}
    assert ("Rhys Calloway", "is", "Detective Constable") in facts(results), names
    assert {"Rhys Calloway", "Helen Achebe"} <= names and "Calloway" not in names, names
    assert not [n for n in names if n.endswith(("Calloway", "Achebe")) and len(n.split()) != 2], names


def test_a_role_compound_ner_missed_is_cut_once_the_document_names_the_person():
    results = ingested("food_inspection.md")
    names = {x for r in results for t in r.triples for x in (t.subject, t.object)}
    assert "Nadia Voss" in names and not [n for n in names if n.endswith("Nadia Voss") and n != "Nadia Voss"], names
    assert ("Nadia Voss", "is", "Environmental Health Officer") in facts(results)
    assert ("Ben Ashdown", "is", "Kitchen Porter") in facts(results)
    assert ("Tomasz Wielgus", "is", "Head Chef") in facts(results)  # "the head chef moved …", "Tomasz Wielgus agreed"
    assert ("Staff training records", "kept by", "Tomasz Wielgus") in facts(results)  # "… kept by Mr Wielgus"
    glued = [n for n in names if n.startswith("Ms ") or n.endswith(("Voss", "Ashdown")) and len(n.split()) > 2]
    assert not glued, names


def test_places_organisations_and_given_names_stay_whole():
    ex = extract_one(
        "General Motors opened a plant near Lake Geneva in 1998, financed by the Bank of England. Ong Teng Cheong "
        "visited the plant with Mushfiqur Rahman Gulzar.",
        "",
    )
    names = names_of(ex)
    assert {"General Motors", "Lake Geneva", "Bank of England"} <= names, ex.triples
    assert "Teng Cheong" not in names and "Rahman Gulzar" not in names, ex.triples


def test_a_given_name_the_title_starts_with_stays_in_the_name():
    ex = extract_one(
        "Holly Audrey Williams (born March 12, 1981) is an American singer-songwriter and musician. Holly Audrey "
        "Williams released the album Here with Me in 2009.",
        "Holly Williams",
    )
    assert "Audrey Williams" not in names_of(ex), ex.triples


def test_a_word_the_document_uses_as_a_common_noun_is_a_role():
    ex = extract_one(
        "Each ward is led by a matron, who reports to the Director of Nursing. Matron Eileen Cartwright presented "
        "the infection control report of the St Brannock Hospital Trust to the board.",
        "Board of Directors meeting",
    )
    assert ("Eileen Cartwright", "presented report of", "St Brannock Hospital Trust") in facts([ex]), ex.triples


def test_a_word_before_several_names_the_parser_keeps_in_them_is_a_role():
    ex = extract_one(
        "Present: Councillor Anita Sorensen, Councillor Olu Bankole, Councillor Rosa Delgado. Councillor Olu "
        "Bankole proposed the sale of the Harbour Road depot to Carrick Homes.",
        "Planning committee",
    )
    assert ("Olu Bankole", "proposed sale of", "Harbour Road depot") in facts([ex]), ex.triples


def test_a_name_the_document_also_writes_alone_loses_the_words_before_it():
    ex = extract_one(
        "Councillor Priya Raman opened the debate on the Harbour Road depot. After the vote Priya Raman withdrew "
        "her amendment and thanked Carrick Homes.",
        "Planning committee",
    )
    assert not [n for n in names_of(ex) if n.startswith("Councillor")], ex.triples


def test_a_place_before_an_institution_is_no_role():
    """ "Cedar Valley" stands before two names, and "High School" is written alone: still an institution's name, not
    a role before a person's."""
    ex = extract_one(
        "Cedar Valley High School is a public high school operated by the Cedar Valley School District. The High "
        "School was designed by Simone Achterberg and opened by Harold Pemberton.",
        "Cedar Valley High School",
    )
    said = {(t.subject, t.object) for t in ex.triples}
    assert {("Cedar Valley High School", "Cedar Valley School District")} <= said, ex.triples


def test_a_word_before_the_surname_alone_is_a_title():
    ex = extract_one(
        "Sergeant Helen Achebe took charge of the scene on Lake Road and called the Portwell Business Watch. At "
        "04:10 Sergeant Achebe closed the cordon.",
        "Incident at Kestrel Quay",
    )
    assert "Helen Achebe" in names_of(ex) and not [n for n in names_of(ex) if n.startswith("Sergeant")], ex.triples

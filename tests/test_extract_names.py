"""Names that are names and one entity per thing (#31), on clinical and contract prose: run-on list items, quantity
phrases and titles never reach a name; accents, a defined abbreviation, a surname and a glued heading fold into the
one entity the document names; a year is the relation's date, not a word of its predicate."""

from __future__ import annotations

from pathlib import Path

import pytest

from vgrag.documents.structure import entity_like
from vgrag.extraction.entities import Canonicalizer, graph_aliases
from vgrag.extraction.extract import Extraction, OfflineExtractor
from vgrag.ingest import ingest_documents
from vgrag.models import Triple
from tests.offline_extract import extract_one as _extract
from tests.offline_extract import names_of as _names
from vgrag.nlp import load_spacy

pytestmark = pytest.mark.skipif(load_spacy() is None, reason="spaCy model en_core_web_sm not installed")
FIX = Path(__file__).parent / "fixtures"


def test_a_list_run_together_is_cut_into_its_items():
    # a Markdown bullet list reaches the extractor as one stretch of words (chunks join sentences with spaces)
    ex = _extract(
        "Common adverse effects include: Skin reactions Hepatotoxicity Infertility Hair loss Chlorambucil also "
        "binds cellular proteins and damages DNA.",
        "Chlorambucil",
    )
    names = _names(ex)
    assert names and all(len(n.split()) <= 3 for n in names), names
    assert any(t.subject == "Chlorambucil" and t.predicate == "binds" for t in ex.triples), ex.triples


def test_quantity_and_determiner_phrases_are_not_entities():
    ex = _extract(
        "Chlorambucil also binds several other cellular proteins. Many patients received the drug for the first "
        "time at Charles University. The Supplier delivered many other components to Rotterdam. The agency, whose "
        "recent clients include Harbor Medical, moved its regulatory files to Boston. Ibrutinib was given to at "
        "least 400 patients at the Mayo Clinic.",
        "Chlorambucil",
    )
    names = {n.casefold() for n in _names(ex)}
    assert not [n for n in names if n.split()[0] in ("several", "many", "other", "first", "whose", "its", "least",
                                                     "at")], names  # fmt: skip
    assert "charles university" in names  # the named things stay


def test_a_title_before_a_person_is_not_part_of_the_name():
    ex = _extract("Dr. Emmanuel Mignot identified the role of hypocretin at Stanford University.", "Narcolepsy")
    names = _names(ex)
    assert "Emmanuel Mignot" in names and not [n for n in names if n.startswith("Dr")], names


def test_a_year_is_the_relation_s_date_not_a_predicate_word():
    ex = _extract("Colin Sullivan founded ResMed in 1989. Ibrutinib was approved by the FDA in 2014.", "CPAP")
    founded = [t for t in ex.triples if t.subject == "Colin Sullivan" and t.object == "ResMed"]
    assert founded and founded[0].predicate == "founded" and founded[0].when == "in 1989", ex.triples
    assert not [t.predicate for t in ex.triples if any(c.isdigit() for c in t.predicate)]


def test_accents_case_and_titles_fold_into_one_entity(graph, embedder):
    text = (b"# Chlorambucil\n\nChlorambucil was synthesised by Dr. Jindrich Polak in Prague.\n\n"
            b"## History\n\nJind\xc5\x99ich Pol\xc3\xa1k worked at Charles University until 1968.\n")  # fmt: skip
    ingest_documents(graph, embedder, OfflineExtractor(), [("notes.md", text)])
    names = [e.name for e in graph.iter_entities()]
    assert len([n for n in names if "pol" in n.casefold()]) == 1, names


def test_a_defined_abbreviation_is_one_entity_with_its_long_form(graph, embedder):
    text = (b"# Leukemia\n\nChronic lymphocytic leukemia (CLL) is a cancer of the B cells. Rudolf Virchow described "
            b"chronic lymphocytic leukemia in 1845.\n\n## Treatment\n\nIbrutinib treats CLL. Chlorambucil was used "
            b"against CLL at Charles University.\n")  # fmt: skip
    ingest_documents(graph, embedder, OfflineExtractor(), [("notes.md", text)])
    names = {e.name for e in graph.iter_entities()}
    assert "CLL" not in names, names
    (long,) = [n for n in names if n.casefold() == "chronic lymphocytic leukemia"]
    assert "CLL" in graph_aliases(graph).of(long)


def test_a_surname_in_a_later_section_is_the_person_named_in_full(graph, embedder):
    text = (b"# Narcolepsy\n\nDr. Emmanuel Mignot identified hypocretin at Stanford University.\n\n## Awards\n\n"
            b"Mignot received the Breakthrough Prize in 2023.\n")  # fmt: skip
    ingest_documents(graph, embedder, OfflineExtractor(), [("notes.md", text)])
    names = {e.name for e in graph.iter_entities()}
    assert "Mignot" not in names and "Emmanuel Mignot" in names, names
    rels = {(r.subject, r.predicate, r.object, r.when) for r in graph.iter_relations()}
    assert ("Emmanuel Mignot", "received", "Breakthrough Prize", "in 2023") in rels, rels


class Scripted:
    """An extractor that returns given triples (as an LLM might: a heading glued to a name)."""

    name = "scripted"

    def __init__(self, triples: list[Triple]) -> None:
        self.triples = triples

    def extract_many(self, texts, titles=None):
        return [Extraction(tuple(self.triples)) for _ in texts]


def test_a_heading_of_the_document_is_stripped_from_a_name(graph, embedder):
    text = b"# Thomas Sudhof\n\n## Career\n\nSudhof studied at the University of Gottingen.\n"
    glued = Scripted([Triple("Thomas Sudhof Career", "studied at", "University of Gottingen")])
    ingest_documents(graph, embedder, glued, [("bio.md", text)])
    assert {e.name for e in graph.iter_entities()} == {"Thomas Sudhof", "University of Gottingen"}


def test_the_canonicalizer_keeps_one_document_s_evidence_to_that_document():
    canon = Canonicalizer()
    canon.begin(["Narcolepsy"])
    canon.apply([Extraction((Triple("Emmanuel Mignot", "works at", "Stanford University"),),
                            people=("Emmanuel Mignot",)),
                 Extraction((Triple("Mignot", "received", "Breakthrough Prize"),))])  # fmt: skip
    assert canon.name("Mignot") == "Emmanuel Mignot"
    canon.begin(["Sleep"])  # another document: its "Mignot" is not known to be the same person
    (other,) = canon.apply([Extraction((Triple("Mignot", "founded", "Sleep Research Society"),))])
    assert other.triples[0].subject == "Mignot"


def test_the_new_domain_fixtures_meet_the_noise_targets(graph, embedder):
    files = [(n, (FIX / n).read_bytes()) for n in ("clinical_notes.md", "supply_agreement.html", "court_judgment.pdf",
                                                    "postmortem.docx")]  # fmt: skip
    ingest_documents(graph, embedder, OfflineExtractor(), files)
    names = [e.name for e in graph.iter_entities()]
    preds = {r.predicate for r in graph.iter_relations()}
    from vgrag.extraction.identity import fold

    # 6+-word names are real long names here ("Late Payment of Commercial Debts Act", "United Kingdom Warehousing
    # Association Conditions of Contract"): each written as a name, none a run-on list or a description
    assert len([n for n in names if len(n.split()) >= 6]) <= 2
    assert not [n for n in names if len(n.split()) >= 6 and not entity_like(n)], names
    assert len({fold(n) for n in names}) == len(names), sorted(names)
    assert not [p for p in preds if any(c.isdigit() for c in p)], preds
    assert not {"CLL", "OSA", "MSLT", "GDPR", "MDR", "SRE", "MTTR"} & set(names), names

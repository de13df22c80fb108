"""Review → "Suggested fixes" proposed nothing on a new user's two graphs (issue #31, walk21 finding 6), although
each had an uncertain duplicate a person should be asked about: a title written out ("Professor Varga" beside
"Professor Ines Varga"), an abbreviation defined in brackets whose letters are not the initials ("Halvorsen
Therapeutics (HTX)"), a product's short name ("Larkspur" beside "Larkspur MQ") and a name with the next cells of a
table row run on ("Aisha Khan 2026-07- 15 Add"). Graphs as the offline extractor stored them before issue #31."""

from __future__ import annotations

import pytest

from vgrag.editing.suggest import GraphView, duplicates
from vgrag.models import Entity, Passage
from vgrag.nlp import load_spacy
from vgrag.text import entity_id

needs_spacy = pytest.mark.skipif(load_spacy() is None, reason="spaCy model en_core_web_sm not installed")

PROTOCOL = ("The trial is sponsored by Halvorsen Therapeutics (HTX), a biotechnology company based in Copenhagen. The "
            "Steering Committee includes the HTX medical lead. The coordinating investigator is Professor Ines Varga "
            "of the University Hospital of Ghent. Professor Varga chairs the Steering Committee.")  # fmt: skip
POSTMORTEM = ("The outage was caused by a deadlock in the partition rebalancer of Larkspur 3.3.0. Upgrade lyra to "
              "the patch release Aisha Khan 2026-07- 15 Add a deadlock detector Priya Natarajan. Author: Aisha Khan.")
CHANGELOG = "Larkspur MQ is an open-source message queue."


def view(docs: dict[str, tuple[str, str, list[str]]]) -> GraphView:
    passages, names = [], {}
    for doc, (title, text, ents) in docs.items():
        passages.append(Passage(f"psg-{doc}", title, text, doc))
        for n in ents:
            names.setdefault(n, []).append(f"psg-{doc}")
    return GraphView([Entity(entity_id(n), n, (), tuple(p)) for n, p in names.items()], [], passages)


@needs_spacy
def test_a_written_out_title_and_a_bracketed_abbreviation_are_suggested():
    v = view({"d1": ("ORCHID-2 Protocol Summary › Sponsor", PROTOCOL, [
        "Halvorsen Therapeutics", "HTX", "HTX medical lead", "Professor Ines Varga", "Professor Varga",
        "Steering Committee", "University Hospital of Ghent"])})  # fmt: skip
    titles = {s.title for s in duplicates(v)}
    assert "merge 'Professor Varga' into 'Professor Ines Varga'" in titles
    assert "merge 'HTX' into 'Halvorsen Therapeutics'" in titles
    assert not [t for t in titles if "medical lead" in t or "Steering" in t], titles


@needs_spacy
def test_a_short_name_and_run_on_cells_are_suggested_but_not_a_document_title():
    pm = ["Larkspur", "Aisha Khan", "Aisha Khan 2026-07- 15 Add", "Priya Natarajan"]
    cl = ["Larkspur MQ", "Larkspur MQ Changelog"]
    v = view({"pm": ("Postmortem › Action items", POSTMORTEM, pm),
              "cl": ("Larkspur MQ Changelog › Added", CHANGELOG, cl)})
    titles = {s.title for s in duplicates(v)}
    assert "merge 'Larkspur' into 'Larkspur MQ'" in titles  # "Larkspur MQ Changelog" names the document
    assert "merge 'Aisha Khan 2026-07- 15 Add' into 'Aisha Khan'" in titles
    assert len(titles) == 2, titles


def test_a_number_alone_after_a_name_is_part_of_it():
    v = view({"d": ("Releases", "Windows 10 replaced Windows 8.", ["Windows 10", "Windows 8", "Windows"])})
    assert not [s.title for s in duplicates(v) if "10" in s.title and "into 'Windows'" in s.title]

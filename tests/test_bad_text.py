"""Nothing leaks from text: lone surrogates and control characters are replaced where text enters (documents,
triple files, pasted text, questions), long passages are split with a word, exports are safe to open, knobs are
checked, and the command line prints no escape codes. Real Milvus Lite, the Build page's path."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET

import bad_fixtures
import pytest
from test_retrieve import FACTS, Q

from vgrag.config import QueryParams
from vgrag.documents.triple_files import read_csv
from vgrag.ingest.passages import PASSAGE_BYTES
from vgrag.query.pipeline import run_query
from vgrag.storage.check import check_graph
from vgrag.storage.export import export_graph
from vgrag.storage.writer import SourceChunk, write_chunks

graph = bad_fixtures.graph  # the shared fixture (an empty graph); `ws` comes from conftest.py

GOOD = ("good.txt", b"Ada Lovelace worked with Charles Babbage in London.")
CONTROL = {chr(c) for c in range(32) if chr(c) not in "\t\n\r"} | {"\x7f"}


def _texts(ws, graph) -> list[str]:
    g = ws.graph(graph)
    passages = list(g.iter_passages())
    return [e.name for e in g.iter_entities()] + [p.text for p in passages] + [p.title for p in passages]


def _clean(texts: list[str]) -> bool:
    return all(not (set(t) & CONTROL) and not any("\ud800" <= c <= "\udfff" for c in t) for t in texts)


def test_a_pdf_whose_font_maps_to_a_lone_surrogate_is_stored_beside_the_good_file(ws, graph, monkeypatch):
    from pdfmake import text_pdf
    from pypdf import PageObject

    monkeypatch.setattr(PageObject, "extract_text", lambda self, *a, **k: "Grace \ud800Hopper wrote a compiler.")
    report = ws.add_documents([("font.pdf", text_pdf(["x"])), GOOD], graph)
    assert report.documents == ("font.pdf", "good.txt") and _clean(_texts(ws, graph))
    assert check_graph(ws.graph(graph)).ok


@pytest.mark.parametrize(
    "name,data",
    [
        ("s.json", json.dumps({"docs": [{"title": "T\ud800", "text": "Ada \ud800met Charles.",
                                          "extracted_triples": [["Ada\ud800", "met", "Charles"]]}]}).encode()),
        ("s.jsonl", b'{"passage": "Ada \\ud800met Charles.", "triples": [["Ada", "met\\udfff", "Charles"]]}\n'),
        ("e.jsonl", b'{"passage": "Ada \\u001b[2Jmet Charles.", "subject": "Ada\\u0000", "predicate": "met", '
                    b'"object": "Charles\\u001b]8;;http://x\\u0007"}\n'),
    ],
    ids=["OpenIE JSON with \\ud800", "JSONL with \\ud800 and \\udfff", "JSONL with ESC, NUL and BEL"],
)  # fmt: skip
def test_surrogates_and_control_characters_in_triple_files_are_replaced(ws, graph, name, data):
    ws.add_documents([GOOD], graph)
    r = ws.import_triples((name, data), graph)
    assert r.chunks == 1 and r.triples == 1 and _clean(_texts(ws, graph)), _texts(ws, graph)
    assert check_graph(ws.graph(graph)).ok


def test_escape_codes_in_a_document_never_reach_entity_names(ws, graph):
    doc = b"Ada\x1b[31m Lovelace worked with Charles\x00 Babbage.\x07 Babbage\x1b]0;pwned\x07 lived in London."
    ws.add_documents([("esc.txt", doc), GOOD], graph)
    assert _clean(_texts(ws, graph)) and "Ada Lovelace" in {e.name for e in ws.graph(graph).iter_entities()}


def test_pasted_text_and_questions_with_lone_surrogates_are_answered(ws, graph, embedder):
    r = ws.add_texts(["Ada Lovelace worked with Charles Babbage.\ud800"], graph)
    assert r.chunks == 1 and _clean(_texts(ws, graph))
    trace = ws.query("Who worked with Ada \udce9Lovelace?", graph, use_llm=False)
    assert trace.answer.text and "\udce9" not in trace.question


def test_a_passage_over_the_column_limit_is_split_and_reported_not_cut(ws, graph):
    words = " ".join(f"Sentence {i} says Ada Lovelace met Charles Babbage." for i in range(600))
    assert len(words.encode()) > PASSAGE_BYTES
    row = {"passage": words, "title": "Long", "triples": [["Ada Lovelace", "met", "Charles Babbage"]]}
    r = ws.import_triples(("long.jsonl", json.dumps(row).encode()), graph)
    [note] = r.failures
    assert note.reason.startswith("long.jsonl:") and "stored as" in note.reason
    stored = list(ws.graph(graph).iter_passages())
    assert len(stored) > 1 and all(len(p.text.encode()) <= PASSAGE_BYTES for p in stored)
    assert sum(len(p.text.split()) for p in stored) == len(words.split())  # every word kept
    assert check_graph(ws.graph(graph)).ok


def test_a_huge_chunk_of_wide_characters_is_split_before_it_is_stored(ws, graph):
    wide = " ".join("Ада Лавлейс работала с Чарльзом Бэббиджем в Лондоне 🙂." for _ in range(600)).encode()
    assert len(wide) > 2 * PASSAGE_BYTES
    r = ws.add_documents([("wide.txt", wide)], graph, chunk_chars=100_000)
    assert r.chunks > 1 and all(len(p.text.encode()) <= PASSAGE_BYTES for p in ws.graph(graph).iter_passages())


def test_openie_null_text_and_title_are_empty_not_none(ws, graph):
    doc = {"title": None, "text": None, "passage": "Ada Lovelace met Charles Babbage.", "extracted_triples": []}
    ws.import_triples(("null.json", json.dumps({"docs": [doc]}).encode()), graph)
    [p] = ws.graph(graph).iter_passages()
    assert p.text == "Ada Lovelace met Charles Babbage." and "None" not in p.title


def test_csv_export_neutralises_formulas_and_the_importer_reads_them_back(graph, embedder, db):
    g = db.open_graph(graph, embedder.model_id, embedder.dim)
    triple = ("=HYPERLINK(A1, B2", "+cmd", "@SUM(A1")
    from vgrag.models import Triple

    write_chunks(g, embedder, [SourceChunk("d", "-title", "-1 degree. =1+1", 0, (Triple(*triple),))])
    rows = list(csv.reader(io.StringIO(export_graph(g, "csv").decode())))
    assert all(not cell.startswith(("=", "+", "-", "@")) for row in rows[1:] for cell in row), rows
    [back] = read_csv(export_graph(g, "csv"), "back.csv")
    [t] = back.triples
    assert back.text == "-1 degree. =1+1" and (t.subject, t.predicate, t.object) == triple


def test_graphml_export_is_valid_xml_when_stored_names_hold_control_characters(graph, embedder, db):
    from vgrag.models import Triple

    g = db.open_graph(graph, embedder.model_id, embedder.dim)
    write_chunks(g, embedder, [SourceChunk("d", "t", "x", 0, (Triple("Ada\x1b[31m", "met\x00", "Charles\x07"),))])
    root = ET.fromstring(export_graph(g, "graphml"))  # raises on invalid XML
    assert "Ada" in ET.tostring(root, encoding="unicode")


@pytest.mark.parametrize("knobs", [{"relation_top_k": 100, "eviction_cap": 1, "sim_threshold": -1.0, "hops": 2},
                                   {"relation_top_k": 50, "eviction_cap": 2, "rerank": "similarity"}])  # fmt: skip
def test_relation_top_k_above_the_eviction_cap_keeps_every_seed(graph, embedder, db, knobs):
    g = db.open_graph(graph, embedder.model_id, embedder.dim)
    write_chunks(g, embedder, [SourceChunk("doc", "facts", t, i, (tr,)) for i, (t, tr) in enumerate(FACTS)])
    tr = run_query(Q, g, embedder, QueryParams(**knobs))
    assert tr.answer.text and {s.id for s in tr.seeds.relation_hits} <= {r.id for r in tr.relations}


@pytest.mark.parametrize(
    "knobs,word",
    [({"hops": 5}, "hops"), ({"passage_top_k": 0}, "passage_top_k"), ({"entity_top_k": -1}, "entity_top_k"),
     ({"rerank": "magic"}, "rerank"), ({"sim_threshold": 2.0}, "sim_threshold"),
     ({"eviction_cap": "10"}, "eviction_cap")],
)  # fmt: skip
def test_knobs_out_of_range_are_refused_by_name(knobs, word):
    with pytest.raises(ValueError, match=word):
        QueryParams(**knobs)


def test_cli_prints_no_escape_codes_and_refuses_a_non_utf8_question(capsys, monkeypatch):
    from vgrag import cli

    assert cli.main(["query", "caf\udce9 au lait?"]) == 2
    err = capsys.readouterr().err
    assert "not UTF-8" in err and "Traceback" not in err
    cli._out("answer \x1b[2J\x1b]0;title\x07 done\r")
    out = capsys.readouterr().out
    assert not (set(out) & (CONTROL | {"\r"})) and out.startswith("answer ")


def test_an_e_mail_autolink_in_markdown_keeps_its_address():
    """`<bob@example.com>` is an autolink in Markdown (shown as the address); the inline-HTML rule removed it."""
    from vgrag.documents.structure import strip_inline

    assert strip_inline("Email <bob@example.com> now, <b>bold</b>") == "Email bob@example.com now, bold"


def test_html_navigation_footer_and_side_content_are_not_prose_and_table_cells_stay_apart():
    """A saved web page's navigation bar ("Main page Contents Random article") and footer ("last edited … Creative
    Commons") became passages and triples; an infobox's cells ran together ("LocationBexleyheath")."""
    from vgrag.documents.sources import document_sections

    page = (b"<html><head><title>Red House</title></head><body><nav>Main page Contents Random article</nav>"
            b"<h1>Red House</h1><table><tr><th>Location</th><td>Bexleyheath, London</td></tr></table>"
            b"<p>The Red House is an Arts and Crafts building.</p><aside>Related: Kelmscott</aside>"
            b"<footer>This page was last edited on 1 May 2024. Creative Commons.</footer></body></html>")  # fmt: skip
    text = " ".join(s.text for s in document_sections("red.html", page))
    assert "Location: Bexleyheath, London" in text and "The Red House is an Arts and Crafts building." in text
    assert not any(w in text for w in ("Random article", "last edited", "Creative Commons", "Kelmscott")), text

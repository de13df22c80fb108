"""Export a whole graph as GraphML, JSON or CSV (a maintenance path: scans the collections)."""

from __future__ import annotations

import csv
import io
import json

import networkx as nx

from ..documents.inputs import clean_text
from ..documents.triple_files import SPREADSHEET_FORMULA
from .store import Graph


def edit_records(graph: Graph) -> list[dict]:
    from ..editing.transfer import edit_records as records  # editing builds on storage: imported when used

    return records(graph)


def aliases(graph: Graph) -> dict[str, tuple[str, ...]]:
    """Entity name → the other spellings merged into it (by extraction or by an edit)."""
    from ..extraction.entities import graph_aliases  # extraction builds on storage: imported when used

    return graph_aliases(graph).all()


def _cell(value: str) -> str:
    """A CSV cell a spreadsheet shows as text: a leading =, +, -, @, tab or CR gets a ' before it (the importer,
    triple_files.read_csv, takes it off again)."""
    return "'" + value if value.startswith(SPREADSHEET_FORMULA) else value


def to_networkx(graph: Graph) -> nx.MultiDiGraph:
    """Entities as nodes, relations as edges (predicate and passage ids as attributes); texts without control
    characters, which XML (GraphML) cannot hold."""
    g = nx.MultiDiGraph(name=graph.name)
    written = aliases(graph)
    for e in graph.iter_entities():
        also = " | ".join(clean_text(a) for a in written.get(e.name, ()))
        g.add_node(e.id, name=clean_text(e.name), passages=len(e.passage_ids), aliases=also)
    for r in graph.iter_relations():
        g.add_edge(
            r.subject_id,
            r.object_id,
            key=r.id,
            predicate=clean_text(r.predicate),
            when=clean_text(r.when),
            text=clean_text(r.text),
            passage_ids=",".join(r.passage_ids),
        )
    return g


def export_graph(graph: Graph, fmt: str) -> bytes:
    """The graph in `fmt` ("graphml", "json", "csv") as bytes ready to save or download."""
    if fmt == "graphml":
        buf = io.BytesIO()
        nx.write_graphml(to_networkx(graph), buf)
        return buf.getvalue()
    if fmt == "json":
        written = aliases(graph)
        data = {
            "graph": graph.name,
            "entities": [
                {
                    "id": e.id,
                    "name": e.name,
                    "aliases": list(written.get(e.name, ())),  # other spellings merged into it
                    "relation_ids": list(e.relation_ids),
                    "passage_ids": list(e.passage_ids),
                }
                for e in graph.iter_entities()
            ],
            "relations": [
                {
                    "id": r.id,
                    "subject": r.subject,
                    "predicate": r.predicate,
                    "object": r.object,
                    "when": r.when,  # the date the text gives the fact, if any
                    "subject_id": r.subject_id,
                    "object_id": r.object_id,
                    "passage_ids": list(r.passage_ids),
                }
                for r in graph.iter_relations()
            ],
            "passages": [
                {
                    "id": p.id,
                    "title": p.title,
                    "text": p.text,
                    "doc_id": p.doc_id,
                    "entity_ids": list(p.entity_ids),
                    "relation_ids": list(p.relation_ids),
                }
                for p in graph.iter_passages()
            ],
            "edits": edit_records(graph),  # the edit log (vgrag/editing): `vgrag edit replay` applies it again
        }
        return json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")
    if fmt == "csv":  # the same shape the importer reads: one row per (passage, triple), formulas disarmed
        psgs = {p.id: p for p in graph.iter_passages()}
        buf = io.StringIO()
        w = csv.writer(buf)
        w.writerow(["title", "passage", "subject", "predicate", "object"])
        for r in graph.iter_relations():
            for pid in r.passage_ids:
                p = psgs.get(pid)
                if p is not None:
                    w.writerow([_cell(x) for x in (p.title, p.text, r.subject, r.predicate, r.object)])
        return buf.getvalue().encode("utf-8")
    raise ValueError(f"unknown export format {fmt!r}: use graphml, json or csv")

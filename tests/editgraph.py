"""A small graph for the editing tests, imported as a real source document (HippoRAG OpenIE JSON) through the
Workspace, on the session's Milvus Lite file: near-duplicate names, a defined abbreviation, a junk triple."""

from __future__ import annotations

import json

from vgrag.models import Entity, Passage, Relation

PASSAGES = [
    ("Sleep", "Dr. Mignot studies narcolepsy. Emmanuel Mignot works at Stanford University.",
     [["Dr. Mignot", "studies", "narcolepsy"], ["Emmanuel Mignot", "works at", "Stanford University"]]),
    ("Leukemia", "Chronic lymphocytic leukemia (CLL) is a cancer. CLL affects B cells.",
     [["Chronic lymphocytic leukemia", "is a", "cancer"], ["CLL", "is a", "cancer"], ["CLL", "affects", "B cells"]]),
    ("Prize", "Thomas C. Südhof won the Nobel Prize in 2013. zy:t born December 22, 1955.",
     [["Thomas C. Südhof", "won", "Nobel Prize"], ["zy:t", "born", "December 22, 1955"]]),
    ("Prize 2", "Thomas C. Sudhof studied synapses in Göttingen.",
     [["Thomas C. Sudhof", "studied", "synapses"], ["Thomas C. Sudhof", "studied in", "Göttingen"]]),
]  # fmt: skip


def openie(passages=PASSAGES) -> bytes:
    docs = [{"title": t, "text": x, "extracted_triples": ts, "extracted_entities": []} for t, x, ts in passages]
    return json.dumps({"docs": docs}).encode()


def snapshot(g) -> dict:
    """The whole graph, id lists as sets (an undo may restore a list in another order)."""

    def norm(r: Entity | Relation | Passage) -> tuple:
        return tuple(frozenset(v) if isinstance(v, tuple) else v for v in r.__dict__.values())

    return {
        "entities": {e.id: norm(e) for e in g.iter_entities()},
        "relations": {r.id: norm(r) for r in g.iter_relations()},
        "passages": {p.id: norm(p) for p in g.iter_passages()},
    }


def bio_graph(ws, request, prefix: str):
    """A fresh graph of the biography passages named after the test (dropped afterwards): yields its name."""
    name = prefix + "_" + "".join(c if c.isalnum() else "_" for c in request.node.name)[-30:]
    ws.drop(name)
    ws.import_triples(("bio.json", openie()), graph=name)
    yield name
    ws.drop(name)

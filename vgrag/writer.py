"""Idempotent graph writes: add chunks with their triples, delete a source document and its orphans.

Adjacency lists are merged as set unions with what is stored, so replaying any write (after a crash,
or re-ingesting the same content) leaves the graph exactly as one clean write would.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from .embed import Embedder
from .models import Entity, Passage, Relation, Triple
from .store import ENT_IDS, ID, PSG_IDS, REL_IDS, VEC, Graph
from .text import display_name, entity_id, passage_id, relation_id

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SourceChunk:
    """A passage to store, with the triples (and extra entity names) extracted from it."""

    doc_id: str
    title: str
    text: str
    chunk_index: int
    triples: tuple[Triple, ...] = ()
    entities: tuple[str, ...] = ()

    @property
    def passage_id(self) -> str:
        return passage_id(self.doc_id, self.title, self.text)


@dataclass
class WriteStats:
    passages_new: int = 0
    entities_new: int = 0
    relations_new: int = 0
    texts_embedded: int = 0
    embed_s: float = 0.0
    store_s: float = 0.0
    skipped_triples: int = 0
    notes: list[str] = field(default_factory=list)


def write_chunks(graph: Graph, embedder: Embedder, chunks: Sequence[SourceChunk]) -> WriteStats:
    """Store chunks, their entities and relations, merging id lists with existing rows.

    The read–merge–write runs under the database's write lock, so two writers in one process never lose each
    other's merges; rows checked absent are inserted (cheaper in Milvus Lite), existing ones upserted."""
    with graph.db.write_lock:
        return _write_chunks(graph, embedder, chunks)


def _write_chunks(graph: Graph, embedder: Embedder, chunks: Sequence[SourceChunk]) -> WriteStats:
    stats = WriteStats()
    ent_name: dict[str, str] = {}
    ent_rels: dict[str, set[str]] = defaultdict(set)
    ent_psgs: dict[str, set[str]] = defaultdict(set)
    rels: dict[str, Relation] = {}
    rel_psgs: dict[str, set[str]] = defaultdict(set)
    psgs: dict[str, Passage] = {}
    psg_ents: dict[str, set[str]] = defaultdict(set)
    psg_rels: dict[str, set[str]] = defaultdict(set)

    for ch in chunks:
        pid = ch.passage_id
        psgs[pid] = Passage(pid, ch.title, ch.text, ch.doc_id, ch.chunk_index)
        for name in ch.entities:
            name = display_name(name)
            if name:
                eid = entity_id(name)
                ent_name.setdefault(eid, name)
                ent_psgs[eid].add(pid)
                psg_ents[pid].add(eid)
        for t in ch.triples:
            sid, oid = entity_id(t.subject), entity_id(t.object)
            rid = relation_id(t.subject, t.predicate, t.object)
            ent_name.setdefault(sid, t.subject)
            ent_name.setdefault(oid, t.object)
            rels.setdefault(rid, Relation(rid, t.subject, t.predicate, t.object, sid, oid))
            rel_psgs[rid].add(pid)
            for eid in (sid, oid):
                ent_rels[eid].add(rid)
                ent_psgs[eid].add(pid)
                psg_ents[pid].add(eid)
            psg_rels[pid].add(rid)

    t0 = time.perf_counter()
    old_p = {r[ID]: r for r in graph.passage_rows(list(psgs))}
    old_r = {r[ID]: r for r in graph.relation_rows(list(rels))}
    old_e = {r[ID]: r for r in graph.entity_rows(list(ent_name))}
    stats.store_s += time.perf_counter() - t0

    new_p = [pid for pid in psgs if pid not in old_p]
    new_r = [rid for rid in rels if rid not in old_r]
    new_e = [eid for eid in ent_name if eid not in old_e]
    t0 = time.perf_counter()
    texts = [psgs[i].full_text for i in new_p] + [rels[i].text for i in new_r] + [ent_name[i] for i in new_e]
    vecs = embedder.embed(texts) if texts else None
    stats.embed_s += time.perf_counter() - t0
    stats.texts_embedded = len(texts)
    vec_of: dict[str, object] = {}
    for n, i in enumerate(new_p + new_r + new_e):
        vec_of[i] = vecs[n]  # type: ignore[index]

    def merged(old: dict | None, key: str, add: set[str]) -> tuple[str, ...]:
        base = list(old[key]) if old and old.get(key) else []
        return tuple(dict.fromkeys(base + sorted(add - set(base))))

    p_rows, r_rows, e_rows = [], [], []
    for pid, p in psgs.items():
        old = old_p.get(pid)
        rec = Passage(
            p.id,
            p.title,
            p.text,
            p.doc_id,
            p.chunk_index,
            merged(old, ENT_IDS, psg_ents[pid]),
            merged(old, REL_IDS, psg_rels[pid]),
        )
        p_rows.append(graph.passage_row(rec, old[VEC] if old else vec_of[pid]))
    for rid, r in rels.items():
        old = old_r.get(rid)
        rec = Relation(
            r.id, r.subject, r.predicate, r.object, r.subject_id, r.object_id, merged(old, PSG_IDS, rel_psgs[rid])
        )
        r_rows.append(graph.relation_row(rec, old[VEC] if old else vec_of[rid]))
    for eid, name in ent_name.items():
        old = old_e.get(eid)
        rec = Entity(
            eid, old["name"] if old else name, merged(old, REL_IDS, ent_rels[eid]), merged(old, PSG_IDS, ent_psgs[eid])
        )
        e_rows.append(graph.entity_row(rec, old[VEC] if old else vec_of[eid]))

    t0 = time.perf_counter()
    # passages first, entities last: a crash leaves ids that a replay completes (as existing rows), never rows
    # that lie about their neighbours' absence
    for coll, rows, old in (
        (graph.passages, p_rows, old_p),
        (graph.relations, r_rows, old_r),
        (graph.entities, e_rows, old_e),
    ):
        graph.insert(coll, [r for r in rows if r[ID] not in old])
        graph.upsert(coll, [r for r in rows if r[ID] in old])
    graph.flush()
    stats.store_s += time.perf_counter() - t0
    stats.passages_new, stats.relations_new, stats.entities_new = len(new_p), len(new_r), len(new_e)
    return stats


@dataclass(frozen=True)
class DeleteReport:
    passages: int
    relations: int
    entities: int
    updated: int


def delete_passages(graph: Graph, passages: Sequence[Passage]) -> DeleteReport:
    """Remove passages and every relation/entity that only they supported; fix the survivors' id lists."""
    gone_p = {p.id for p in passages}
    rel_ids = {r for p in passages for r in p.relation_ids}
    ent_ids = {e for p in passages for e in p.entity_ids}
    rel_rows = {r[ID]: r for r in graph.relation_rows(sorted(rel_ids))}
    gone_r: set[str] = set()
    keep_r: list[dict] = []
    for rid, row in rel_rows.items():
        remaining = [p for p in row[PSG_IDS] if p not in gone_p]
        if remaining:
            row[PSG_IDS] = remaining
            keep_r.append(row)
        else:
            gone_r.add(rid)
            ent_ids.update((row["subject_id"], row["object_id"]))
    gone_e: set[str] = set()
    keep_e: list[dict] = []
    for row in graph.entity_rows(sorted(ent_ids)):
        rels = [r for r in row[REL_IDS] if r not in gone_r]
        ps = [p for p in row[PSG_IDS] if p not in gone_p]
        if not rels and not ps:
            gone_e.add(row[ID])
        else:
            row[REL_IDS], row[PSG_IDS] = rels, ps
            keep_e.append(row)
    # passages outside the deleted set that mention a removed relation or entity (shared relations)
    touched = {p for row in keep_r for p in row[PSG_IDS]} | {p for row in keep_e for p in row[PSG_IDS]}
    keep_p: list[dict] = []
    for row in graph.passage_rows(sorted(touched - gone_p)):
        ents = [e for e in row[ENT_IDS] if e not in gone_e]
        rels = [r for r in row[REL_IDS] if r not in gone_r]
        if ents != list(row[ENT_IDS]) or rels != list(row[REL_IDS]):
            row[ENT_IDS], row[REL_IDS] = ents, rels
            keep_p.append(row)
    with graph.db.write_lock:
        graph.upsert(graph.relations, keep_r)
        graph.upsert(graph.entities, keep_e)
        graph.upsert(graph.passages, keep_p)
        graph.delete(graph.relations, sorted(gone_r))
        graph.delete(graph.entities, sorted(gone_e))
        graph.delete(graph.passages, sorted(gone_p))
        graph.flush()
    return DeleteReport(len(gone_p), len(gone_r), len(gone_e), len(keep_r) + len(keep_e) + len(keep_p))


def delete_document(graph: Graph, doc_id: str) -> DeleteReport:
    """Delete a source document with everything only it supported."""
    report = delete_passages(graph, graph.passages_of_doc(doc_id))
    graph.forget_document(doc_id)
    return report

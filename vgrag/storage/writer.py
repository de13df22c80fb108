"""Idempotent graph writes: add chunks with their triples, delete a source document and its orphans.

Adjacency lists are merged as set unions with what is stored, so replaying any write (after a crash,
or re-ingesting the same content) leaves the graph exactly as one clean write would.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from ..embed import Embedder
from ..models import Entity, Passage, Relation, Triple
from ..text import display_name, entity_id, passage_id, relation_id
from .schema import MAX_LIST, SENTENCES, WHEN, has_column
from .store import Graph
from .tags import Tags, encode_sentences

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
    sentences: tuple[str, ...] = ()  # its sentences, as ingest split them (stored with the passage)
    tags: tuple[Tags | None, ...] = ()  # each sentence's named entities (None: not tagged), stored likewise

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
    sentences_tagged: int = 0  # sentences stored with their named entities (the answer step tags none of them)


EMBED_SLICE = 128  # texts embedded per call, so progress can be reported while a large batch embeds


def write_chunks(
    graph: Graph,
    embedder: Embedder,
    chunks: Sequence[SourceChunk],
    on_embed: Callable[[int, int], None] | None = None,
) -> WriteStats:
    """Store chunks (with their sentences and the sentences' named entities), their entities and relations,
    merging id lists with existing rows. `on_embed` hears (done, total) as the embedding goes.

    The read–merge–write of one batch runs under the graph's store lock (a short lock per batch: questions never
    take it, an edit waits one batch at most); rows checked absent are inserted, existing ones upserted."""
    with graph.lock:
        return _write_chunks(graph, embedder, chunks, on_embed)


def _embed(embedder: Embedder, texts: list[str], on_embed: Callable[[int, int], None] | None) -> np.ndarray | None:
    """Embed in slices, reporting (done, total) after each when asked."""
    if not texts:
        return None
    if on_embed is None:
        return embedder.embed(texts)
    parts = []
    for start in range(0, len(texts), EMBED_SLICE):
        parts.append(embedder.embed(texts[start : start + EMBED_SLICE]))
        on_embed(min(start + EMBED_SLICE, len(texts)), len(texts))
    return np.concatenate(parts)


def _write_chunks(
    graph: Graph, embedder: Embedder, chunks: Sequence[SourceChunk], on_embed: Callable[[int, int], None] | None
) -> WriteStats:
    stats = WriteStats()
    ent_name: dict[str, str] = {}
    ent_rels: dict[str, set[str]] = defaultdict(set)
    ent_psgs: dict[str, set[str]] = defaultdict(set)
    rels: dict[str, Relation] = {}
    rel_psgs: dict[str, set[str]] = defaultdict(set)
    psgs: dict[str, Passage] = {}
    psg_ents: dict[str, set[str]] = defaultdict(set)
    psg_rels: dict[str, set[str]] = defaultdict(set)

    keep = any(ch.sentences for ch in chunks) and has_column(graph.client, graph.coll("passages"), SENTENCES)
    for ch in chunks:
        pid = ch.passage_id
        layout = encode_sentences(ch.text, ch.sentences, ch.tags or None) if keep else ""  # older graphs: none
        psgs[pid] = Passage(pid, ch.title, ch.text, ch.doc_id, ch.chunk_index, sentences=layout)
        stats.sentences_tagged += sum(t is not None for t in ch.tags) if '"t":' in layout else 0
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
            rels.setdefault(rid, Relation(rid, t.subject, t.predicate, t.object, sid, oid, when=t.when))
            rel_psgs[rid].add(pid)
            for eid in (sid, oid):
                ent_rels[eid].add(rid)
                ent_psgs[eid].add(pid)
                psg_ents[pid].add(eid)
            psg_rels[pid].add(rid)

    t0 = time.perf_counter()
    old_p = {p.id: (p, v) for p, v in graph.get_with_vectors("passages", list(psgs))}
    old_r = {r.id: (r, v) for r, v in graph.get_with_vectors("relations", list(rels))}
    old_e = {e.id: (e, v) for e, v in graph.get_with_vectors("entities", list(ent_name))}
    stats.store_s += time.perf_counter() - t0

    new_p = [pid for pid in psgs if pid not in old_p]
    new_r = [rid for rid in rels if rid not in old_r]
    new_e = [eid for eid in ent_name if eid not in old_e]
    t0 = time.perf_counter()
    texts = [psgs[i].full_text for i in new_p] + [rels[i].text for i in new_r] + [ent_name[i] for i in new_e]
    vecs = _embed(embedder, texts, on_embed)
    stats.embed_s += time.perf_counter() - t0
    stats.texts_embedded = len(texts)
    vec_of: dict[str, object] = {}
    for n, i in enumerate(new_p + new_r + new_e):
        vec_of[i] = vecs[n]  # type: ignore[index]

    def merged(old: tuple[str, ...], add: set[str]) -> tuple[str, ...]:
        return tuple(dict.fromkeys(list(old) + sorted(add - set(old))))

    p_items, r_items, e_items = [], [], []
    for pid, p in psgs.items():
        old_rec, old_vec = old_p.get(pid, (None, None))
        rec = replace(
            p,
            entity_ids=merged(old_rec.entity_ids if old_rec else (), psg_ents[pid]),
            relation_ids=merged(old_rec.relation_ids if old_rec else (), psg_rels[pid]),
            sentences=p.sentences or (old_rec.sentences if old_rec else ""),
        )
        p_items.append((rec, old_vec if old_rec else vec_of[pid]))
    dated = any(r.when for r in rels.values()) and has_column(graph.client, graph.coll("relations"), WHEN)
    for rid, r in rels.items():
        old_rec, old_vec = old_r.get(rid, (None, None))
        when = (r.when or (old_rec.when if old_rec else "")) if dated else ""  # a graph from before dates: none
        rec = replace(r, passage_ids=merged(old_rec.passage_ids if old_rec else (), rel_psgs[rid]), when=when)
        r_items.append((rec, old_vec if old_rec else vec_of[rid]))
    for eid, name in ent_name.items():
        old_rec, old_vec = old_e.get(eid, (None, None))
        rec = Entity(
            id=eid,
            name=old_rec.name if old_rec else name,
            relation_ids=merged(old_rec.relation_ids if old_rec else (), ent_rels[eid]),
            passage_ids=merged(old_rec.passage_ids if old_rec else (), ent_psgs[eid]),
        )
        e_items.append((rec, old_vec if old_rec else vec_of[eid]))

    t0 = time.perf_counter()
    # passages first, entities last: a crash leaves ids that a replay completes (as existing rows), never rows
    # that lie about their neighbours' absence
    graph.write("passages", p_items, set(old_p))
    graph.write("relations", r_items, set(old_r))
    graph.write("entities", e_items, set(old_e))
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


def _refill(graph: Graph, ent: Entity, rels: tuple[str, ...], ps: tuple[str, ...], gone_r: set[str],
            gone_p: set[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:  # fmt: skip
    """The lists of an entity whose stored lists were capped (MAX_LIST): they showed only part of what names it, so
    the relations and passages that still name it are asked directly (scalar queries; rare) and fill them again."""
    more_r = [r.id for r in graph.relations_naming(ent.id) if r.id not in gone_r]
    more_p = [p.id for p in graph.passages_naming(ent.id) if p.id not in gone_p]
    return tuple(dict.fromkeys([*rels, *more_r]))[:MAX_LIST], tuple(dict.fromkeys([*ps, *more_p]))[:MAX_LIST]


def delete_passages(graph: Graph, passages: Sequence[Passage]) -> DeleteReport:
    """Remove passages and every relation/entity that only they supported; fix the survivors' id lists.

    Safe to run again after it was cut short (resumed on the next open, see Database): ids that no longer exist count
    as gone, and the passages themselves are deleted last, so what is left still leads to everything to finish.
    The whole read–merge–write holds the graph's store lock: an edit in another thread waits for it."""
    with graph.lock:
        return _delete_passages(graph, passages)


def _delete_passages(graph: Graph, passages: Sequence[Passage]) -> DeleteReport:
    gone_p = {p.id for p in passages}
    rel_ids = {r for p in passages for r in p.relation_ids}
    ent_ids = {e for p in passages for e in p.entity_ids}
    found_r = graph.get_with_vectors("relations", sorted(rel_ids))
    gone_r: set[str] = rel_ids - {rel.id for rel, _ in found_r}  # deleted already (a delete cut short)
    keep_r: list = []
    for rel, vec in found_r:
        remaining = tuple(p for p in rel.passage_ids if p not in gone_p)
        if remaining:
            keep_r.append((replace(rel, passage_ids=remaining), vec))
        else:
            gone_r.add(rel.id)
            ent_ids.update((rel.subject_id, rel.object_id))
    gone_e: set[str] = set()
    keep_e: list = []
    for ent, vec in graph.get_with_vectors("entities", sorted(ent_ids)):
        rels = tuple(r for r in ent.relation_ids if r not in gone_r)
        ps = tuple(p for p in ent.passage_ids if p not in gone_p)
        if len(ent.relation_ids) >= MAX_LIST or len(ent.passage_ids) >= MAX_LIST:
            rels, ps = _refill(graph, ent, rels, ps, gone_r, gone_p)
        if not rels and not ps:
            gone_e.add(ent.id)
        elif rels != ent.relation_ids or ps != ent.passage_ids:
            keep_e.append((replace(ent, relation_ids=rels, passage_ids=ps), vec))
    # passages outside the deleted set that mention a removed relation or entity (shared relations)
    touched = {p for rec, _ in keep_r + keep_e for p in rec.passage_ids}
    keep_p: list = []
    for psg, vec in graph.get_with_vectors("passages", sorted(touched - gone_p)):
        ents = tuple(e for e in psg.entity_ids if e not in gone_e)
        rels = tuple(r for r in psg.relation_ids if r not in gone_r)
        if ents != psg.entity_ids or rels != psg.relation_ids:
            keep_p.append((replace(psg, entity_ids=ents, relation_ids=rels), vec))
    for kind, keep in (("relations", keep_r), ("entities", keep_e), ("passages", keep_p)):
        graph.write(kind, keep, {rec.id for rec, _ in keep})
    for kind, gone in (("relations", gone_r), ("entities", gone_e), ("passages", gone_p)):
        graph.delete(kind, sorted(gone))
    graph.flush()
    return DeleteReport(
        passages=len(gone_p),
        relations=len(gone_r),
        entities=len(gone_e),
        updated=len(keep_r) + len(keep_e) + len(keep_p),
    )


def delete_document(graph: Graph, doc_id: str) -> DeleteReport:
    """Delete a source document with everything only it supported. The document is marked as being deleted first,
    so a delete cut short (a crash, kill -9) is finished when the graph is next opened, never listed as complete."""
    graph.documents.mark_deleting(doc_id)
    report = delete_passages(graph, graph.passages_of_doc(doc_id))
    graph.documents.forget(doc_id)
    return report


def finish_deletes(graph: Graph) -> int:
    """Finish the document deletes a crash cut short (see delete_document); how many there were."""
    pending = [d for d in graph.documents.all() if d.deleting]
    for d in pending:
        log.warning("finishing the delete of document %r in graph %r, cut short earlier", d.name, graph.name)
        delete_document(graph, d.id)
    return len(pending)

"""`LocalStore`: a graph in a Milvus Lite file, searched in this process.

Milvus Lite 3.2.2 answers every search with a Python loop over all rows and reads rows slowly, so the store keeps
one `VectorCopy` per collection (vectors.py) — the search engine and the primary-key reads — and writes every row
to the Lite file itself, which is the durable log. The copies are saved beside the file (`vgrag-vectors/`) tagged
with the graph's *generation*: a record in `vgrag_meta` that each write renews before it reaches Milvus, so a copy
saved before a write that was cut (or made by another `Database` object on the same file) no longer matches and is
rebuilt from Milvus. A store checks the generation before each batch it writes and on `refresh`; finding another
one, it drops its copies and loads them again.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from .base import CommitEvent, Hit, Listener
from .meta import MetaStore
from .schema import ID, KINDS, VEC, Kind, Record, decode_row, encode_row
from .tables import Tables
from .vectors import VectorCopy, write_snapshot


SCAN_BATCH = 4096
REFRESH_S = 2.0  # how often a question may look for another writer's commits (in the background)
log = logging.getLogger(__name__)


class LocalStore:
    """The three collections of one graph: Lite is written, the in-process copies are read and searched."""

    def __init__(self, tables: Tables, meta: MetaStore, folder: Path) -> None:
        self.tables, self.meta, self.folder = tables, meta, folder
        self.name = tables.name
        self._copies: dict[str, VectorCopy] = {}
        self._load_lock = threading.Lock()  # one load of a copy at a time; writes wait for a load in progress
        self._generation: dict[str, str] = {}  # per kind, the generation our copy matches
        self._dirty: set[str] = set()  # kinds written since the last commit
        self._pending = CommitEvent({}, {})
        self._listeners: list[Listener] = []
        self._save_lock = threading.Lock()  # the saver's view of generations and dirty kinds (see _save_copies)
        self._saved = threading.Condition(self._save_lock)
        self._unsaved: set[str] = set()  # kinds committed since their copy was last saved
        self._saver: threading.Thread | None = None
        self._checked = time.monotonic()  # when the stored generations were last compared with ours (refresh)
        self._checking = threading.Lock()

    # ---------- the generations (the graph's record in vgrag_meta), one per collection
    def _key(self) -> str:
        return f"graph:{self.name}"

    def _stored(self) -> dict[str, str]:
        payload = self.meta.get(self._key()) or {}
        gens = payload.get("generations")
        return {str(k): str(v) for k, v in gens.items()} if isinstance(gens, dict) else {}

    def _renew(self, kind: Kind) -> None:
        """A new generation for `kind`, stored before its first row of a batch reaches Milvus."""
        payload = self.meta.get(self._key())
        generation = uuid.uuid4().hex
        if payload is not None:  # None: the graph is being created (Database writes its record)
            gens = {**(payload.get("generations") or {}), kind: generation}
            self.meta.put(self._key(), "graph", self.name, {**payload, "generations": gens})
        self._generation[kind] = generation

    def refresh(self) -> None:
        """See another writer's commits on this file (another `Database` object): the graph's record is read in the
        background at most every REFRESH_S, and copies it shows stale are dropped (the next read reloads them). A
        question never waits for it: Milvus Lite answers calls one after another, and an ingest's flush of another
        graph held a question's read of the record for up to 14 s."""
        if not self._copies or time.monotonic() - self._checked < REFRESH_S or not self._checking.acquire(False):
            return
        self._checked = time.monotonic()
        threading.Thread(target=self._check, name=f"refresh-{self.name}", daemon=True).start()

    def _check(self) -> None:
        try:
            stored = self._stored()
            with self._load_lock:
                for kind in [k for k in self._copies if stored.get(k) != self._generation.get(k)]:
                    if kind not in self._dirty:  # our own batch in progress renewed it
                        del self._copies[kind]
        except Exception:  # noqa: BLE001 - a failed look is retried at the next question
            log.warning("could not read graph %r's record to check its copies", self.name, exc_info=True)
        finally:
            self._checking.release()

    # ---------- copies
    def _path(self, kind: Kind) -> Path:
        return self.folder / f"{self.tables.coll(kind)}.npz"

    def _copy(self, kind: Kind) -> VectorCopy:
        m = self._copies.get(kind)
        if m is None:
            with self._load_lock:
                m = self._copies.get(kind)
                if m is None:
                    generation = self._stored().get(kind, "")
                    m = VectorCopy.load(self._path(kind), generation, self.tables.dim) if generation else None
                    if m is None:
                        m = VectorCopy(self.tables.dim)
                        for rows in self.tables.scan(kind, self.tables.fields(kind, True)):
                            _add_rows(kind, m, rows)
                        if generation:
                            self._save(kind, m, generation)
                    m.prepare()
                    self._generation[kind] = generation
                    self._copies[kind] = m
        return m

    def _save(self, kind: Kind, m: VectorCopy, generation: str) -> None:
        try:
            m.save(self._path(kind), generation)
        except OSError:  # a read-only or full disk: the copy in memory still serves this process
            pass

    def ready(self) -> bool:
        return all(k in self._copies for k in KINDS)

    def load(self) -> None:
        for kind in KINDS:
            self._copy(kind)

    def forget(self) -> None:
        self.close()
        with self._load_lock:
            self._copies.clear()
        for kind in KINDS:
            self._path(kind).unlink(missing_ok=True)

    # ---------- reads
    def get(self, kind: Kind, ids: Sequence[str]) -> list[Record]:
        return [decode_row(kind, b) for b in self._copy(kind).rows(list(dict.fromkeys(ids)))]

    def get_with_vectors(self, kind: Kind, ids: Sequence[str]) -> list[tuple[Record, np.ndarray]]:
        m = self._copy(kind)
        records = self.get(kind, ids)
        vecs = m.vectors([r.id for r in records])
        return [(r, vecs[r.id]) for r in records if r.id in vecs]

    def search(self, kind: Kind, vectors: np.ndarray, k: int, with_vectors: bool = False) -> list[list[Hit]]:
        m = self._copy(kind)
        found = m.search(np.asarray(vectors), k)
        wanted = list(dict.fromkeys(x for hits in found for x, _ in hits))
        records = {r.id: r for r in self.get(kind, wanted)}
        vecs = m.vectors(wanted) if with_vectors else {}
        return [[Hit(records[x], s, vecs.get(x)) for x, s in hits if x in records] for hits in found]

    def scan(self, kind: Kind, fields: list[str]) -> Iterable[list[dict]]:
        """Every row, from the copy (the same rows as the file: the copy takes each row Milvus accepted)."""
        m = self._copy(kind)
        ids = m.ids_snapshot()
        for start in range(0, len(ids), SCAN_BATCH):
            part = ids[start : start + SCAN_BATCH]
            records = [decode_row(kind, b) for b in m.rows(part)]
            vecs = m.vectors([r.id for r in records]) if VEC in fields else {}
            batch = []
            for r in records:
                row = {f: getattr(r, f) for f in fields if f != VEC}
                if VEC in fields:
                    row[VEC] = vecs[r.id].tolist()
                batch.append(row)
            yield batch

    # ---------- writes (the caller holds the graph's store lock)
    def _begin(self, kind: Kind) -> VectorCopy:
        """Before a batch's first row of `kind` reaches Milvus: the copy loaded and current (so it misses nothing),
        and its generation renewed, so a saved copy no longer matches if the batch is cut."""
        if kind not in self._dirty:
            stored = self._stored().get(kind, "")
            if kind in self._copies and stored != self._generation.get(kind):
                with self._load_lock:
                    self._copies.pop(kind, None)
            m = self._copy(kind)
            with self._save_lock:  # the saver never reads a generation renewed for a batch still being written
                self._renew(kind)
                self._dirty.add(kind)
            return m
        return self._copy(kind)

    def upsert(self, kind: Kind, rows: Sequence[dict], existing: set[str]) -> None:
        if not rows:
            return
        m = self._begin(kind)
        self.tables.write(kind, rows, existing)
        _add_rows(kind, m, rows)  # after Milvus took them: the copy never holds what the file lacks
        self._pending.written[kind] = self._pending.written.get(kind, ()) + tuple(rows)

    def delete(self, kind: Kind, ids: Sequence[str]) -> None:
        if not ids:
            return
        m = self._begin(kind)
        self.tables.delete(kind, ids)
        m.remove(ids)
        self._pending.deleted[kind] = self._pending.deleted.get(kind, ()) + tuple(ids)

    def commit(self) -> None:
        """Flush the Lite file (a short replay log), save the copies written, tell the subscribers."""
        event, self._pending = self._pending, CommitEvent({}, {})
        if self._dirty:
            self.tables.flush(self.tables.coll(k) for k in sorted(self._dirty))
            with self._save_lock:
                self._unsaved |= self._dirty
                self._dirty = set()
                if self._saver is None:
                    self._saver = threading.Thread(target=self._save_copies, name=f"save-{self.name}", daemon=True)
                    self._saver.start()
        for listener in self._listeners:
            listener(event)

    def _save_copies(self) -> None:
        """Save the copies committed since their last save, in the background: a commit (a batch of an ingest, one
        edit) returns after the Lite flush, not after writing every vector of a large collection again. A copy is
        snapshot with the generation it was committed under, never while a batch renewed it (a crash then leaves a
        file that no longer matches, and the copy is rebuilt from Milvus)."""
        while True:
            with self._save_lock:
                todo = sorted(k for k in self._unsaved if k not in self._dirty and k in self._copies)
                self._unsaved.clear()
                if not todo:
                    self._saver = None
                    self._saved.notify_all()
                    return
                snaps = [(k, self._generation[k], self._copies[k].snapshot()) for k in todo]
            for kind, generation, snap in snaps:
                try:
                    write_snapshot(self._path(kind), generation, snap)
                except OSError:  # a read-only or full disk: the copy in memory still serves this process
                    pass

    def close(self) -> None:
        """Wait for the copies being saved (a clean shutdown starts fast next time)."""
        with self._save_lock:
            while self._saver is not None:
                self._saved.wait()

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)


def _add_rows(kind: Kind, m: VectorCopy, rows: Sequence[dict]) -> None:
    """Milvus rows into a copy: the vector apart, the other fields in their compact form."""
    m.upsert([r[ID] for r in rows], np.asarray([r[VEC] for r in rows], dtype=np.float32),
             [encode_row(kind, r) for r in rows])  # fmt: skip

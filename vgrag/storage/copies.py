"""One graph's in-process copies of its three collections (Milvus Lite; the copy itself is `mirror.VectorMirror`):
which copy serves a collection, loading it from its file or once from Milvus, keeping it in step with every write,
and the tokens that make a stale or cut-off file rebuilt instead of served."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence

import numpy as np

from .meta import MetaStore
from .mirror import MAX_ROWS, Mirrors, VectorMirror, new_token
from .schema import ID, KINDS, TITLE, VEC, Kind, decode_row, encode_row, output_fields
from .titles import TitleIndex

Scan = Callable[[Kind, list[str]], Iterable[list[dict]]]  # every row of a collection, in batches, with these fields


class GraphCopies:
    """The copies of one graph's collections, shared through `Mirrors` with every `Graph` opened on the database.
    Writes renew the collection's token in `vgrag_meta` before they reach Milvus, so a file saved earlier no longer
    matches even if the write is cut; the copy takes rows only after Milvus accepted them."""

    def __init__(
        self,
        mirrors: Mirrors,
        name: str,
        dim: int,
        lock: threading.RLock,
        meta: MetaStore,
        coll: Callable[[Kind], str],
        scan: Scan,
    ) -> None:
        self.mirrors, self.name, self.dim, self.lock, self.meta, self.coll, self.scan = (
            mirrors, name, dim, lock, meta, coll, scan,
        )  # fmt: skip

    def _token_key(self, coll: str) -> str:
        return f"vectors:{coll}"

    def get(self, kind: Kind) -> VectorMirror | None:
        """This collection's copy: from its file when the token matches, else read from Milvus (and saved); loaded
        under the write lock, so no write is missed. None when it has more rows than `MAX_ROWS`."""
        ms, coll = self.mirrors, self.coll(kind)
        if coll not in ms.by_collection:
            with self.lock:
                if coll not in ms.by_collection:
                    stamp = self.meta.get(self._token_key(coll))
                    token = ms.tokens.setdefault(coll, stamp["token"] if stamp else "none")
                    m = VectorMirror.load(ms.path(coll), token, self.dim) if coll not in ms.unsaved else None
                    if m is None:
                        m = self._from_milvus(kind)
                        if m is not None:
                            self._save(coll, m)
                    if m is not None:
                        m.prepare()
                    ms.by_collection[coll] = m
        return ms.by_collection[coll]

    def titles(self) -> TitleIndex | None:
        """The passages' title index, built from the passages' copy on first use and kept in step with its writes;
        None when there is no copy (more than `MAX_ROWS` passages)."""
        coll = self.coll("passages")
        index = self.mirrors.titles.get(coll)
        if index is None:
            m = self.get("passages")
            if m is None:
                return None
            with self.lock:
                index = self.mirrors.titles.get(coll)
                if index is None:
                    rows = (decode_row("passages", b) for b in m.rows(list(m.ids)))
                    index = self.mirrors.titles[coll] = TitleIndex((p.id, p.title) for p in rows)  # type: ignore[union-attr]
        return index

    def loaded(self) -> bool:
        ms, coll = self.mirrors, self.coll("passages")
        return all(self.coll(k) in ms.by_collection for k in KINDS) and (
            coll in ms.titles or ms.by_collection[coll] is None
        )

    def load(self) -> None:
        for kind in KINDS:
            self.get(kind)
        self.titles()

    def _from_milvus(self, kind: Kind) -> VectorMirror | None:
        m = VectorMirror(self.dim)
        for rows in self.scan(kind, [ID, *output_fields(kind, True)]):
            add_rows(kind, m, rows)
            if len(m) > MAX_ROWS:
                return None
        return m

    def _save(self, coll: str, m: VectorMirror) -> None:
        try:
            m.save(self.mirrors.path(coll), self.mirrors.tokens[coll])
            self.mirrors.unsaved.discard(coll)
        except OSError:  # a read-only or full disk: the copy in memory still serves this process
            pass

    def before_write(self, kind: Kind) -> None:
        """Called before a write reaches Milvus: the saved copy no longer matches, even if the write is cut."""
        ms, coll = self.mirrors, self.coll(kind)
        if coll in ms.unsaved:
            return
        token = new_token()
        self.meta.put(self._token_key(coll), "vectors", self.name, {"token": token})
        ms.tokens[coll] = token
        ms.unsaved.add(coll)

    def wrote(self, kind: Kind, rows: Sequence[dict]) -> None:
        """Rows Milvus has just accepted, into the copy when it is in memory."""
        m = self.mirrors.by_collection.get(self.coll(kind))
        if m is not None:
            add_rows(kind, m, rows)
        titles = self.mirrors.titles.get(self.coll(kind)) if kind == "passages" else None
        if titles is not None:
            titles.add((r[ID], r[TITLE]) for r in rows)

    def deleted(self, kind: Kind, ids: Sequence[str]) -> None:
        m = self.mirrors.by_collection.get(self.coll(kind))
        if m is not None:
            m.remove(ids)
        titles = self.mirrors.titles.get(self.coll(kind)) if kind == "passages" else None
        if titles is not None:
            titles.remove(ids)

    def save(self) -> None:
        """Save the copies written since their last save (after an ingest), so the next start loads them fast."""
        with self.lock:
            for kind in KINDS:
                coll = self.coll(kind)
                m = self.mirrors.by_collection.get(coll)
                if coll in self.mirrors.unsaved and m is not None:
                    self._save(coll, m)


def add_rows(kind: Kind, m: VectorMirror, rows: Sequence[dict]) -> None:
    """Milvus rows into a copy: the vector apart, the other fields in their compact form."""
    encoded = [encode_row(kind, r) for r in rows]
    m.upsert([r[ID] for r in rows], np.asarray([r[VEC] for r in rows], dtype=np.float32), encoded)

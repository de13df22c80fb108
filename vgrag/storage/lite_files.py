"""Milvus Lite's index files, checked when a collection will not load, and a torn one moved aside.

Milvus Lite 3.2.2 keeps beside each sealed data file of a collection an index file
(`collections/<name>/partitions/<p>/indexes/<data file>.<field>.<type>.idx`, `.sidx` for a scalar index). It writes
one after each flush, in a background thread, straight to its final name: no temporary file, no record that commits
it. A process killed while that thread writes leaves the file empty or cut, and every later `load_collection` of
that collection fails on it ("No data left in file" for an empty one): the database no longer opens.

An index file holds nothing the data files lack (for FLAT, the only index vgrag makes on Lite, a copy of the
segment's vectors), and Lite builds a missing one again from the data at the next load. So a file that cannot be
read is moved — kept, never deleted — to `<db>/vgrag-recovered/<UTC time>-<pid>/<collection>/`, and the load is
retried: no row is lost. Data files, delete files and the manifest are never touched here: Lite writes those before
the manifest's atomic replace commits them, and replays its log for a flush that was cut.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa

RECOVERED_DIR = "vgrag-recovered"
_NPY_MAGIC = b"\x93NUMPY"
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class MovedFile:
    """An index file that could not be read: where it was, why, and where the copy is kept."""

    path: Path
    reason: str
    kept_at: Path


def index_files(db: Path, collection: str) -> list[Path]:
    """The index files of one collection of a Lite database folder (none when it has no such folder)."""
    root = db / "collections" / collection / "partitions"
    return sorted(p for p in root.glob("*/indexes/*") if p.suffix in (".idx", ".sidx") and p.is_file())


def unreadable(path: Path) -> str | None:
    """Why the index file cannot be read (it is empty, or cut before its end), or None when it reads whole."""
    size = path.stat().st_size
    if size == 0:
        return "empty (0 bytes)"
    try:
        if path.suffix == ".sidx":  # an Arrow IPC file: its footer is written last
            with pa.OSFile(str(path), "rb") as f:
                pa.ipc.open_file(f).read_all()
            return None
        with open(path, "rb") as f:
            head = f.read(len(_NPY_MAGIC))
            if _NPY_MAGIC.startswith(head) and len(head) < len(_NPY_MAGIC):
                return f"cut after {size} bytes, inside its header"
            if head != _NPY_MAGIC:
                return _faiss_unreadable(path)
            f.seek(0)
            version = np.lib.format.read_magic(f)
            read = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
            shape, _, dtype = read(f, max_header_size=1 << 20)
            need = f.tell() + int(np.prod(shape)) * dtype.itemsize
    except (OSError, ValueError, EOFError, pa.ArrowException) as e:
        return f"unreadable ({e})"
    return f"cut at {size} of {need} bytes" if size < need else None


def _faiss_unreadable(path: Path) -> str | None:
    """An index in FAISS's format (an AUTOINDEX or HNSW one, when faiss is installed): read by faiss itself. Without
    faiss it cannot be judged, and is left where it is."""
    try:
        import faiss  # type: ignore[import-not-found]
    except ImportError:
        return None
    try:
        faiss.read_index(str(path))
    except RuntimeError as e:
        return f"unreadable by faiss ({str(e).strip().splitlines()[0][:200]})"
    return None


def move_torn_index_files(uri: str, collection: str) -> list[MovedFile]:
    """Move every index file of `collection` that cannot be read out of Lite's way (a copy kept under
    `vgrag-recovered/`), logging each one; Lite rebuilds them from the data at the next load."""
    db = Path(os.path.realpath(uri))
    if not db.is_dir():
        return []
    moved: list[MovedFile] = []
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()) + f"-{os.getpid()}"
    for path in index_files(db, collection):
        reason = unreadable(path)
        if reason is None:
            continue
        dest = db / RECOVERED_DIR / stamp / collection / path.relative_to(db / "collections" / collection)
        dest.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, dest)
        log.warning(
            "Milvus Lite's index file %s (collection %r of %s) is %s: a process stopped while writing it. Kept as %s; "
            "the index is built again from the collection's data, no row is lost.",
            path.relative_to(db), collection, db, reason, dest,
        )  # fmt: skip
        moved.append(MovedFile(path, reason, dest))
    return moved

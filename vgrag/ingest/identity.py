"""Which stored document an uploaded file is. A document is the name or path it was given plus its content; a
browser sends base names only, so one name may stand for several documents (notes.txt from two folders).

The rules, in the order they apply to the contents given under one name in one upload:
- a content already stored under that name (or stored under another spelling of the same file name: "./a/x.md",
  "a//x.md", an absolute path) is unchanged; one whose ingest was interrupted is resumed under its own key;
- a name's single document is replaced by a new content only when the upload gives that name exactly one content,
  it is new, and no other document shares the name (an edited file uploaded again);
- anything else new is stored beside: under the plain name when no document holds it, else numbered with the next
  free number ("notes (3).txt"). Nothing is ever deleted on a name alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..models import Document
from ..text import doc_id

SEP = "\x1f"  # between a name and a content hash in the key of one of several documents with the same name
_LEGACY = range(2, 100)  # documents stored before keys were kept are known by their numbered name


@dataclass(frozen=True)
class Placement:
    key: str  # the document's identity (doc_id(key) is its id)
    name: str  # as shown
    replaces: str | None = None  # the id of the document this one replaces
    beside: bool = False  # stored beside other documents of the same name (the report says so)


def numbered(name: str, k: int) -> str:
    """The k-th document with this name, as shown: "notes (2).txt"."""
    stem, dot, ext = name.rpartition(".")
    return f"{stem} ({k}).{ext}" if dot and stem and "/" not in ext else f"{name} ({k})"


def base_of(key_or_name: str) -> str:
    """The file name a key or a shown name ends with, whatever the path before it."""
    return key_or_name.split(SEP)[0].rstrip("/").rsplit("/", 1)[-1]


def place(docs: Sequence[Document], key: str, name: str, digests: Sequence[str]) -> list[Placement | None]:
    """Where each of the distinct contents (`digests`, in upload order) given under one name goes; None: unchanged."""
    exact = [d for d in docs if d.key == key or (not d.key and d.id == doc_id(key))]
    legacy = {numbered(name, k) for k in _LEGACY}
    mine = exact + [
        d for d in docs if d not in exact and (d.key.startswith(key + SEP) or (not d.key and d.name in legacy))
    ]
    found: list[Placement | None | str] = []
    for digest in digests:
        same = next((d for d in mine if d.content_hash == digest), None)
        if same is not None and not same.complete:  # interrupted: written again under its own key
            own = same.key or (key if same.id == doc_id(key) else f"{key}{SEP}{digest}")
            found.append(Placement(own, same.name))
        elif same is not None or any(
            d.content_hash == digest and d.complete and base_of(d.key or d.name) == base_of(key) for d in docs
        ):
            found.append(None)
        else:
            found.append(digest)
    new = [x for x in found if isinstance(x, str)]
    replace = len(digests) == 1 and len(new) == 1 and len(mine) == 1 and mine[0] in exact
    used = {d.name for d in mine}
    plain_free, k, out = not exact, 2, []
    for x in found:
        if not isinstance(x, str):
            out.append(x)
        elif replace:
            out.append(Placement(key, name, exact[0].id))
        elif plain_free:
            plain_free = False
            out.append(Placement(key, name, None, bool(mine)))
        else:
            while numbered(name, k) in used:
                k += 1
            used.add(numbered(name, k))
            out.append(Placement(f"{key}{SEP}{x}", numbered(name, k), None, bool(mine)))
    return out

"""The graph's three collections, described once: field names, Milvus types, and the row ↔ record mapping.

Every collection has a VARCHAR primary key `id`, the columns below (named like the record's attributes), and a
float vector. Adjacency lists are ARRAY columns; they are the graph.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Literal

from pymilvus import DataType

from ..models import Entity, Passage, Relation
from .tags import SENTENCES_BYTES

log = logging.getLogger(__name__)

Kind = Literal["entities", "relations", "passages"]
KINDS: tuple[Kind, ...] = ("entities", "relations", "passages")
Record = Entity | Relation | Passage

# field names
ID, VEC = "id", "vector"
NAME, REL_IDS, PSG_IDS, ENT_IDS = "name", "relation_ids", "passage_ids", "entity_ids"
SUBJ, PRED, OBJ, SUBJ_ID, OBJ_ID, TEXT = "subject", "predicate", "object", "subject_id", "object_id", "text"
TITLE, DOC_ID, CHUNK = "title", "doc_id", "chunk_index"
WHEN = "when"  # a relation's date; added after graphs were first stored: optional (see Column.optional)
SENTENCES = "sentences"  # a passage's sentences and their tags (storage/tags.py); optional like WHEN
KIND, GRAPH, PAYLOAD = "kind", "graph", "payload"  # the meta collection

META = "vgrag_meta"
MAX_LIST = 4096  # Milvus ARRAY capacity; longer adjacency lists keep their first MAX_LIST ids
MAX_TEXT = 65535
ID_LEN = 64
GRAPH_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,39}")


def check_graph_name(name: object) -> str:
    """The name when it can name a graph (its collections and their files are named after it), else ValueError.
    The one check: every graph is opened, created or dropped through `store.Graph`, which calls it."""
    if not isinstance(name, str) or not GRAPH_NAME.fullmatch(name):
        raise ValueError(
            f"Graph name {name!r} must start with a letter and use only letters A–Z, digits and _ (at most 40)."
        )
    return name


@dataclass(frozen=True)
class Column:
    name: str
    type: Literal["text", "id", "ids", "int"]
    clip: int = 2000  # bytes kept of a text (Milvus counts VARCHAR length in bytes)
    optional: bool = False  # a column older collections lack: read as "" when missing, written only when set


COLUMNS: dict[Kind, tuple[Column, ...]] = {
    "entities": (Column(NAME, "text"), Column(REL_IDS, "ids"), Column(PSG_IDS, "ids")),
    "relations": (
        Column(SUBJ, "text"),
        Column(PRED, "text"),
        Column(OBJ, "text"),
        Column(SUBJ_ID, "id"),
        Column(OBJ_ID, "id"),
        Column(PSG_IDS, "ids"),
        Column(WHEN, "text", 200, optional=True),
    ),
    "passages": (
        Column(TITLE, "text"),
        Column(TEXT, "text", MAX_TEXT // 4),
        Column(DOC_ID, "id"),
        Column(CHUNK, "int"),
        Column(ENT_IDS, "ids"),
        Column(REL_IDS, "ids"),
        Column(SENTENCES, "text", SENTENCES_BYTES, optional=True),
    ),
}
RECORD: dict[Kind, type] = {"entities": Entity, "relations": Relation, "passages": Passage}
ID_PREFIX: dict[Kind, str] = {"entities": "ent-", "relations": "rel-", "passages": "psg-"}


def output_fields(kind: Kind, with_vector: bool = False) -> list[str]:
    return [c.name for c in COLUMNS[kind]] + ([VEC] if with_vector else [])


def add_fields(schema: object, kind: Kind, dim: int) -> object:
    """The collection's fields on a pymilvus schema."""
    schema.add_field(ID, DataType.VARCHAR, is_primary=True, max_length=ID_LEN)  # type: ignore[attr-defined]
    for c in COLUMNS[kind]:
        if c.type == "text" and c.optional:  # rows written without it (to_row) read as ""
            schema.add_field(c.name, DataType.VARCHAR, max_length=MAX_TEXT, default_value="")  # type: ignore[attr-defined]
        elif c.type == "text":
            schema.add_field(c.name, DataType.VARCHAR, max_length=MAX_TEXT)  # type: ignore[attr-defined]
        elif c.type == "id":
            schema.add_field(c.name, DataType.VARCHAR, max_length=ID_LEN)  # type: ignore[attr-defined]
        elif c.type == "int":
            schema.add_field(c.name, DataType.INT64)  # type: ignore[attr-defined]
        else:
            schema.add_field(  # type: ignore[attr-defined]
                c.name, DataType.ARRAY, element_type=DataType.VARCHAR, max_capacity=MAX_LIST, max_length=ID_LEN
            )
    schema.add_field(VEC, DataType.FLOAT_VECTOR, dim=dim)  # type: ignore[attr-defined]
    return schema


def _ids(values: Iterable[str]) -> list[str]:
    out = list(dict.fromkeys(values))
    if len(out) > MAX_LIST:
        log.warning("adjacency list of %d ids capped at %d", len(out), MAX_LIST)
        out = out[:MAX_LIST]
    return out


def _clip(s: str, n: int) -> str:
    b = s.encode("utf-8")
    return s if len(b) <= n else b[:n].decode("utf-8", "ignore")


def to_row(kind: Kind, record: Record, vector: Sequence[float]) -> dict:
    """A record and its vector as a Milvus row."""
    row: dict = {ID: record.id}
    for c in COLUMNS[kind]:
        value = getattr(record, c.name)
        if c.optional and not value:
            continue  # a collection created before this column has no field for it; an empty value is its default
        if c.type == "text":
            value = _clip(value, c.clip)
        elif c.type == "ids":
            value = _ids(value)
        elif c.type == "int":
            value = int(value)
        row[c.name] = value
    row[VEC] = [float(x) for x in vector]
    return row


def from_row(kind: Kind, row: dict) -> Record:
    """A Milvus row (or a search hit's fields plus its id) as a record."""
    values = {ID: row[ID]}
    for c in COLUMNS[kind]:
        v = row.get(c.name)
        values[c.name] = tuple(v or ()) if c.type == "ids" else int(v or 0) if c.type == "int" else (v or "")
    return RECORD[kind](**values)


# A row kept in memory (mirror.py) is a compact JSON array: the id, then the columns in schema order — which is
# also the record's field order, so decoding is one `json.loads` and one positional constructor call (~3 µs;
# a JSON object through `from_row` takes ~10 µs, and a graph query reads hundreds of rows).
for _kind, _cls in RECORD.items():
    assert [f.name for f in fields(_cls)] == [ID, *(c.name for c in COLUMNS[_kind])], _kind
_LIST_AT = {k: tuple(i + 1 for i, c in enumerate(cols) if c.type == "ids") for k, cols in COLUMNS.items()}


def encode_row(kind: Kind, row: dict) -> bytes:
    """A Milvus row (its vector left out) as the compact form `decode_row` reads."""
    values = [row[ID], *(row.get(c.name, "" if c.optional else None) for c in COLUMNS[kind])]
    return json.dumps(values, ensure_ascii=False, separators=(",", ":")).encode()


def has_column(client: object, collection: str, name: str) -> bool:
    """Whether a stored collection has a column (one created before an optional column was added lacks it)."""
    info = client.describe_collection(collection)  # type: ignore[attr-defined]
    return any(f.get("name") == name for f in info.get("fields", ()))


def decode_row(kind: Kind, data: bytes) -> Record:
    values = json.loads(data)  # a row kept before an optional last column existed is shorter: its default applies
    for i in _LIST_AT[kind]:
        values[i] = tuple(values[i] or ())
    return RECORD[kind](*values)

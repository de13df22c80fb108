"""Passages by the names their titles give: the passage-level links of the graph.

A passage's title names what the passage is about ("Helen Hunt", "M. Ward", "Marie Curie › Early life"). When an
evidence passage mentions that name ("The cast also features Helen Hunt…"), the passage titled by it is where the
next hop's facts are, the way an encyclopedia links its articles. Triples often miss such a link: offline
extraction writes "cast features Helen Hunt", which never reaches the film. So the passage step follows names
as well as relations (retrieve.rank_passages); the index below finds, in one pass over a text, every passage
whose title it mentions.
"""

from __future__ import annotations

import html
import re
import threading
import unicodedata
from collections.abc import Iterable

from ..nlp import STOPWORDS

_WORD = re.compile(r"\w+")
_QUALIFIER = re.compile(r"\s*\([^()]*\)\s*$")  # "Charmed (TV series)" is mentioned as "Charmed"
_PAGE = re.compile(r"\s*·\s*p\.\s*\d+\s*$")  # structure.Section.title's page suffix
MAX_WORDS = 12  # longest title looked for in a text; longer ones are headings, not names


def words(text: str) -> list[str]:
    """Case-folded word tokens, markup entities decoded ("&quot;" is a quote), punctuation dropped."""
    return _WORD.findall(html.unescape(unicodedata.normalize("NFKC", text)).casefold())


def title_key(title: str) -> str:
    """What a text says when it names this passage: the topic heading (before " › "), without a page suffix or a
    trailing "(qualifier)", as words; "" for a title that names nothing (empty, or one stopword)."""
    topic = _PAGE.sub("", " ".join(title.split())).split(" › ")[0]  # spaces collapsed first: linear regexes
    key = " ".join(words(_QUALIFIER.sub("", topic)))
    return "" if key in STOPWORDS or len(key.split()) > MAX_WORDS else key


class TitleIndex:
    """Passage ids by title key, kept in step with writes and deletes; `named_in` reads a text once. Thread-safe:
    an ingest writes while questions read."""

    def __init__(self, rows: Iterable[tuple[str, str]] = ()) -> None:
        self._lock = threading.Lock()
        self._ids: dict[str, set[str]] = {}
        self._key: dict[str, str] = {}
        self._prefixes: dict[str, int] = {}  # every key's word prefixes (the key itself included), with counts
        self.add(rows)

    def __len__(self) -> int:
        return len(self._key)

    def add(self, rows: Iterable[tuple[str, str]]) -> None:
        """(passage id, title) pairs; a passage written again moves to its new title."""
        keyed = [(pid, title_key(title)) for pid, title in rows]
        with self._lock:
            for pid, key in keyed:
                self._remove(pid)
                if key:
                    self._ids.setdefault(key, set()).add(pid)
                    self._key[pid] = key
                    for prefix in _prefixes(key):
                        self._prefixes[prefix] = self._prefixes.get(prefix, 0) + 1

    def remove(self, ids: Iterable[str]) -> None:
        with self._lock:
            for pid in ids:
                self._remove(pid)

    def _remove(self, pid: str) -> None:
        key = self._key.pop(pid, None)
        if key is None:
            return
        self._ids[key].discard(pid)
        if not self._ids[key]:
            del self._ids[key]
        for prefix in _prefixes(key):
            self._prefixes[prefix] -= 1
            if not self._prefixes[prefix]:
                del self._prefixes[prefix]

    def named_in(self, text: str) -> set[str]:
        """Ids of the passages whose title the text mentions as a whole run of words."""
        ws = words(text)
        out: set[str] = set()
        with self._lock:
            self._scan(ws, out)
        return out

    def _scan(self, ws: list[str], out: set[str]) -> None:
        for i, first in enumerate(ws):
            gram = first
            for j in range(i + 1, len(ws) + 1):  # grow the run while some title starts with it
                if gram not in self._prefixes:
                    break
                out |= self._ids.get(gram, set())
                if j < len(ws):
                    gram += " " + ws[j]


def _prefixes(key: str) -> list[str]:
    parts = key.split(" ")
    return [" ".join(parts[:n]) for n in range(1, len(parts) + 1)]

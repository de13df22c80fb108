"""The named entities of every stored sentence, tagged once at ingest, so the offline reader's NER (most of the
answer step) has run before any question is asked.

Keyed by the sentence itself (a hash of its text), so an entry never goes stale: a changed or re-chunked passage
has new sentences and new keys, and a deleted one leaves entries nobody asks for. Kept in a JSON-lines file beside
a Milvus Lite database (one per database, shared by its graphs); a line that does not parse is skipped, and a file
that cannot be written leaves the tags in memory for this process.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

Tags = tuple[tuple[str, str], ...]  # (entity text, spaCy label) per entity, in order


def sentence_key(sentence: str) -> str:
    return hashlib.blake2b(sentence.encode("utf-8"), digest_size=12).hexdigest()


class SentenceTags:
    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._tags: dict[str, Tags] | None = None  # read from the file on first use
        self._lock = threading.Lock()

    def _loaded(self) -> dict[str, Tags]:
        if self._tags is None:
            self._tags = {}
            if self.path is not None and self.path.exists():
                with self.path.open(encoding="utf-8", errors="replace") as f:
                    for line in f:
                        try:
                            key, ents = json.loads(line)
                            self._tags[str(key)] = tuple((str(t), str(label)) for t, label in ents)
                        except (ValueError, TypeError):
                            continue  # a line cut by a crash, or not ours
        return self._tags

    def __len__(self) -> int:
        with self._lock:
            return len(self._loaded())

    def get(self, sentences: Iterable[str]) -> dict[str, Tags]:
        """The tags of the sentences already tagged (the others are absent)."""
        with self._lock:
            known = self._loaded()
            return {s: known[k] for s in sentences if (k := sentence_key(s)) in known}

    def add(self, tagged: Sequence[tuple[str, Tags]]) -> None:
        """Remember (sentence, tags) pairs, and append the new ones to the file."""
        with self._lock:
            known = self._loaded()
            lines = []
            for sentence, ents in tagged:
                key = sentence_key(sentence)
                if key not in known:
                    known[key] = tuple(ents)
                    lines.append(json.dumps([key, [list(e) for e in ents]], ensure_ascii=False))
            if lines and self.path is not None:
                try:
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                    with self.path.open("ab+") as f:  # after a line cut by a crash, start a new line
                        cut = False
                        if f.seek(0, 2) > 0:
                            f.seek(-1, 2)
                            cut = f.read(1) != b"\n"
                        f.write((("\n" if cut else "") + "\n".join(lines) + "\n").encode("utf-8"))
                except OSError:  # read-only or full: the tags in memory still serve this process
                    pass

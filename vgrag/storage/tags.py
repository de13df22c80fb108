"""The named entities of sentences for the offline reader: spaCy's NER alone, run at ingest on every stored
sentence (so most of the answer step has run before any question is asked) and at query time on anything else,
remembered in the graph's store (a server's graph keeps an in-memory one: nothing is stored beside a server).

Keyed by the sentence itself (a hash of its text), so an entry never goes stale: a changed or re-chunked passage
has new sentences and new keys, and a deleted one leaves entries nobody asks for. Kept in a JSON-lines file beside
a Milvus Lite database (one per database, shared by its graphs); a line that does not parse is skipped, and a file
that cannot be written leaves the tags in memory for this process.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from ..nlp import load_spacy
from ..text import split_sentences

Tags = tuple[tuple[str, str], ...]  # (entity text, spaCy label) per entity, in order


def sentence_key(sentence: str) -> str:
    return hashlib.blake2b(sentence.encode("utf-8"), digest_size=12).hexdigest()


class SentenceTags:
    """Sentences' tags by sentence: kept in a JSON-lines file (`path`), or in memory only (`path` None)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._tags: dict[str, Tags] | None = None  # read from the file on first use
        self._lock = threading.Lock()

    def _loaded(self) -> dict[str, Tags]:
        if self._tags is None:
            self._tags = {}
            try:
                self._read(self._tags)
            except OSError:  # unreadable (a folder in its place, no permission): tagged again as questions need
                pass
        return self._tags

    def _read(self, into: dict[str, Tags]) -> None:
        if self.path is None or not self.path.exists():
            return
        with self.path.open(encoding="utf-8", errors="replace") as f:
            for line in f:
                try:
                    key, ents = json.loads(line)
                    into[str(key)] = tuple((str(t), str(label)) for t, label in ents)
                except (ValueError, TypeError):
                    continue  # a line cut by a crash, or not ours

    @property
    def kept(self) -> bool:
        """Whether the tags outlive this process (a file), so tagging at ingest pays off."""
        return self.path is not None

    @property
    def loaded(self) -> bool:
        return self._tags is not None

    def load(self) -> None:
        """Read the file now (the app does it behind its start-up spinner: ~0.16 s for 32k sentences)."""
        with self._lock:
            self._loaded()

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


# sentences come from text.split_sentences; the NER has its own embedding layer, so the shared tok2vec (which
# only feeds the tagger and parser) is skipped too: the same entities, ~30 % faster (2.9 -> 2.1 ms a sentence)
NER_ONLY = ["tok2vec", "tagger", "parser", "attribute_ruler", "lemmatizer"]


_NER_LOCK = threading.Lock()  # one spaCy call at a time (app sessions run in threads)


def _ner(nlp: object, sentences: Sequence[str]) -> list[Tags]:
    """spaCy's NER alone on these sentences, in one batch: (entity text, label) per entity."""
    with _NER_LOCK:
        docs = list(nlp.pipe(sentences, disable=NER_ONLY, batch_size=256))  # type: ignore[attr-defined]
    return [tuple((e.text.strip(), e.label_) for e in d.ents if e.text.strip()) for d in docs]


def tag_sentences(
    nlp: object, sentences: Sequence[str], store: SentenceTags | None = None
) -> list[list[tuple[str, str]]]:
    """Each sentence's named entities (text, label): from the store (tagged at ingest, or by an earlier question),
    else spaCy's NER alone (the parser is the costly part) on the new sentences in one batch, added to the store.
    Without a store, every sentence is tagged afresh."""
    known = store.get(sentences) if store is not None else {}
    todo = [x for x in dict.fromkeys(sentences) if x not in known]
    fresh = list(zip(todo, _ner(nlp, todo), strict=True)) if todo else []
    if store is not None and fresh:
        store.add(fresh)
    known |= dict(fresh)
    return [list(known[x]) for x in sentences]


def passage_tags(doc: object, text: str) -> list[tuple[str, Tags]]:
    """Each sentence of `text` (as the reader splits it) with the entities that a spaCy Doc of the text found in it:
    the parse extraction already ran, so ingest runs no second NER over the passage. A sentence the Doc's text does
    not contain (cleaning changed it) is left out, and tagged alone later."""
    whole, at, out = doc.text, 0, []  # type: ignore[attr-defined]
    ents = [(e.start_char, e.end_char, e.text.strip(), e.label_) for e in doc.ents]  # type: ignore[attr-defined]
    for sentence in split_sentences(text) or [text]:
        start = whole.find(sentence, at)
        if start < 0:
            continue
        at = start + len(sentence)
        out.append((sentence, tuple((t, label) for a, b, t, label in ents if start <= a and b <= at and t)))
    return out


TAG_BATCH = 512  # sentences per NER call at ingest; the lock is released between batches, so questions interleave


def tag_passages(
    texts: Sequence[str],
    store: SentenceTags,
    on_tag: Callable[[int, int], None] | None = None,
    parsed: Sequence[tuple[str, Tags]] = (),
) -> int:
    """Tag every sentence of these passages into `store` (at ingest, so no question waits for the NER): the tags
    extraction's parse already gave (`parsed`, see passage_tags) are stored as they are, spaCy's NER runs on the
    rest. Returns how many sentences were new, reporting (done, total) sentences sent to the NER after each batch to
    `on_tag`. Without spaCy's model, only `parsed` (the reader then has no candidates either)."""
    sentences = list(dict.fromkeys(x for t in texts for x in (split_sentences(t) or [t])))
    known = store.get(sentences)
    given = [(s, ents) for s, ents in dict(parsed).items() if s not in known]
    store.add(given)
    known |= dict(given)
    nlp = load_spacy()
    if nlp is None:
        return len(given)
    todo = [x for x in sentences if x not in known]
    for start in range(0, len(todo), TAG_BATCH):
        batch = todo[start : start + TAG_BATCH]
        tagged = list(zip(batch, _ner(nlp, batch), strict=True))
        store.add(tagged)
        if on_tag is not None:
            on_tag(start + len(batch), len(todo))
    return len(given) + len(todo)

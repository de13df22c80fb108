"""Which spaCy entity labels the nouns of "which/what <noun>" questions ask for, learned from the corpora's own
sentences (no question is read): for every entity the NER tagged at ingest, the words inside it and the content word
right before it ("Avery County", "in the year 1995", "the film Jaws") count for its label (the word after it was
tried: "Jaws starring Roy Scheider" made "starring" a film's word and "film" half a person's). Writes
vgrag/query/answer_types.json: per noun seen at least MIN_SEEN times, P(label | noun) for the labels with P >= 0.05.

Usage: python scripts/fit_types.py DB_FILE:BENCH_FOLDER [DB_FILE:BENCH_FOLDER …]
(the tags are the ones `bench --db DB_FILE` stored beside the graph, keyed by sentence)
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vgrag.evaluation.data import load_corpus  # noqa: E402
from vgrag.nlp import load_spacy  # noqa: E402
from vgrag.lemmas import Lemmas  # noqa: E402
from vgrag.query.question import TYPES_FILE  # noqa: E402

LEX = Lemmas()
from vgrag.storage.tags import SentenceTags  # noqa: E402
from vgrag.text import split_sentences  # noqa: E402

MIN_SEEN = 20
WINDOW = 1  # content words before the entity ("the film Jaws")
AFTER = 0  # and after it: "Jaws starring …" says nothing of Jaws's type


def main() -> None:
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    stop = load_spacy().Defaults.stop_words  # type: ignore[union-attr]
    for spec in sys.argv[1:]:
        db, folder = spec.split(":", 1)
        tags = SentenceTags(Path(db) / "vgrag-vectors" / "sentence-tags.jsonl")
        sentences = [s for _, text in load_corpus(folder).corpus for s in split_sentences(text) or [text]]
        for sentence, ents in tags.get(sentences).items():
            for text, label in ents:
                at = sentence.find(text)
                if at < 0:
                    continue
                before = [w for w in re.findall(r"[A-Za-z]+", sentence[:at]) if w.lower() not in stop][-WINDOW:]
                after = [w for w in re.findall(r"[A-Za-z]+", sentence[at + len(text) :]) if w.lower() not in stop]
                words = " ".join(before + [w for w in text.split() if w[:1].isalpha()] + after[:AFTER])
                for lemmas in LEX.content(words):
                    for lemma in lemmas:
                        counts[lemma][label] += 1
    table = {}
    for noun, c in sorted(counts.items()):
        total = sum(c.values())
        if total >= MIN_SEEN:
            probs = {lab: round(n / total, 2) for lab, n in c.most_common() if n / total >= 0.05}
            table[noun] = probs
    TYPES_FILE.write_text(json.dumps(table, sort_keys=True, separators=(",", ":")) + "\n")
    print(f"{len(table)} nouns written to {TYPES_FILE}")


if __name__ == "__main__":
    main()

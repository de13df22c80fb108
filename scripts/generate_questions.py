"""Training questions for the offline reader, generated from a graph's own stored triples and its passages' sentence
tags (no benchmark question is read): scripts/fit_reader.py --train fits the reader's weights and threshold on them,
so both dev sets stay held out.

One hop: a stored relation (s, p, o) whose object is an entity spaCy tagged in a sentence of the relation's passage
becomes "<asking phrase> <p> <s>?" with that entity as the answer. Two hops, as MuSiQue composes its questions: two
relations sharing an entity b from different passages, (s1, p1, b) or (b, p1, s1), then (b, p2, o), become
"<asking phrase> <p2> the one <s1> <p1>?" / "… the one that <p1> <s1>?" — b is never said, so the reader must cross
the bridge. The asking phrase comes from the answer entity's spaCy label (who: PERSON, when: DATE/TIME, where:
GPE/LOC/FAC, how many / how much: numbers), or "which <noun>" when the content word right before the entity in its
sentence is a noun of the learned type table (vgrag/query/answer_types.json: "the river X" -> "which river"), else
"what". Gold answers: the tagged entity and the object as stored. A question must say something beyond its names (a
content word in each predicate) and never state its answer or its bridge.

Usage: python scripts/generate_questions.py DB_FILE GRAPH OUT.json [--one 600] [--two 600] [--three 0] [--seed 0]
"""

from __future__ import annotations

import json
import random
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vgrag.embed import make_embedder  # noqa: E402
from vgrag.nlp import load_spacy  # noqa: E402
from vgrag.lemmas import Lemmas  # noqa: E402
from vgrag.query.question import STOP_WORDS, TYPES_FILE, WH_LABELS, norm  # noqa: E402

LEX = Lemmas()
from vgrag.storage.database import Database, quiet_storage_logs  # noqa: E402
from vgrag.extraction.tags import tag_sentences  # noqa: E402
from vgrag.text import split_texts  # noqa: E402

# the asking word per answer label: the reader's own question-word table read backwards (a number is "how many" when
# counted, else "how much"; a date is asked with "when")
WH = {label: ("How many" if label == "CARDINAL" else "How much") for label in WH_LABELS["how"]}
WH |= {label: word.capitalize() for word in ("who", "when", "where") for label in WH_LABELS[word]}


def _args(argv: list[str], flag: str, default: int) -> int:
    return int(argv[argv.index(flag) + 1]) if flag in argv else default


class Answers:
    """The tagged entity a relation's object is, per relation: (entity text, label, asking phrase) or None."""

    def __init__(self, graph: object) -> None:
        self.nlp = load_spacy()
        self.graph = graph
        self.texts = {p.id: p.text for p in graph.iter_passages()}  # type: ignore[attr-defined]
        ids = list(self.texts)
        self.sentences = dict(zip(ids, split_texts([self.texts[i] for i in ids]), strict=True))
        self.types = json.loads(TYPES_FILE.read_text(encoding="utf-8"))

    def find(self, passage_id: str, obj: str) -> tuple[str, str, str] | None:
        sentences = self.sentences.get(passage_id) or []
        key = norm(obj)
        tagged = tag_sentences(self.nlp, sentences, self.graph.tags)  # type: ignore[attr-defined]
        for sentence, ents in zip(sentences, tagged, strict=True):
            for text, label in ents:
                if norm(text) != key or label == "ORDINAL":
                    continue
                return text, label, self.asking(sentence, text, label)
        return None

    def asking(self, sentence: str, text: str, label: str) -> str:
        """The asking phrase: "which <noun>" when the content word right before the entity is a noun (spaCy's
        tagger) of the type table, else the label's question word."""
        at = sentence.find(text)
        doc = self.nlp(sentence[: max(at, 0)], disable=["parser", "ner", "lemmatizer"])  # type: ignore[operator]
        before = [t for t in doc if t.is_alpha and t.lower_ not in STOP_WORDS][-1:]
        if before and before[0].pos_ == "NOUN":
            noun = next((x for x in sorted(LEX.word(before[0].lower_)) if x in self.types), "")
            if noun:
                return f"Which {noun}"
        return WH.get(label, "What")


def _says_something(predicate: str) -> bool:
    return bool(LEX.content(predicate))


class Describer:
    """An entity said without its name, through a chain of relations from other passages ("the one X directed",
    "the one that married the one X directed"), as MuSiQue composes hops."""

    def __init__(self, rels: list, seed: int) -> None:
        self.seed = seed
        self.touching: dict[str, list] = defaultdict(list)  # entity id -> (relation, is the entity its object)
        for r in rels:
            self.touching[r.object_id].append((r, True))
            self.touching[r.subject_id].append((r, False))

    def describe(self, entity: str, hops: int, used: set[str]) -> tuple[str, list[str]] | None:
        """A phrase for the entity through `hops` relations from passages not in `used`, and the names it hides."""
        options = [(r, is_obj) for r, is_obj in self.touching[entity] if not set(r.passage_ids) & used]
        if not options:
            return None
        r, is_obj = options[random.Random(f"{self.seed}{entity}{hops}").randrange(len(options))]
        hidden = r.object if is_obj else r.subject
        other, other_id = (r.subject, r.subject_id) if is_obj else (r.object, r.object_id)
        if hops > 1:
            inner = self.describe(other_id, hops - 1, used | set(r.passage_ids))
            if inner is None:
                return None
            other, hidden_more = inner[0], inner[1]
        else:
            hidden_more = []
        phrase = f"the one {other} {r.predicate}" if is_obj else f"the one that {r.predicate} {other}"
        hidden_all = [hidden, *hidden_more]
        if any(f" {norm(h)} " in f" {norm(phrase)} " for h in hidden_all):
            return None
        return phrase, hidden_all


def generate(graph: object, counts: dict[int, int], seed: int = 0) -> list[dict]:
    """counts[n] questions of n hops (fewer if the graph has fewer), deterministic for a seed."""
    answers = Answers(graph)
    rels = sorted(graph.iter_relations(), key=lambda r: r.id)  # type: ignore[attr-defined]
    random.Random(seed).shuffle(rels)
    rels = [r for r in rels if r.passage_ids and _says_something(r.predicate) and norm(r.object) and norm(r.subject)
            and norm(r.object) not in norm(r.subject) and norm(r.subject) not in norm(r.object)]  # fmt: skip
    describer = Describer(rels, seed)
    out: list[dict] = []
    seen: set[str] = set()
    for hops, wanted in sorted(counts.items()):
        made = 0
        for r in rels:  # (b, p, o): the answer's relation; b is named (one hop) or described (more)
            if made >= wanted:
                break
            about: tuple[str, list[str]] | None = (r.subject, [])
            if hops > 1:
                about = describer.describe(r.subject_id, hops - 1, set(r.passage_ids))
                about = about and (about[0], [r.subject, *about[1]])
            found = answers.find(r.passage_ids[0], r.object) if about else None
            if not about or not found:
                continue
            said = f"{r.predicate} {about[0]}"
            golds = list(dict.fromkeys([found[0], r.object]))
            if any(f" {norm(x)} " in f" {norm(said)} " for x in [*golds, *about[1]]):
                continue  # the question must not state its answer or a bridge
            question = f"{found[2]} {said}?"
            if question not in seen:
                seen.add(question)
                out.append({"question": question, "answers": golds, "hops": hops, "label": found[1]})
                made += 1
    return out


def main() -> None:
    argv = sys.argv[1:]
    db, graph_name, out = argv[:3]
    quiet_storage_logs()
    embedder = make_embedder("minilm")
    graph = Database(db).open_graph(graph_name, embedder.model_id, embedder.dim, create=False)
    counts = {1: _args(argv, "--one", 600), 2: _args(argv, "--two", 600), 3: _args(argv, "--three", 0)}
    qs = generate(graph, counts, _args(argv, "--seed", 0))
    Path(out).write_text(json.dumps(qs, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    hops = [q["hops"] for q in qs]
    print(f"{len(qs)} questions ({', '.join(f'{hops.count(n)} of {n} hops' for n in counts)}) written to {out}")


if __name__ == "__main__":
    main()

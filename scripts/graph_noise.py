"""The noise of a graph built from real documents (issue #31): ingest files into a temporary Milvus Lite graph
with the offline extractor and count what breaks hops and clutters steps.

Usage:
  python scripts/graph_noise.py FILE… [--bench DIR:N[:START]] [--code DIR] [--minilm]
  --bench DIR:N  also ingest N passages of a benchmark corpus (corpus.json) as one Markdown file, one "# title"
                 section per passage
  --code DIR     import vgrag from DIR instead (another checkout, for before/after figures on the same files)
  --minilm       embed with the real MiniLM model (default: the tests' hashing embedder; names do not depend on it)
  --list         list every 6+-word name and quantity phrase (not only the first few), to sort real from noise

Counted over the graph's entities / distinct predicates (the detectors are this script's own, so a before/after
comparison measures both checkouts with the same ruler):
  six_plus      names of 6+ words
  heading_glued names that end (or start) with a heading of their own document and are longer than it (over
                bench passages most are real names holding another article's title: "Louis V of France");
                heading_glued_generic counts only headings that do not name something ("Career", "History")
  quantity      lower-case names led by a determiner/quantifier (spaCy: a stop word tagged DET/ADJ/NUM/PRON, or
                an ordinal/cardinal number: "many genres", "several other proteins", "first time")
  fold_dupes    names beyond the first that fold to one string (accents, case, punctuation, a leading title
                such as "Dr." or "Prof.")
  abbr_split    abbreviations the text defines ("Long form (LF)") stored as two entities
  year_preds    distinct predicates that carry a year
  one_relation  entities with exactly one relation
  range_dates   names that are a date range, period or frequency ("between 14 and 16 November 2022", "second half
                of the 19th century", "every 18 months"): when a fact happened, not a thing
  titled        person names carrying an honorific ("Mr Daniel Osei", "Dr. Mignot") or post-nominal letters ("Zoë
                Lefèvre KC")
  heading_entities  entities named as a nested section heading of their document ("Impact", "The Law",
                "Narcolepsy"): a topic entity; read the list to tell report headings from names
  role_glued    person-like names (3+ capitalised words) whose first words look like a role: a shorter name it
                ends with is an entity or written after another word in the texts ("Councillor David Lindqvist" beside
                "David Lindqvist"), or its first word starts two or more such names ("Councillor Priya Raman",
                "Councillor Martin Hale"); read the list (a given name can pass: "Mary Ann Evans")
  measured      names holding a measure or a score: a number followed by a unit-shaped word (a symbol, "%", "°C", or
                a short lower-case-led word without a vowel: "300 g plain flour", "3 mM ABTS", "400 mm centres"), a
                score "3–2", or the lone letter of a split "°C" ("C", "F")
  dangling      names ending in a function word or starting after a comma's glue ("Checkout Service of", "UTC,
                card payments")
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
import time
import unicodedata
from pathlib import Path

HERE = Path(__file__).resolve().parent
_code = sys.argv[sys.argv.index("--code") + 1] if "--code" in sys.argv else str(HERE.parent)
sys.path.insert(0, _code)
sys.path.insert(1, str(HERE.parent))  # tests.fakes

from tests.fakes import HashEmbedder  # noqa: E402
from vgrag.documents.sources import document_sections  # noqa: E402
from vgrag.documents.structure import entity_like  # noqa: E402
from vgrag.extraction.extract import OfflineExtractor  # noqa: E402
from vgrag.ingest import ingest_documents  # noqa: E402
from vgrag.nlp import load_spacy  # noqa: E402
from vgrag.storage.database import Database  # noqa: E402

_TITLE = re.compile(r"^(?:[A-Z][a-z]{0,3}\.\s+|(?:Sir|Dame|Lord|Lady)\s+)")
_YEAR = re.compile(r"\b(?:1[0-9]{3}|20[0-9]{2})s?\b")
_RANGE_DATE = re.compile(r"\d.*\b(?:to|and|until|through)\b.*\d|\b(?:between|from|every)\b.*\d|\b(?:century|"
                         r"centuries|decades?)\b|\d\s*[–-]\s*\d", re.I)  # fmt: skip
_DATE_START = re.compile(r"(?:Between|From|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)", re.I)
_TITLED = re.compile(r"^(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sir|Dame)\.?\s+\S+\s+\S+|\s(?:KC|QC|MW|DBE|OBE|MBE|CBE|PhD|FRS)$")
_DANGLING = re.compile(r"\s(?:of|and|or|the|for|to|in|at|by)$|^[A-Z]\w*,\s+[a-z]")
_MEASURED = re.compile(r"(?:^|\s)[\d.,½¼¾]+\s*(?:%|°\s?[A-Z]?|(?![aeiouy])[a-zµ][^\saeiouyAEIOUY\d]{0,5})(?=\s|$)|"
                       r"(?:^|\s)\d{1,2}[–-]\d{1,2}$|^[CFK]$")  # fmt: skip
_ENUM = re.compile(r"^\d+(?:\.\d+)*\.?\s+")
_DEFINED = re.compile(r"([A-Za-z][\w\-]*(?:\s+[\w\-]+){1,7})\s+\(([A-Z][A-Za-z]*[A-Z]s?)\)")


def fold(name: str) -> str:
    """A name without accents, case, punctuation, spacing or a leading title ("Dr.", "Prof.", "Sir")."""
    s = _TITLE.sub("", name.strip())
    s = "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))
    return " ".join(re.findall(r"\w+", s.casefold()))


def defined_abbreviations(text: str) -> list[tuple[str, str]]:
    """(long form, abbreviation) pairs written "Long form (LF)": the long form is the last words before the
    parenthesis whose initials spell the abbreviation."""
    out = []
    for m in _DEFINED.finditer(text):
        words, abbr = m.group(1).split(), m.group(2).rstrip("s")
        for n in range(1, len(words) + 1):
            tail = words[-n:]
            if "".join(w[0] for w in tail).upper() == abbr.upper():
                out.append((" ".join(tail), m.group(2)))
                break
    return out


def bench_file(spec: str) -> tuple[str, bytes]:
    parts = spec.split(":")
    folder, n, start = Path(parts[0]), int(parts[1]), int(parts[2]) if len(parts) > 2 else 0
    corpus = json.loads((folder / "corpus.json").read_text())[start : start + n]
    md = "\n\n".join(f"# {d['title']}\n\n{d['text']}" for d in corpus)
    return f"{folder.name}_{n}.md", md.encode()


def noise(files: list[tuple[str, bytes]], embedder: object, every: bool = False) -> dict:
    nlp = load_spacy()
    headings: set[str] = set()
    inner: set[str] = set()  # headings nested under another (a document's title excluded)
    texts = []
    for name, data in files:
        for sec in document_sections(name, data):
            headings.update(h.strip().casefold() for h in sec.heading if h.strip())
            inner.update(h.strip().casefold() for h in sec.heading[1:] if h.strip())
            texts.append(sec.text)
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(str(Path(tmp) / "noise.db"))
        graph = db.open_graph("noise", embedder.model_id, embedder.dim, create=True)  # type: ignore[attr-defined]
        t0 = time.perf_counter()
        report = ingest_documents(graph, embedder, OfflineExtractor(), files)  # type: ignore[arg-type]
        secs = time.perf_counter() - t0
        ents = list(graph.iter_entities())
        rels = list(graph.iter_relations())
        db.close()
    names = [e.name for e in ents]
    n = max(len(names), 1)
    six = [x for x in names if len(x.split()) >= 6]
    glued = [x for x in names for h in headings if x.casefold() != h and (x.casefold().endswith(" " + h) or
             x.casefold().startswith(h + " "))]  # fmt: skip
    generic = {h for h in headings if not entity_like(h.title())}  # "career", "history", "early life"
    glued_generic = [x for x in glued for h in generic if x.casefold().endswith(" " + h) or x.casefold().startswith(
                     h + " ")]  # fmt: skip
    quantity = []
    for x, doc in zip(names, nlp.pipe(names), strict=True):  # type: ignore[attr-defined]
        first = doc[0] if len(doc) else None
        if first is None or not x[:1].islower() or len(doc) < 2 or doc[1].text in ("-", "–"):
            continue
        if (first.is_stop and first.pos_ in ("DET", "ADJ", "NUM", "PRON") and first.lower_ not in ("the", "a", "an")
                or first.like_num or first.ent_type_ in ("ORDINAL", "CARDINAL")):  # fmt: skip
            quantity.append(x)
    groups: dict[str, list[str]] = {}
    for x in names:
        groups.setdefault(fold(x), []).append(x)
    dupes = [g for g in groups.values() if len(g) > 1]
    folded = set(groups)
    defined = {(fold(lf), fold(ab)) for t in texts for lf, ab in defined_abbreviations(t)}
    split = sorted((lf, ab) for lf, ab in defined if lf in folded and ab in folded)
    preds = {r.predicate for r in rels}
    year_preds = sorted(p for p in preds if _YEAR.search(p))
    dated = sum(1 for r in rels if getattr(r, "when", ""))
    one = sum(1 for e in ents if len(e.relation_ids) == 1)
    heading_names = [x for x in names if x.casefold() in inner or _ENUM.sub("", x).casefold() in inner]
    ranges = [x for x in names if _RANGE_DATE.search(x) and (not x[:1].isupper() or _DATE_START.match(x))]
    titled = [x for x in names if _TITLED.search(x)]
    dangling = [x for x in names if _DANGLING.search(x)]
    measured = [x for x in names if _MEASURED.search(x)]
    role_glued = _role_glued(names, texts, nlp)
    pct = lambda k, d=n: round(100 * k / max(d, 1), 1)  # noqa: E731
    return {
        "files": [f for f, _ in files],
        "entities": len(names),
        "relations": len(rels),
        "six_plus": [len(six), pct(len(six))],
        "heading_glued": len(set(glued)),
        "heading_glued_generic": len(set(glued_generic)),
        "quantity": [len(quantity), pct(len(quantity))],
        "fold_dupes": sum(len(g) - 1 for g in dupes),
        "abbr_defined_split": [len(split), len(defined)],
        "year_preds": [len(year_preds), len(preds), pct(len(year_preds), len(preds))],
        "dated_relations": dated,
        "one_relation": [one, pct(one)],
        "heading_entities": len(heading_names),
        "range_dates": len(ranges),
        "titled": len(titled),
        "dangling": len(dangling),
        "measured": len(measured),
        "role_glued": [len(role_glued), pct(len(role_glued))],
        "ingest_s": round(secs, 1),
        "extract_s": round(report.timings.get("extract", 0.0), 1),
        "examples": {
            "six_plus": six if every else six[:5],
            "heading_glued": sorted(set(glued))[:5],
            "quantity": quantity if every else quantity[:8],
            "fold_dupes": dupes[:5],
            "abbr_split": split[:5],
            "year_preds": year_preds[:6],
            "heading_entities": heading_names[:8],
            "range_dates": ranges[:6],
            "titled": titled[:6],
            "dangling": dangling[:6],
            "measured": measured if every else measured[:8],
            "role_glued": role_glued if every else role_glued[:8],
        },
    }


def _role_glued(names: list[str], texts: list[str], nlp: object) -> list[str]:
    caps = [x for x in names if len(x.split()) >= 3 and all(w[:1].isupper() and w.isalpha() for w in x.split())]
    caps = [x for x, d in zip(caps, nlp.pipe(caps), strict=True) if any(e.label_ == "PERSON" for e in d.ents)]  # type: ignore[attr-defined]
    known = set(names)
    first: dict[str, set[str]] = {}
    for x in caps:
        first.setdefault(x.split()[0], set()).add(x)

    def alone(tail: str, before: str) -> bool:  # written after something other than `before`
        return any(not t[: m.start()].endswith(before + " ") for t in texts for m in re.finditer(r"\b" + re.escape(
                   tail) + r"\b", t))  # fmt: skip

    out = []
    for x in caps:
        w = x.split()
        if len(first[w[0]]) >= 2 or any(" ".join(w[k:]) in known or alone(" ".join(w[k:]), w[k - 1]) for k in
                                        range(1, len(w) - 1)):  # fmt: skip
            out.append(x)
    return out


def main() -> None:
    argv = sys.argv[1:]
    files: list[tuple[str, bytes]] = []
    skip = False
    for i, a in enumerate(argv):
        if skip:
            skip = False
            continue
        if a in ("--code", "--bench"):
            skip = True
            if a == "--bench":
                files.append(bench_file(argv[i + 1]))
        elif a not in ("--minilm", "--list"):
            files.append((Path(a).name, Path(a).read_bytes()))
    if "--minilm" in argv:
        from vgrag.embed import make_embedder

        embedder: object = make_embedder("minilm")
    else:
        embedder = HashEmbedder()
    sys.stdout.write(json.dumps(noise(files, embedder, "--list" in argv), ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()

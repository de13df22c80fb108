"""A user's Markdown file of many articles through the real ingest planning and the offline extractor.

Usage: python scripts/structure_quality.py ../shared/bench/musique_train [N articles]

The first N benchmark passages become one file `wiki_articles.md` ("## <title>" then the text, as a user's export
of Wikipedia articles looks). Reports: chunks whose text mixes two articles, passage titles equal to the file
name, triples whose subject or object is the file name, Markdown left in passage text, and subject–object pair
recall/precision against HippoRAG's GPT-3.5 triples for the same articles. Runs on older commits too (they lack
plan_chunks: their ingest chunked the whole text and titled every chunk with the file name).
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vgrag.extraction.extract import OfflineExtractor  # noqa: E402
from vgrag.text import chunk_text, normalize_name  # noqa: E402

NAME = "wiki_articles.md"


def planned(data: bytes) -> list[tuple[str, str, str]]:
    """(title, topic, text) per chunk, as this commit's ingest does it."""
    try:
        from vgrag.ingest import plan_chunks
    except ImportError:  # before structure-aware ingest
        from vgrag.documents.sources import document_text

        return [(NAME, NAME, c) for c in chunk_text(document_text(NAME, data), 1200, 1)]
    return [(c.title, c.topic, c.text) for c in plan_chunks(NAME, data, 1200, 1)]


def main() -> None:
    folder = Path(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    docs = json.loads(next(folder.glob("openie*.json")).read_text())["docs"][:n]
    md = "# Articles\n\n" + "".join(f"## {d['title']}\n\n{d['text']}\n\n" for d in docs)
    chunks = planned(md.encode())
    t0 = time.perf_counter()
    res = OfflineExtractor().extract_many([c[2] for c in chunks], [c[1] for c in chunks])
    secs = time.perf_counter() - t0
    # a chunk "mixes" articles when it holds a sentence start of two different articles' first sentences
    firsts = [d["text"][:60] for d in docs]
    mixed = sum(1 for _, _, text in chunks if sum(f in text for f in firsts) >= 2)
    fname = normalize_name(NAME)
    ours = [t for r in res for t in r.triples]
    with_file = [t for t in ours if fname in (normalize_name(t.subject), normalize_name(t.object))]
    gold = [t for d in docs for t in d["extracted_triples"] if len(t) == 3]
    gold_pairs = {frozenset((normalize_name(str(t[0])), normalize_name(str(t[2])))) for t in gold}
    our_pairs = {frozenset((normalize_name(t.subject), normalize_name(t.object))) for t in ours}
    out = {
        "articles": len(docs),
        "chunks": len(chunks),
        "chunks_mixing_articles": mixed,
        "titles_equal_file_name": sum(1 for c in chunks if c[0] == NAME),
        "triples": len(ours),
        "triples_with_file_name": len(with_file),
        "chunks_with_markdown": sum(1 for c in chunks if re.search(r"(^|\s)#{1,6}\s", c[2])),
        "pair_recall": round(len(gold_pairs & our_pairs) / max(len(gold_pairs), 1), 3),
        "pair_precision": round(len(gold_pairs & our_pairs) / max(len(our_pairs), 1), 3),
        "extract_s": round(secs, 1),
    }
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()

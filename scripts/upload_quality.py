"""A realistic mixed upload through the real ingest: Wikipedia-like benchmark articles as a Markdown file, an
outline-less PDF printed by Chromium (bold, larger headings; running footer with URL and page numbers) and an HTML
page — different articles in each, citation markers added as copied Wikipedia text has them.

Usage: python scripts/upload_quality.py /work/shared/bench/hotpotqa_dev [N articles per file] [--code DIR]
  --code DIR  import vgrag from DIR instead (another checkout, for before/after figures on the same files)

Reports: chunks and passage titles per file (does the PDF split into its articles?), triples, entities, isolated
entities (no relation), entity names with a citation marker or a repeated title, the most connected entities, and
the ingest time split into read / extract / embed / store. Files are built under /tmp/vgrag-upload/.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
code = Path(sys.argv[sys.argv.index("--code") + 1]) if "--code" in sys.argv else HERE.parent
sys.path.insert(0, str(code))
_spec = importlib.util.spec_from_file_location("fixtures", HERE.parent / "tests" / "fixtures" / "make_fixtures.py")
fixtures = importlib.util.module_from_spec(_spec)  # type: ignore[arg-type]
_spec.loader.exec_module(fixtures)  # type: ignore[union-attr]
with_markers, write = fixtures.with_markers, fixtures.write

from vgrag.embed import make_embedder  # noqa: E402
from vgrag.extraction.extract import OfflineExtractor  # noqa: E402
from vgrag.ingest import ingest_documents, plan_chunks  # noqa: E402
from vgrag.storage.database import Database  # noqa: E402

OUT = Path("/tmp/vgrag-upload")


def build(corpus_dir: Path, n: int) -> list[tuple[str, bytes]]:
    corpus = json.loads((corpus_dir / "corpus.json").read_text())
    arts = list({d["title"]: d["text"] for d in corpus}.items())
    files = []
    for k, kind in enumerate(("md", "pdf", "html")):
        part = [(t, with_markers(x, 1 + 3 * i)) for i, (t, x) in enumerate(arts[k * n : (k + 1) * n])]
        write(OUT / kind, part)
        files.append((f"articles_{kind}.{kind}", (OUT / kind / f"articles.{kind}").read_bytes()))
    return files


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--code" and (sys.argv.index(a) == 0 or sys.argv[sys.argv.index(a) - 1]
            != "--code")]  # fmt: skip
    n = int(args[1]) if len(args) > 1 else 60
    files = build(Path(args[0]), n)
    per_file = {}
    for name, data in files:
        chunks = plan_chunks(name, data)
        per_file[name] = {"chunks": len(chunks), "distinct_titles": len({c.title for c in chunks})}
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(str(Path(tmp) / "u.db"))
        emb = make_embedder("minilm")
        graph = db.open_graph("upload", emb.model_id, emb.dim, create=True)
        t0 = time.perf_counter()
        report = ingest_documents(graph, emb, OfflineExtractor(), files)
        secs = time.perf_counter() - t0
        ents = list(graph.iter_entities())
    junk = [e.name for e in ents if re.search(r"\[|\]", e.name) or _repeated(e.name)]
    hubs = sorted(ents, key=lambda e: -len(e.relation_ids))[:8]
    print(json.dumps({
        "articles_per_file": n,
        "files": per_file,
        "triples": report.triples,
        "entities": len(ents),
        "isolated_entities": sum(1 for e in ents if not e.relation_ids),
        "isolated_share": round(sum(1 for e in ents if not e.relation_ids) / max(len(ents), 1), 3),
        "junk_names": junk[:20],
        "junk_count": len(junk),
        "hubs": [(e.name, len(e.relation_ids)) for e in hubs],
        "ingest_s": round(secs, 1),
        "timings": {k: round(v, 1) for k, v in report.timings.items()},
    }, indent=None))  # fmt: skip


def _repeated(name: str) -> bool:
    w = name.casefold().split()
    return any(w[:h] == w[h:] or w[:h] == w[h + 1 :] for h in range(1, len(w) // 2 + 1))


if __name__ == "__main__":
    main()

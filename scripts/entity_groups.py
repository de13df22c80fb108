"""How many entities each thing became, and what Review → Suggested fixes offers, for files ingested as a user
would (offline extractor, the tests' hashing embedder, a temporary Milvus Lite graph).

Usage: python scripts/entity_groups.py [--code CHECKOUT] [--groups GROUPS.json] FILE…
  GROUPS.json: [[name, name, …], …], the names a reader counts as one thing (a walk-through's list); for each group
  the entities present (by name or as a recorded alias) are printed, and the totals.
Prints every entity name with its relation count, then the suggested fixes (kind and title).
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
_code = sys.argv[sys.argv.index("--code") + 1] if "--code" in sys.argv else str(HERE.parent)
sys.path.insert(0, _code)
sys.path.insert(1, str(HERE.parent))  # tests.fakes

from tests.fakes import HashEmbedder  # noqa: E402
from vgrag.editing.suggest import suggest_fixes  # noqa: E402
from vgrag.extraction.extract import OfflineExtractor  # noqa: E402
from vgrag.ingest import ingest_documents  # noqa: E402
from vgrag.storage.database import Database  # noqa: E402


def main() -> None:
    argv, files, groups = sys.argv[1:], [], []
    i = 0
    while i < len(argv):
        if argv[i] == "--code":
            i += 2
            continue
        if argv[i] == "--groups":
            groups = json.loads(Path(argv[i + 1]).read_text())
            i += 2
            continue
        files.append((Path(argv[i]).name, Path(argv[i]).read_bytes()))
        i += 1
    emb = HashEmbedder()
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(str(Path(tmp) / "g.db"))
        graph = db.open_graph("g", emb.model_id, emb.dim, create=True)
        ingest_documents(graph, emb, OfflineExtractor(), files)  # type: ignore[arg-type]
        ents = sorted(graph.iter_entities(), key=lambda e: e.name)
        fixes = suggest_fixes(graph)
        db.close()
    out = sys.stdout
    for e in ents:
        out.write(f"  {e.name} ({len(e.relation_ids)})\n")
    out.write(f"{len(ents)} entities\n")
    for s in fixes:
        out.write(f"  fix [{s.kind}] {s.title}\n")
    out.write(f"{len(fixes)} suggested fixes\n")
    if groups:
        names = {e.name for e in ents}
        total = 0
        for g in groups:
            present = [n for n in g if n in names]
            total += len(present)
            out.write(f"  group {g[0]!r}: {len(present)} entities {present}\n")
        split = sum(1 for g in groups if len([n for n in g if n in names]) > 1)
        out.write(f"{split} of {len(groups)} groups split; {total} entities in them\n")


if __name__ == "__main__":
    main()

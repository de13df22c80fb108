"""Every triple the offline extractor gives for each document, as ingest plans and reads it.

Usage: python scripts/file_triples.py CHECKOUT FILE…   (CHECKOUT: a frozen checkout whose vgrag is used)
"""

from __future__ import annotations

import sys
from pathlib import Path


def main(code: str, files: list[str]) -> None:
    sys.path.insert(0, code)
    from vgrag.extraction.extract import OfflineExtractor
    from vgrag.ingest.passages import plan_chunks

    extractor = OfflineExtractor()
    for f in files:
        chunks = plan_chunks(Path(f).name, Path(f).read_bytes())
        found = extractor.extract_many([c.parse_text or c.text for c in chunks], [c.topic for c in chunks])
        print(f"=== {Path(f).name}: {len(chunks)} chunks, {sum(len(r.triples) for r in found)} triples")
        for r in found:
            for t in r.triples:
                print(f"  {t.subject} | {t.predicate} | {t.object}" + (f" [{t.when}]" if t.when else ""))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])

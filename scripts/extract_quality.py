"""Offline extractor vs HippoRAG's GPT-3.5 triples on a benchmark corpus: entity and triple overlap.

Usage: python scripts/extract_quality.py ../shared/bench/musique_train [N passages [first passage]] Entity
recall/precision compare normalised entity names per passage; a triple "matches" when its subject and object both
match a GPT triple's subject and object (predicates are worded too differently to compare). Names are compared
twice: normalised (case, spacing) and by the canonical key both sides get (vgrag.extraction.entities.key: also no
leading article or citation marker), since the graph stores canonical names ("Beatles" for "The Beatles")."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vgrag.extraction.entities import key  # noqa: E402
from vgrag.extraction.extract import OfflineExtractor  # noqa: E402
from vgrag.text import normalize_name  # noqa: E402


def overlap(docs: list[dict], res: list, norm: Callable[[str], str]) -> dict[str, float]:
    """Entity and subject–object pair recall/precision against the GPT-3.5 triples, names compared by `norm`."""
    e_tp = e_ours = e_gold = t_tp = t_ours = t_gold = 0
    for d, r in zip(docs, res, strict=True):
        gold_t = [t for t in d["extracted_triples"] if len(t) == 3]
        gold_e = {norm(str(x)) for t in gold_t for x in (t[0], t[2])}
        ours_e = {norm(x) for t in r.triples for x in (t.subject, t.object)}
        e_tp += len(gold_e & ours_e)
        e_ours += len(ours_e)
        e_gold += len(gold_e)
        pairs = {frozenset((norm(str(t[0])), norm(str(t[2])))) for t in gold_t}
        ours_p = {frozenset((norm(t.subject), norm(t.object))) for t in r.triples}
        t_tp += len(pairs & ours_p)
        t_ours += len(ours_p)
        t_gold += len(pairs)
    return {
        "entity_recall": round(e_tp / max(e_gold, 1), 3),
        "entity_precision": round(e_tp / max(e_ours, 1), 3),
        "pair_recall": round(t_tp / max(t_gold, 1), 3),
        "pair_precision": round(t_tp / max(t_ours, 1), 3),
    }


def main() -> None:
    folder = Path(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 10**9
    start = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    docs = json.loads(next(folder.glob("openie*.json")).read_text())["docs"][start : start + n]
    ex = OfflineExtractor()
    t0 = time.perf_counter()
    res = ex.extract_many([d["text"] for d in docs], [d["title"] for d in docs])
    secs = time.perf_counter() - t0
    out = {
        "passages": len(docs),
        "seconds": round(secs, 1),
        "passages_per_s": round(len(docs) / secs, 1),
        "triples_ours": sum(len(r.triples) for r in res),
        "triples_gpt35": sum(len([t for t in d["extracted_triples"] if len(t) == 3]) for d in docs),
        "chunks_without_triples": sum(1 for r in res if not r.triples),
    }
    for label, norm in (("normalised", normalize_name), ("canonical", key)):
        out[label] = overlap(docs, res, norm)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()

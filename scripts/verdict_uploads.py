"""The offline verdict on realistic uploads, held out: every folder under tests/fixtures with a questions.json
({"answerable": [[question, answer], ...], "unanswerable": [question, ...]}) is ingested as a user's files are
(offline extraction, the real MiniLM embedder, a temporary Milvus Lite file) and each question asked through the
app's query pipeline (`run_query`, app defaults), as tests/test_verdict_*.py do.

Per upload: the share of unanswerable questions said "not in these documents" and how many are said "found" (the
promise: none), the share of answerable ones said "not in", and in how many the answer string is in the shown
evidence (normalised, as the bench's evidence_contains: the documents' words only; `in_shown` in the JSON rows
counts the names the answer step inserts beside a pronoun too, "She [= Katarzyna Pyrek]").

    python scripts/verdict_uploads.py                      # the table
    python scripts/verdict_uploads.py -v                   # and every question: verdict, answer in evidence, why
    python scripts/verdict_uploads.py -v tests/fixtures/rail_operator   # one upload
    python scripts/verdict_uploads.py --json OUT.json      # per-question rows
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vgrag.embed import MiniLMEmbedder  # noqa: E402
from vgrag.extraction.extract import OfflineExtractor  # noqa: E402
from vgrag.ingest import ingest_documents  # noqa: E402
from vgrag.query.pipeline import run_query  # noqa: E402
from vgrag.query.question import norm  # noqa: E402
from vgrag.storage.database import Database, quiet_storage_logs  # noqa: E402

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"
KINDS = (".md", ".txt", ".html", ".pdf", ".docx")


def uploads() -> list[Path]:
    return sorted(p.parent for p in FIXTURES.glob("*/questions.json"))


def ask_upload(db: Database, embedder: MiniLMEmbedder, folder: Path) -> list[dict]:
    """Ingest the folder's files into a fresh graph and ask each of its questions; one row per question."""
    spec = json.loads((folder / "questions.json").read_text())
    files = [(p.name, p.read_bytes()) for p in sorted(folder.iterdir()) if p.suffix in KINDS and p.stem != "README"]
    name = f"verdict_{folder.name}"
    g = db.open_graph(name, embedder.model_id, embedder.dim)
    ingest_documents(g, embedder, OfflineExtractor(), files)
    rows = []
    asked = [(q, a, True) for q, a in spec["answerable"]] + [(q, "", False) for q in spec["unanswerable"]]
    for q, gold, answerable in asked:
        ans = run_query(q, g, embedder).answer
        shown = " ".join(norm(e.sentence) for e in ans.evidence)
        rows.append({
            "upload": folder.name, "question": q, "gold": gold, "answerable": answerable,
            "verdict": ans.verdict.kind, "said": ans.verdict.said,
            "in_evidence": bool(gold) and f" {norm(gold)} " in f" {shown} ",
            "evidence": [e.sentence for e in ans.evidence], "answer_ms": ans.ms,
            "shown": [e.shown() for e in ans.evidence],  # with the names the tool inserts ("She [= …]")
            "in_shown": bool(gold) and f" {norm(gold)} " in f" {' '.join(norm(e.shown()) for e in ans.evidence)} ",
        })  # fmt: skip
    db.drop_graph(name)
    return rows


def pct(k: int, n: int) -> str:
    return f"{100 * k / n:.0f} % ({k}/{n})" if n else "–"


def table(rows: list[dict]) -> str:
    out = ["| upload | unanswerable: not in | unanswerable: found | answerable: not in | answerable: found | "
           "answer in evidence | answer in evidence, said not in |", "|---|---|---|---|---|---|---|"]  # fmt: skip
    for name in [*dict.fromkeys(r["upload"] for r in rows), "all"]:
        rs = [r for r in rows if name in ("all", r["upload"])]
        un = [r for r in rs if not r["answerable"]]
        an = [r for r in rs if r["answerable"]]
        ev = [r for r in an if r["in_evidence"]]
        out.append(
            f"| {name} | {pct(sum(r['verdict'] == 'missing' for r in un), len(un))} "
            f"| {sum(r['verdict'] == 'found' for r in un)} "
            f"| {pct(sum(r['verdict'] == 'missing' for r in an), len(an))} "
            f"| {pct(sum(r['verdict'] == 'found' for r in an), len(an))} "
            f"| {pct(len(ev), len(an))} | {pct(sum(r['verdict'] == 'missing' for r in ev), len(ev))} |"
        )
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="*", type=Path, help="upload folders (default: every fixture with questions)")
    ap.add_argument("-v", "--verbose", action="store_true", help="every question's verdict and evidence")
    ap.add_argument("--json", type=Path, help="write the per-question rows here")
    a = ap.parse_args()
    quiet_storage_logs()
    embedder = MiniLMEmbedder()
    rows: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="vgrag-uploads-") as tmp:
        db = Database(str(Path(tmp) / "u.db"))
        for folder in a.folders or uploads():
            rows += ask_upload(db, embedder, folder)
        db.close()
    if a.verbose:
        for r in rows:
            tag = ("A " + ("ev" if r["in_evidence"] else "--")) if r["answerable"] else "U   "
            print(f"[{r['upload']}] {tag} {r['verdict']:7} {r['question']}  gold={r['gold']!r}\n    {r['said']}")
            for s in r["shown"]:
                print(f"      · {s}")
    if a.json:
        a.json.write_text(json.dumps(rows, indent=1, ensure_ascii=False))
    print(table(rows))


if __name__ == "__main__":
    main()

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from milvus_lite import server_manager_instance
from pdfmake import text_pdf

from vgrag import Settings, Workspace
from vgrag.documents.inputs import read_file
from vgrag.documents.triple_files import read_openie
from vgrag.extraction.extract import Extraction
from vgrag.ingest import ingest_documents, ingest_imported
from vgrag.models import Triple
from vgrag.storage.check import CheckReport, check_graph
from vgrag.storage.writer import delete_document
from vgrag.text import content_hash

ROOT = Path(__file__).resolve().parent.parent


class ScriptedExtractor:
    """A real Extractor: returns triples per chunk from a script; fails on chunks containing 'FAIL'."""

    name = "scripted"

    def extract_many(self, texts, titles=None):
        out = []
        for t in texts:
            if "FAIL" in t:
                out.append(Extraction(raw="garbage", error="no JSON found in the response"))
                continue
            words = [w.strip(".") for w in t.split() if w[:1].isupper()]
            out.append(
                Extraction(tuple(Triple(a, "relates to", b) for a, b in zip(words, words[1:], strict=False) if a != b))
            )
        return out


def test_documents_progress_failures_and_report(graph, embedder):
    events = []
    files = [
        ("notes.txt", b"Alice met Bob. Bob met Carol."),
        ("paper.pdf", text_pdf(["Dana visited Erin in Paris."])),
        ("broken.pdf", b"%PDF-1.4 garbage"),
        ("bad.txt", b"Zed FAIL here."),
    ]
    r = ingest_documents(graph, embedder, ScriptedExtractor(), files, on_progress=events.append)
    assert r.documents == ("notes.txt", "paper.pdf", "bad.txt")
    assert {f.source for f in r.failures} == {"broken.pdf", "bad.txt"}
    assert "not a readable PDF" in next(f.reason for f in r.failures if f.source == "broken.pdf")
    assert r.counts["passages"] == 3  # the chunk whose extraction failed is still stored
    chunk_events = [e for e in events if e.chunk is not None]
    assert [e.done for e in chunk_events] == [1, 2, 3]
    assert chunk_events[0].chunk.triples == (Triple("Alice", "relates to", "Bob"), Triple("Bob", "relates to", "Carol"))
    assert chunk_events[-1].chunk.error and events[-1].stage == "done"
    assert set(r.timings) >= {"read", "extract", "embed", "store", "total"}
    assert check_graph(graph).ok


def test_reingest_unchanged_is_skipped_and_changed_is_replaced(graph, embedder):
    ex = ScriptedExtractor()
    ingest_documents(graph, embedder, ex, [("a.txt", b"Alice met Bob.")])
    again = ingest_documents(graph, embedder, ex, [("a.txt", b"Alice met Bob.")])
    assert again.unchanged == ("a.txt",) and again.passages_new == 0
    changed = ingest_documents(graph, embedder, ex, [("a.txt", b"Carol met Dave.")])
    assert changed.replaced == ("a.txt",)
    names = {e.name for e in graph.iter_entities()}
    assert names == {"Carol", "Dave"}
    assert check_graph(graph).ok
    [doc] = graph.documents.all()
    delete_document(graph, doc.id)
    assert graph.counts() == {"passages": 0, "entities": 0, "relations": 0} and graph.documents.all() == []


def test_bench_openie_import(graph, embedder):
    from conftest import SAMPLE_BENCH

    data = (SAMPLE_BENCH / "openie_minibench.json").read_bytes()
    r = ingest_imported(graph, embedder, "sample.json", content_hash(data), read_openie(data))
    assert r.chunks == 12 and r.triples == 28  # the 2-element triple is skipped
    assert r.counts["passages"] == 12 and r.counts["relations"] == 27  # "located in" Valparaíso is stated twice
    assert check_graph(graph).ok


N_CRASH = 120  # passages: 6 stored batches of 20; each kill below lands at a known point mid-ingest
CRASHES = (("embed", 3), ("passages", 4), ("relations", 5))  # see tests/crash_at.py: the Nth call of that kind


def _ingest_args(triples: Path) -> list[str]:
    return ["--graph", "crash", "ingest", "--triples", str(triples), "--batch-size", "20"]


def _kill_at(env: dict, triples: Path, point: str, n: int) -> None:
    """Run the CLI's ingest and kill -9 it at a known point: inside the embedding of its nth batch, or right after
    the nth write of passages (or relations), before the rest of that batch is written."""
    cmd = [sys.executable, str(ROOT / "tests" / "crash_at.py"), point, str(n), "--", *_ingest_args(triples)]
    p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == -signal.SIGKILL, (point, n, p.returncode, p.stderr[-2000:])  # the point was reached


def _ingest_and_check(path: str, embedder, triples: Path | None) -> CheckReport:
    """What `vgrag --graph crash ingest --triples FILE --batch-size 20` then `vgrag check` do, in this process (the
    same Workspace calls; the file is released after, for the next program)."""
    ws = Workspace.open(Settings(milvus_uri=path), embedder)
    try:
        if triples is not None:
            ws.import_triples((str(triples), read_file(triples)), "crash", 20)
        return ws.check("crash")
    finally:
        ws.close()
        server_manager_instance.release_server(path)


def test_interrupted_ingest_rerun_equals_clean_ingest(tmp_path, minilm):
    """kill -9 an import three times at different points (inside embedding and between the writes of a batch),
    then let it finish: the counts equal a clean run's and the consistency check passes."""
    rows = "\n".join(
        f'{{"title": "P{i}", "passage": "Person {i} knows Person {i + 1} in City {i % 7}.", '
        f'"triples": [["Person {i}", "knows", "Person {i + 1}"], ["Person {i}", "lives in", "City {i % 7}"]]}}'
        for i in range(N_CRASH)
    )
    triples = tmp_path / "people.jsonl"
    triples.write_text(rows)
    results = {}
    for label in ("crashed", "clean"):
        path = str(tmp_path / f"{label}.db")
        if label == "crashed":
            env = {**os.environ, "VGRAG_EMBEDDER": "minilm", "PYTHONPATH": str(ROOT), "VGRAG_MILVUS_URI": path}
            for point, n in CRASHES:
                _kill_at(env, triples, point, n)
            partial = _ingest_and_check(path, minilm, None)
            assert 0 < partial.counts["passages"] < N_CRASH  # really interrupted mid-ingest
        chk = _ingest_and_check(path, minilm, triples)
        assert chk.ok, chk.problems[:20]
        results[label] = chk
    assert results["crashed"].counts == results["clean"].counts
    assert results["clean"].counts["passages"] == N_CRASH


def test_embedding_progress_is_reported_with_counts_rate_and_time_left(graph, embedder):
    from vgrag.storage.writer import EMBED_SLICE

    text = " ".join(f"Entity{i} works with Partner{i} in City{i}." for i in range(120)).encode()
    events = []
    ingest_documents(graph, embedder, _Scripted(), [("many.txt", text)], chunk_chars=400, on_progress=events.append)
    embeds = [e for e in events if e.stage == "embed"]
    assert embeds, [e.stage for e in events]
    pattern = re.compile(r"embedding ([\d,]+)/([\d,]+) texts")
    counts = [tuple(int(x.replace(",", "")) for x in pattern.search(e.message).groups()) for e in embeds]
    assert all(0 < k <= n for k, n in counts) and any(k == n for k, n in counts)
    assert any(n > EMBED_SLICE for _, n in counts)  # a large batch reports more than once
    assert all("/s, about" in e.message and "s left" in e.message for e in embeds)


class _Scripted:
    """An extractor that links each sentence's two names (a real Extractor: typed results, no model)."""

    name = "scripted"

    def extract_many(self, texts, titles=None):
        out = []
        for t in texts:
            pairs = re.findall(r"(Entity\d+) works with (Partner\d+)", t)
            out.append(Extraction(triples=tuple(Triple(a, "works with", b) for a, b in pairs)))
        return out


def test_an_unspaced_cjk_document_becomes_passages_and_the_report_names_it(graph, embedder):
    zh = (
        "北京是中华人民共和国的首都，也是全国的政治、文化、国际交往和科技创新中心。"
        "北京有三千多年建城史和八百多年建都史。"
    )
    text = "".join(f"第{i}段：{zh}" for i in range(40))  # 2,500 characters without a space
    r = ingest_documents(graph, embedder, ScriptedExtractor(), [("北京.txt", text.encode())])
    assert r.documents == ("北京.txt",) and r.counts["passages"] >= 2  # chunked
    parts = sorted(graph.passages_of_doc(graph.documents.all()[0].id), key=lambda p: p.chunk_index)
    stored = "".join(p.text for p in parts)
    assert all(f"第{i}段：{zh}" in stored.replace(" ", "") for i in range(40))  # nothing lost
    assert {f.source for f in r.failures} == {"北京.txt"} and any("no facts" in f.reason for f in r.failures)


def test_text_that_repeats_itself_like_no_prose_is_stored_but_never_parsed(graph, embedder):
    """300 KB of `_a _a …` (an upload that froze the app): its chunks are stored and searchable, the extractor never
    reads them (it reads ~4 KB/s for no fact), and the report says so once; a prose chunk beside them is parsed."""
    seen: list[str] = []

    class Recording(_Scripted):
        def extract_many(self, texts, titles=None):
            seen.extend(texts)
            return super().extract_many(texts, titles)

    prose = "Entity1 works with Partner1 on the harbour survey, and the report was filed in March."
    data = (prose + "\n\n" + "_a " * 20_000).encode()
    r = ingest_documents(graph, embedder, Recording(), [("junk.md", data)])
    assert r.chunks >= 10 and r.triples == 1  # identical chunks are one passage (content-hash ids)
    assert seen and all("_a _a _a _a" not in t for t in seen)
    notes = [f.reason for f in r.failures if "repeats itself" in f.reason]
    assert len(notes) == 1 and notes[0].startswith("junk.md: ")

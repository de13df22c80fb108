"""The front door: one database, one embedder (and the configured LLM), graphs by name — what the CLI, the app
and a Python user open once per process.

    from vgrag import Settings, Workspace
    ws = Workspace.open(Settings(milvus_uri="notes.db"))           # a Milvus Lite file (or http://host:19530)
    ws.add_documents(["report.pdf", "notes.md"], graph="notes")       # offline extraction by default
    ws.add_texts(["Ada Lovelace worked with Charles Babbage."], graph="notes")
    ws.import_triples("openie.json", graph="notes")                  # HippoRAG OpenIE JSON, JSONL or CSV
    trace = ws.query("Who did Ada Lovelace work with?", graph="notes")
    trace.answer.text, trace.answer.citations, trace.hops                # the answer and every step, typed
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .config import QueryParams, Settings
from .database import Database
from .embed import Embedder, make_embedder
from .extract import ExtractorKind, make_extractor
from .ingest import IngestReport, ProgressFn, ingest_documents, ingest_imported
from .pipeline import Method, run_query
from .sources import clean_text
from .triple_files import read_triples_file
from .store import Graph
from .text import content_hash
from .trace import QueryTrace


def _noop(_: object) -> None:
    return None


@dataclass
class Workspace:
    settings: Settings
    db: Database
    embedder: Embedder
    _graphs: dict[str, Graph] = field(default_factory=dict)

    @classmethod
    def open(cls, settings: Settings | None = None, embedder: Embedder | None = None) -> Workspace:
        """Open the database and the embedder that `settings` name (defaults: data/vgrag.db, offline MiniLM)."""
        settings = settings or Settings.from_env()
        emb = embedder or make_embedder(
            settings.embedder, settings.embed_model, settings.embed_base_url, settings.embed_api_key
        )
        return cls(settings, Database(settings.milvus_uri, settings.milvus_token), emb)

    def graph(self, name: str | None = None, create: bool = True) -> Graph:
        """A graph by name (the configured one by default), checked against this embedder."""
        name = name or self.settings.graph
        if name not in self._graphs:
            self._graphs[name] = self.db.open_graph(name, self.embedder.model_id, self.embedder.dim, create=create)
        return self._graphs[name]

    def drop(self, name: str) -> None:
        self.db.drop_graph(name)
        self._graphs.pop(name, None)

    # ---------- adding knowledge
    def add_documents(
        self,
        files: Sequence[str | Path | tuple[str, bytes]],
        graph: str | None = None,
        extractor: ExtractorKind = "offline",
        glean: bool = False,
        chunk_chars: int = 1200,
        overlap_sentences: int = 1,
        on_progress: ProgressFn = _noop,
    ) -> IngestReport:
        """Read (PDF, TXT, MD, HTML, DOCX), chunk, extract triples and store; paths or (name, bytes) pairs.
        Bad files are reported in the result, never fatal; re-adding unchanged content changes nothing."""
        pairs = [f if isinstance(f, tuple) else (str(f), Path(f).read_bytes()) for f in files]  # the path given
        ex = make_extractor(extractor, self.settings.llm, self.settings.cache_dir, glean)
        with self.db.write_lock:
            return ingest_documents(
                self.graph(graph), self.embedder, ex, pairs, chunk_chars, overlap_sentences, on_progress=on_progress
            )

    def add_texts(
        self, texts: Sequence[str], graph: str | None = None, name: str = "texts", **kwargs: object
    ) -> IngestReport:
        """Plain strings as one document called `name` (keyword arguments as for add_documents)."""
        data = clean_text("\n\n".join(texts)).encode("utf-8")  # lone surrogates cannot be encoded: replaced
        return self.add_documents([(f"{name}.txt", data)], graph, **kwargs)  # type: ignore[arg-type]

    def import_triples(
        self,
        source: str | Path | tuple[str, bytes],
        graph: str | None = None,
        batch_size: int = 2000,
        on_progress: ProgressFn = _noop,
    ) -> IngestReport:
        """Pre-extracted passages and triples: HippoRAG OpenIE JSON, JSONL or CSV (one source document)."""
        name, data = source if isinstance(source, tuple) else (str(source), Path(source).read_bytes())
        passages = read_triples_file(name, data)
        with self.db.write_lock:
            return ingest_imported(
                self.graph(graph), self.embedder, name, content_hash(data), passages, batch_size, on_progress
            )

    # ---------- asking
    def query(
        self,
        question: str,
        graph: str | None = None,
        params: QueryParams | None = None,
        method: Method = "graph",
        use_llm: bool = True,
        on_delta: Callable[[str], None] | None = None,
    ) -> QueryTrace:
        """Retrieve and answer; the configured LLM (if any, and `use_llm`) makes at most two bounded calls."""
        llm = None
        if use_llm and self.settings.llm.enabled:
            from .llm import make_llm

            llm = make_llm(self.settings.llm, self.settings.cache_dir)
        return run_query(
            clean_text(question),
            self.graph(graph, create=False),
            self.embedder,
            params or self.settings.query,
            llm=llm,
            on_delta=on_delta,
            method=method,
        )

    def close(self) -> None:
        self.db.close()

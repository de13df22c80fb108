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
from .documents.inputs import clean_text, read_file
from .documents.triple_files import read_triples_file
from .embed import Embedder, embed_queries, make_embedder
from .extraction.extract import ExtractorKind, make_extractor
from .ingest import IngestReport, ProgressFn, ingest_documents, ingest_imported
from .models import Document, Entity
from .query.question import check_length
from .query.pipeline import Method, QueryLLM, answer_trace, retrieve_trace, stopped_answer
from .query.trace import QueryTrace
from .storage.database import Database, StoreError
from .storage.store import Graph
from .storage.writer import DeleteReport, delete_document
from .text import content_hash, text_name


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

    def drop(self, name: str) -> bool:
        """Drop a graph and everything in it; False when there was no such graph (StoreError for a bad name)."""
        self._graphs.pop(name, None)
        return self.db.drop_graph(name)

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
        settings: Settings | None = None,
    ) -> IngestReport:
        """Read (PDF, TXT, MD, HTML, DOCX), chunk, extract triples and store; paths or (name, bytes) pairs.
        Bad files are reported in the result, never fatal; re-adding unchanged content changes nothing.
        `settings`: the app session's, when they differ (an LLM endpoint set up on the Settings page)."""
        pairs = [f if isinstance(f, tuple) else (str(f), read_file(f)) for f in files]  # the path given (read_file:
        # a folder, a FIFO or a 3 GB file is an InputError, never read whole or waited on)
        s = settings or self.settings
        ex = make_extractor(extractor, s.llm, s.cache_dir, glean)
        with self.db.write_lock:
            return ingest_documents(
                self.graph(graph), self.embedder, ex, pairs, chunk_chars, overlap_sentences, on_progress=on_progress
            )

    def add_texts(
        self, texts: Sequence[str], graph: str | None = None, name: str = "", **kwargs: object
    ) -> IngestReport:
        """Plain strings as one document called `name` (keyword arguments as for add_documents). Without a name,
        the document is named after its content ("texts 1a2b3c.txt"): each call adds its texts, none replaces an
        earlier call's; with a name, new texts under that name replace its document (an edited text)."""
        data = clean_text("\n\n".join(texts)).encode("utf-8")  # lone surrogates cannot be encoded: replaced
        return self.add_documents([(f"{name or text_name('texts', data)}.txt", data)], graph, **kwargs)  # type: ignore[arg-type]

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

    # ---------- the documents of a graph
    def documents(self, graph: str | None = None) -> list[Document]:
        """A graph's source documents, oldest first (`complete` is False for one whose ingest was cut)."""
        return self.graph(graph, create=False).documents.all()

    def delete_document(self, document: str, graph: str | None = None) -> DeleteReport:
        """Delete a source document (by id or name) and every passage, relation and entity only it supported."""
        g = self.graph(graph, create=False)
        docs = g.documents.all()
        found = [d for d in docs if document in (d.id, d.name)]
        if not found:  # a file's bare name, as `ingest /some/dir/notes.md` stored it under its path
            found = [d for d in docs if d.name.rsplit("/", 1)[-1] == document]
            if len(found) > 1:
                names = ", ".join(repr(d.name) for d in found)
                raise StoreError(
                    f"{document!r} names {len(found)} documents in graph {g.name!r} ({names}); give the full name."
                )
        if not found:
            raise StoreError(f"Graph {g.name!r} has no document {document!r}; `graphs`/the Build page lists them.")
        with self.db.write_lock:
            return delete_document(g, found[0].id)

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
        llm = self.query_llm(on_delta) if use_llm else None
        trace = self.retrieve(question, graph, params, method, llm)
        return self.answer(trace, graph, llm)

    def query_llm(
        self, on_delta: Callable[[str], None] | None = None, settings: Settings | None = None
    ) -> QueryLLM | None:
        """The LLM side of one query (its rerank and answer calls under one deadline), None when none is set up;
        the answer streams to `on_delta`. `settings`: the app session's, when they differ (a key typed there)."""
        s = settings or self.settings
        if not s.llm.enabled:
            return None
        from .llm import make_llm

        return QueryLLM(make_llm(s.llm, s.cache_dir), on_delta)

    def retrieve(
        self,
        question: str,
        graph: str | None = None,
        params: QueryParams | None = None,
        method: Method = "graph",
        llm: QueryLLM | None = None,
    ) -> QueryTrace:
        """The retrieval steps of a query (graph, naive or hybrid), without the answer (see `answer`)."""
        check_length(question)  # before the graph opens: a refusal costs nothing
        g = self.graph(graph, create=False)
        return retrieve_trace(clean_text(question), g, self.embedder, params or self.settings.query, llm, method)

    def answer(self, trace: QueryTrace, graph: str | None = None, llm: QueryLLM | None = None) -> QueryTrace:
        """The trace with its answer: the LLM's when it gave one, else the extractive answer with the reason."""
        return answer_trace(trace, self.graph(graph, create=False), self.embedder, llm)

    def stopped_answer(self, trace: QueryTrace, partial: str, graph: str | None = None) -> QueryTrace:
        """The trace of a query whose streamed answer was stopped: the text so far, cited."""
        return stopped_answer(trace, partial, self.graph(graph, create=False), self.embedder)

    def find_entities(self, text: str, graph: str | None = None, k: int = 15) -> list[tuple[Entity, float]]:
        """The k entities closest to a name or phrase, embedded as retrieval embeds a question's spans."""
        return self.graph(graph, create=False).search_entity_records(embed_queries(self.embedder, [text]), k)[0]

    def close(self) -> None:
        self.db.close()

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
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, replace
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
from .storage.check import CheckReport, check_graph
from .storage.database import Database, StoreError
from .storage.repair import RepairReport, repair_graph
from .storage.store import Graph
from .storage.writer import DeleteReport, delete_document
from .editing import Edit, EditLog, apply_edit, replay_edits, resume_pending, undo
from .editing.review import PassageView, passages_to_review, review_passages
from .editing.run import Replay
from .editing.suggest import Suggestion, suggest_fixes
from .editing.transfer import read_edit_records
from .nlp import Lemmas
from .text import content_hash, entity_id, text_name


def _noop(_: object) -> None:
    return None


@dataclass
class Workspace:
    settings: Settings
    db: Database
    embedder: Embedder
    _graphs: dict[str, Graph] = field(default_factory=dict)
    lemmas: Lemmas = field(default_factory=Lemmas)  # the words' lemmas the answer step matched, for the next question

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
            g = self.db.open_graph(name, self.embedder.model_id, self.embedder.dim, create=create)
            from .editing.run import resume_pending

            resume_pending(g, self.embedder)  # an edit a stopped process left half-applied is finished first
            self._graphs[name] = g
        return self._graphs[name]

    def writing(self, graph: Graph) -> AbstractContextManager[None]:
        """Exclusive right to place documents in `graph`: its ingest lock in this process and, on a server, the
        graph's lease, which a writer in another process waits for (readers never do)."""
        return self.db.writer(graph)

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
        g = self.graph(graph)
        with self.writing(g):
            return ingest_documents(
                g, self.embedder, ex, pairs, chunk_chars, overlap_sentences, on_progress=on_progress
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
        g = self.graph(graph)
        with self.writing(g):
            return ingest_imported(g, self.embedder, name, content_hash(data), passages, batch_size, on_progress)

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
        with self.writing(g):
            return delete_document(g, found[0].id)

    # ---------- keeping a graph sound
    def check(self, graph: str | None = None) -> CheckReport:
        """Every id real and every link reciprocal (a scan: maintenance, never on the query path)."""
        return check_graph(self.graph(graph, create=False))

    def repair(self, graph: str | None = None) -> RepairReport:
        """Restore the links `check` finds one-sided (repair.py), as the graph's only writer."""
        g = self.graph(graph, create=False)
        with self.writing(g):
            return repair_graph(g, self.embedder)

    # ---------- asking
    def query(
        self,
        question: str,
        graph: str | None = None,
        params: QueryParams | None = None,
        method: Method = "graph",
        use_llm: bool = True,
        on_delta: Callable[[str], None] | None = None,
        only: Sequence[str] = (),
        exclude: Sequence[str] = (),
    ) -> QueryTrace:
        """Retrieve and answer; the configured LLM (if any, and `use_llm`) makes at most two bounded calls.
        `only` / `exclude`: document names or ids the question is scoped to (added to params' filter)."""
        llm = self.query_llm(on_delta) if use_llm else None
        trace = self.retrieve(question, graph, params, method, llm, only, exclude)
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
        only: Sequence[str] = (),
        exclude: Sequence[str] = (),
    ) -> QueryTrace:
        """The retrieval steps of a query (graph, naive or hybrid), without the answer (see `answer`); passages of
        documents outside `only` or in `exclude` (names or ids) are never read."""
        check_length(question)  # before the graph opens: a refusal costs nothing
        g = self.graph(graph, create=False)
        g.refresh()  # another writer's last commit on the same Lite file (a server shows it by itself)
        p = params or self.settings.query
        if only or exclude:
            p = replace(
                p, only_documents=(*p.only_documents, *only), exclude_documents=(*p.exclude_documents, *exclude)
            )
        return retrieve_trace(clean_text(question), g, self.embedder, p, llm, method)

    def answer(self, trace: QueryTrace, graph: str | None = None, llm: QueryLLM | None = None) -> QueryTrace:
        """The trace with its answer: the LLM's when it gave one, else the extractive answer with the reason."""
        return answer_trace(trace, self.graph(graph, create=False), self.embedder, llm, self.lemmas)

    def stopped_answer(self, trace: QueryTrace, partial: str, graph: str | None = None) -> QueryTrace:
        """The trace of a query whose streamed answer was stopped: the text so far, cited."""
        return stopped_answer(trace, partial, self.graph(graph, create=False), self.embedder, self.lemmas)

    def find_entities(self, text: str, graph: str | None = None, k: int = 15) -> list[tuple[Entity, float]]:
        """The k entities closest to a name or phrase, embedded as retrieval embeds a question's spans."""
        return self.graph(graph, create=False).search_entity_records(embed_queries(self.embedder, [text]), k)[0]

    def close(self) -> None:
        self.db.close()

    # ---------- fixing the graph by hand (vgrag/editing; every edit is logged with the graph and undoable)
    def _edit(self, op: str, graph: str | None, **args: object) -> Edit:
        return apply_edit(self.graph(graph, create=False), self.embedder, op, args)

    def merge_entities(self, source: str, target: str, graph: str | None = None) -> Edit:
        """Merge entity `source` into `target` (names or ids): `target` keeps its name, `source` becomes its alias;
        relations re-pointed (duplicates collapse). EditError with the reason when it cannot be done."""
        return self._edit("merge", graph, source=source, target=target)

    def rename_entity(self, entity: str, new_name: str, graph: str | None = None) -> Edit:
        return self._edit("rename", graph, entity=entity, new_name=new_name)

    def split_alias(self, entity: str, alias: str, graph: str | None = None) -> Edit:
        """An alias of `entity` becomes an entity of its own again (the passages that write it link to it)."""
        return self._edit("split_alias", graph, entity=entity, alias=alias)

    def delete_entity(self, entity: str, graph: str | None = None) -> Edit:
        """Delete an entity and its relations; its passages stay."""
        return self._edit("delete_entity", graph, entity=entity)

    def edit_relation(
        self,
        relation: str,
        subject: str | None = None,
        predicate: str | None = None,
        object: str | None = None,  # noqa: A002 - the triple's own word
        graph: str | None = None,
    ) -> Edit:
        """Change a relation's subject, predicate and/or object (it gets the new triple's id)."""
        new = {"subject": subject, "predicate": predicate, "object": object}
        return self._edit("edit_relation", graph, relation=relation, **new)

    def delete_relation(self, relation: str, graph: str | None = None) -> Edit:
        return self._edit("delete_relation", graph, relation=relation)

    def add_relation(
        self,
        passage: str,
        subject: str,
        predicate: str,
        object: str,
        graph: str | None = None,  # noqa: A002
    ) -> Edit:
        """Add a triple by hand, supported by one passage (by id)."""
        return self._edit("add_relation", graph, passage=passage, subject=subject, predicate=predicate, object=object)

    def undo(self, n: int = 1, graph: str | None = None) -> list[Edit]:
        """Reverse the last `n` edits (each undo is logged); EditError past the log's start."""
        return undo(self.graph(graph, create=False), self.embedder, n)

    def edits(self, graph: str | None = None) -> list[Edit]:
        """The graph's edit log, oldest first (an edit a crash cut short is finished first)."""
        g = self.graph(graph, create=False)
        resume_pending(g, self.embedder)
        return EditLog(g).all()

    def suggestions(self, graph: str | None = None, kind: str | None = None) -> list[Suggestion]:
        """Suggested fixes from the stored graph (near-duplicate names, glued headings, run-on names, dated
        predicates), each with its preview and the edit that applies it (`apply_suggestion`)."""
        found = suggest_fixes(self.graph(graph, create=False))
        return [s for s in found if kind is None or s.kind == kind]

    def apply_suggestion(self, suggestion: Suggestion, graph: str | None = None) -> list[Edit]:
        """The edits of one suggestion, in order (EditError when an earlier fix already changed its target)."""
        return [self._edit(op, graph, **dict(args)) for op, args in suggestion.edits]

    def entity_named(self, name: str, graph: str | None = None) -> Entity | None:
        """The entity with exactly this name (as ids fold it: case, spacing) or this id, None when none is."""
        found = self.graph(graph, create=False).get_entities([name if name.startswith("ent-") else entity_id(name)])
        return found[0] if found else None

    def review(
        self,
        document: str | None = None,
        entity: str | None = None,
        graph: str | None = None,
        only: set[str] | None = None,
    ) -> list[PassageView]:
        """A document's passages (or an entity's: its id), sentence by sentence with the triples extracted from
        each; `only`: just these relation ids (e.g. the suggested fixes')."""
        g = self.graph(graph, create=False)
        return review_passages(g, passages_to_review(g, document, entity), only)

    def import_edits(self, source: str | Path | tuple[str, bytes], graph: str | None = None) -> Replay:
        """Apply the edit log of a JSON export (`export --format json`) to a graph where its targets exist; the
        edits whose targets are gone come back as `stale` with the reason."""
        name, data = source if isinstance(source, tuple) else (str(source), Path(source).read_bytes())
        return replay_edits(self.graph(graph, create=False), self.embedder, read_edit_records(name, data))

"""The Build page's three tabs: documents extracted live, pre-extracted triples imported (both as jobs off the
request path, ui/jobs.py: the page returns at once and follows them), source documents listed and deleted. The page
(pages/build.py) picks the graph and lays the tabs out."""

import logging

import pandas as pd
import streamlit as st

from ui import jobs
from ui.safe import md_escape
from ui.uploads import UPLOAD_MB, show_refused
from vgrag.config import Settings
from vgrag.documents.sources import TEXT_TYPES, clean_text, document_text
from vgrag.documents.triple_files import TRIPLE_TYPES
from vgrag.extraction.extract import NO_TRIPLES
from vgrag.ingest import IngestReport, Progress, ProgressFn, plan_chunks
from vgrag.llm import estimate_tokens
from vgrag.present.prose import prose_check
from vgrag.storage.store import Graph
from vgrag.text import text_name
from vgrag.workspace import Workspace

log = logging.getLogger(__name__)
BUILD_JOB, IMPORT_JOB = "build_job", "import_job"  # this session's running build and import (ui/jobs.py)
MAX_NOTES = 20  # warnings shown one by one; the rest are counted


def plural(n: int, word: str) -> str:
    """ "1 passage", "2 passages", "3 entities"."""
    return f"{n} {word if n == 1 else word[:-1] + 'ies' if word.endswith('y') else word + 's'}"


@st.cache_data(max_entries=64, show_spinner=False)
def chunk_texts(name: str, data: bytes, chunk_chars: int, overlap: int) -> tuple[str, ...]:
    """The chunks a file would be stored as, for the token estimate; () for a file that cannot be read (the build
    reports why). Cached by content, so a widget click does not re-read every upload."""
    try:
        return tuple(c.text for c in plan_chunks(name, data, chunk_chars, overlap))
    except Exception:  # noqa: BLE001 - the estimate is a hint and must never break the page
        log.warning("no estimate for %s", name, exc_info=True)
        return ()


@st.cache_data(show_spinner=False, max_entries=64)
def not_prose(name: str, data: bytes) -> str:
    """Why a file does not read as prose (vgrag/present/prose.py), or "" — shown before the build, which still
    builds it if the user wants. Cached by content; a file that cannot be read is left to the build's report."""
    try:
        check = prose_check(document_text(name, data))
    except Exception:  # noqa: BLE001 - a hint only: the build says why a file cannot be read
        return ""
    if check.prose:
        return ""
    return (
        f"“{name}” does not read as prose: only {check.share:.1%} of its {check.words:,} words are words like "
        f"“the”, “of”, “is” (running text has 8 % or more). Building it finds little that means anything and takes "
        f"long (300 KB of random words: about 3 minutes). To leave it out, remove it from the list above (×); to "
        f"build it anyway, press Build."
    )


def _given(files: list | None, pasted: str) -> list[tuple[str, bytes]]:
    """The uploaded files and the pasted text as (name, bytes); a paste is named after its content, so each
    different paste is its own document."""
    out = [(f.name, f.getvalue()) for f in files or []]
    if pasted.strip():
        data = clean_text(pasted).encode("utf-8")
        out.append((f"{text_name('pasted text', data)}.txt", data))
    return out


def documents_tab(ws: Workspace, graph: Graph, s: Settings) -> None:
    """Upload or paste, choose chunking and extractor, build with live progress and the triples as they come."""
    show_refused()
    files = st.file_uploader(
        "PDF, TXT, MD, HTML or DOCX files",  # the limit is stated once, in the drop zone (UPLOAD_MB)
        type=[t.lstrip(".") for t in TEXT_TYPES],
        accept_multiple_files=True,
        key="doc_files",
        max_upload_size=UPLOAD_MB,
    )
    pasted = st.text_area("…or paste text", key="pasted", height=120)
    with st.container():  # a slot on every run: what follows keeps its place when a warning comes or goes
        for name, data in _given(files, pasted):
            why = not_prose(name, data)
            if why:
                st.warning(md_escape(why), icon=":material/warning:")
    c1, c2, c3 = st.columns(3)
    chunk_chars = c1.number_input("Chunk size (characters)", 200, 8000, 1200, step=100, key="chunk_chars")
    overlap = c2.number_input("Overlap (sentences)", 0, 5, 1, key="overlap")
    options = ["offline (spaCy rules)"] + ([f"LLM ({s.llm.model_extract})"] if s.llm.enabled else [])
    choice = c3.selectbox("Extractor", options, key="extractor")
    glean = False
    if choice.startswith("LLM"):
        glean = st.checkbox("Gleaning: a second call per chunk asking for missed facts", key="glean")
        given = _given(files, pasted)
        texts = [t for name, data in given for t in chunk_texts(name, data, int(chunk_chars), int(overlap))]
        if texts:
            est = estimate_tokens(texts) * (2 if glean else 1)
            st.caption(
                f"Estimate before you start: {len(texts)} chunks, about {est:,} prompt tokens "
                f"({'2 calls' if glean else '1 call'} per chunk; cached chunks cost nothing)."
            )
    clicked = st.button("Build", type="primary", key="build")
    where = (ws.settings.milvus_uri, graph.name, "documents")
    with st.container():  # the build's progress and report: a slot on every run, so what follows keeps its place
        inputs = _given(files, pasted) if clicked else []
        if clicked and not inputs:
            st.warning("Upload a file or paste some text first.")
        elif clicked and jobs.running(BUILD_JOB, where):
            st.warning("A build into this graph is still running: its report follows here; build again after it.")
        elif clicked:
            kind = "llm" if choice.startswith("LLM") else "offline"
            start_build(ws, graph, inputs, kind, glean, int(chunk_chars), int(overlap), s)
        jobs.follow(BUILD_JOB, where, build_progress, build_report)

    built = st.session_state.get("built_triples")
    if built:
        st.subheader(f"Triples extracted in the last build ({len(built):,})")
        flt = st.text_input("Filter (subject, predicate, object or source contains…)", key="triple_filter")
        df = pd.DataFrame(built)
        if flt.strip():
            needle = flt.strip().casefold()
            df = df[df.apply(lambda r: any(needle in str(v).casefold() for v in r.values), axis=1)]
        st.dataframe(df, hide_index=True, width="stretch", height=min(38 + 35 * len(df), 420))


def named_in_report(report: IngestReport) -> list[str]:
    """The documents a build replaced (their passages are gone) and those it stored beside same-named ones."""
    out = []
    if report.replaced:
        out.append("Replaced by their new content: " + ", ".join(report.replaced) + ".")
    if report.beside:
        out.append(
            "Stored beside documents of the same name (nothing is replaced on a name alone): "
            + ", ".join(report.beside)
            + ". If one of them is outdated, delete it under Source documents."
        )
    return out


def edits_again(report: IngestReport) -> str:
    """What a changed file did to the user's own edits of its older content: re-applied, or no longer applying (each
    named with its reason among the notes). The edit log said so; the build's message said only "Replaced: 1"."""
    n, stale = report.edits_reapplied, len(report.edits_stale)
    said = [f"{n} of your edits re-applied to the new content"] if n else []
    if stale:  # the reasons are the build's errors (or the import's warnings) and the edit log's "stale"
        said.append(f"{stale} {'' if n else 'of your edits '}no longer appl{'ies' if stale == 1 else 'y'} (why: on "
                    "this page and in Review's edit log)")  # fmt: skip
    return f" {'; '.join(said)}." if said else ""


def start_build(
    ws: Workspace,
    graph: Graph,
    inputs: list[tuple[str, bytes]],
    kind: str,
    glean: bool,
    chunk_chars: int,
    overlap: int,
    s: Settings,
) -> None:
    """Start the build as this session's job (ui/jobs.py): the page returns at once and follows its progress."""

    def work(on_progress: ProgressFn) -> IngestReport:  # the session's settings: an LLM endpoint set on Settings
        return ws.add_documents(
            inputs, graph.name, kind, glean, chunk_chars, overlap, on_progress=on_progress, settings=s
        )

    jobs.start(BUILD_JOB, (ws.settings.milvus_uri, graph.name, "documents"), tuple(n for n, _ in inputs), work)


def _triple_rows(events: tuple[Progress, ...]) -> list[dict]:
    """The triples of every chunk extracted so far, in the order they came."""
    return [
        {
            "subject": t.subject,
            "predicate": t.predicate,
            "object": t.object,
            "source": f"{p.chunk.doc_name} #{p.chunk.chunk_index + 1}",
        }
        for p in events
        if p.chunk is not None
        for t in p.chunk.triples
    ]


def _bar_and_warnings(events: tuple[Progress, ...]) -> None:
    """The progress bar at the last event, and a warning per chunk the extractor could not read."""
    last = events[-1] if events else None
    if last is None:
        st.progress(0.0, text="Starting…")
    else:
        st.progress(last.done / last.total if last.total else 1.0, text=md_escape(last.message or last.stage))
    quiet: dict[str, list[int]] = {}  # chunks read without error that state no fact: one line per document
    problems = []
    for c in (p.chunk for p in events if p.chunk is not None and p.chunk.error):
        if c.error == NO_TRIPLES:
            quiet.setdefault(c.doc_name, []).append(c.chunk_index + 1)
        else:
            problems.append(f"{c.doc_name} chunk {c.chunk_index + 1}: {c.error}")
    for line in problems[:MAX_NOTES]:
        st.warning(md_escape(line))
    if len(problems) > MAX_NOTES:
        st.warning(f"…and {len(problems) - MAX_NOTES} more chunks like these.")
    for name, chunks in quiet.items():
        st.caption(md_escape(f"{name}: no facts found in chunk{'s' if len(chunks) > 1 else ''} "
                             f"{', '.join(map(str, chunks))} (a table, a list or a heading often reads so); "
                             "stored and searchable all the same."))  # fmt: skip


def build_progress(job: jobs.Job) -> None:
    """A running build: its files, the progress bar, and the triples as each chunk arrives (newest first)."""
    st.caption(md_escape(f"Building {', '.join(job.names)}: it goes on while you use other pages or tabs."))
    events = job.events()
    _bar_and_warnings(events)
    rows = _triple_rows(events)
    if rows:  # the full, filterable table follows the build
        st.dataframe(pd.DataFrame(rows[::-1][:500]), hide_index=True, width="stretch", height=300)


def build_report(job: jobs.Job) -> None:
    """A finished build: the last progress, then the report (or why it stopped, naming the files)."""
    events = job.events()
    _bar_and_warnings(events)
    st.session_state["built_triples"] = _triple_rows(events)
    report = job.report
    if report is None:
        st.error(md_escape(job.error or "The build stopped."))
        return
    for f in report.failures:
        if f.chunk_index is None:
            st.error(md_escape(f.reason))
    st.success(
        f"Stored {report.chunks} chunks with {report.triples} triples "
        f"({report.passages_new} new passages, {report.entities_new} new entities, "
        f"{report.relations_new} new relations). Unchanged: {len(report.unchanged)}. "
        f"Replaced: {len(report.replaced)}." + edits_again(report)
    )
    for line in named_in_report(report):
        st.info(md_escape(line))
    st.caption("Stage timings (s): " + ", ".join(f"{k} {v:.2f}" for k, v in report.timings.items()))
    if report.prompt_tokens or report.completion_tokens:
        st.caption(f"LLM tokens: {report.prompt_tokens:,} prompt + {report.completion_tokens:,} completion.")


def triples_tab(ws: Workspace, graph: Graph) -> None:
    """Import a HippoRAG OpenIE JSON, JSONL or CSV file of passages with their triples."""
    show_refused()
    tf = st.file_uploader(
        "HippoRAG OpenIE JSON, JSONL or CSV (passage, subject, predicate, object)",
        type=[t.lstrip(".") for t in TRIPLE_TYPES],
        key="triple_file",
        max_upload_size=UPLOAD_MB,
    )
    where = (ws.settings.milvus_uri, graph.name, "triples")
    if st.button("Import", key="import") and tf is not None:
        if jobs.running(IMPORT_JOB, where):
            st.warning("An import into this graph is still running: its report follows here; import after it.")
        else:
            name, data = tf.name, tf.getvalue()

            def work(on_progress: ProgressFn) -> IngestReport:
                return ws.import_triples((name, data), graph.name, on_progress=on_progress)

            jobs.start(IMPORT_JOB, where, (name,), work)
    jobs.follow(IMPORT_JOB, where, import_progress, import_report)


def import_progress(job: jobs.Job) -> None:
    """A running import: its file and the progress bar."""
    st.caption(md_escape(f"Importing {job.names[0]}: it goes on while you use other pages or tabs."))
    events = job.events()
    p = events[-1] if events else None
    st.progress(p.done / max(p.total, 1) if p else 0.0, text=md_escape(p.message) if p else "Importing…")


def import_report(job: jobs.Job) -> None:
    """A finished import: the counts and every note, or why the file was refused (naming it)."""
    r = job.report
    if r is None:
        st.error(md_escape(job.error or "The import stopped."))
        return
    st.success(
        f"Imported {plural(r.chunks, 'passage')} and {plural(r.triples, 'triple')}; the graph now has "
        f"{r.counts['passages']} passages, {r.counts['entities']} entities, "
        f"{r.counts['relations']} relations." + edits_again(r)
    )
    for f in r.failures[:MAX_NOTES]:  # skipped triples, passages stored in parts: each named
        st.warning(md_escape(f.reason))
    if len(r.failures) > MAX_NOTES:
        st.warning(f"…and {len(r.failures) - MAX_NOTES} more notes like these.")


def sources_tab(ws: Workspace, graph: Graph) -> None:
    """The graph's source documents, each deletable with what only it supported."""
    docs = graph.documents.all()
    if not docs:
        st.info("No source documents yet.")
    for d in docs:
        c1, c2 = st.columns([5, 1])
        c1.markdown(
            f"**{md_escape(d.name)}** — {plural(d.n_passages, 'passage')}"
            + ("" if d.complete else " (interrupted: re-add it)")
        )
        if c2.button("Delete", key=f"del_{d.id}"):  # asks first: a document's passages cannot be brought back
            st.session_state["delete_pending"] = d.id
        if st.session_state.get("delete_pending") == d.id:
            st.warning(md_escape(f"Delete “{d.name}” and everything only it supported? This cannot be undone."))
            yes, no = st.columns(2)
            if yes.button("Yes, delete it", key=f"del_yes_{d.id}", type="primary"):
                st.session_state.pop("delete_pending", None)
                rep = ws.delete_document(d.id, graph.name)
                st.session_state["flash"] = (  # shown as a toast after the rerun (ui/router.py)
                    f"Deleted {md_escape(d.name)}: {plural(rep.passages, 'passage')}, "
                    f"{plural(rep.relations, 'relation')} and {plural(rep.entities, 'entity')} only it supported."
                )
                st.rerun()
            if no.button("Cancel", key=f"del_no_{d.id}"):
                st.session_state.pop("delete_pending", None)
                st.rerun()

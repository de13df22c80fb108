"""Ingests off the request path: each upload's `Workspace.add_documents` / `import_triples` runs as a job in a worker
thread of this process (the Workspace and its Milvus Lite file belong to the process), so the page that started it
returns at once and no session waits for another's upload. A page follows its session's job by polling
(`follow`): the progress while it runs, the result once, when it is done."""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Callable

import streamlit as st

from vgrag.documents.sources import InputError
from vgrag.ingest import IngestReport, Progress

log = logging.getLogger(__name__)

POLL_S = 1.0  # how often a page looks at its running job (0.5 s slowed a 100 KB build ~1.5x here: each poll is a run)
KEEP_FINISHED = 32  # finished jobs kept for sessions that have not looked yet (oldest forgotten first)

Work = Callable[[Callable[[Progress], None]], IngestReport]  # the ingest, given the progress callback
Where = tuple[str, str, str]  # (database URI, graph, kind): which jobs a page shows


class Job:
    """One ingest in a worker thread: its progress events as they come (thread-safe), then its report or error."""

    def __init__(self, where: Where, names: tuple[str, ...]) -> None:
        self.id = uuid.uuid4().hex
        self.where, self.names = where, names
        self.report: IngestReport | None = None
        self.error: str | None = None  # a message naming the files, when the ingest raised
        self._events: list[Progress] = []
        self._lock = threading.Lock()
        self._done = threading.Event()

    def progress(self, p: Progress) -> None:
        """The ingest's on_progress callback (called in the worker thread)."""
        with self._lock:
            self._events.append(p)

    def events(self) -> tuple[Progress, ...]:
        """The progress events so far, oldest first."""
        with self._lock:
            return tuple(self._events)

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the job is done (tests, scripts); False on timeout."""
        return self._done.wait(timeout)

    def run(self, work: Work) -> None:
        """Run the ingest and keep its report, or the reason it stopped (never raises: nobody would see it)."""
        try:
            self.report = work(self.progress)
        except InputError as e:  # names the file and what to do
            self.error = str(e)
        except Exception as e:  # noqa: BLE001 - the page shows why; the log keeps the traceback
            log.exception("ingest of %s failed", ", ".join(self.names))
            self.error = f"{', '.join(self.names)}: nothing more was stored ({type(e).__name__}: {e})"
        finally:
            self._done.set()


class Jobs:
    """This process's jobs by id, the running ones and the last finished ones."""

    def __init__(self) -> None:
        self._jobs: dict[str, Job] = {}  # insertion order: oldest first
        self._lock = threading.Lock()

    def start(self, where: Where, names: tuple[str, ...], work: Work) -> Job:
        """Start `work` in a worker thread and return its job at once."""
        job = Job(where, names)
        with self._lock:
            finished = [k for k, j in self._jobs.items() if j.done]
            for k in finished[: max(0, len(finished) - KEEP_FINISHED + 1)]:
                del self._jobs[k]
            self._jobs[job.id] = job
        # a daemon: stopping the server must not wait for an upload; a cut ingest is listed as interrupted and
        # written again by the next one (vgrag/ingest)
        threading.Thread(target=job.run, args=(work,), name=f"vgrag-ingest-{job.id[:8]}", daemon=True).start()
        return job

    def get(self, job_id: str | None) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id or "")

    def running(self, where: Where) -> Job | None:
        """The oldest job still running into `where` (started in another tab, or before this one was reloaded)."""
        with self._lock:
            return next((j for j in self._jobs.values() if j.where == where and not j.done), None)


@st.cache_resource(show_spinner=False)
def jobs() -> Jobs:
    """One registry per server process, shared by every session."""
    return Jobs()


def start(key: str, where: Where, names: tuple[str, ...], work: Work) -> Job:
    """Start a job and make it this session's job under `key` (kept across pages and reruns)."""
    job = jobs().start(where, names, work)
    st.session_state[key] = job.id
    return job


def current(key: str, where: Where) -> Job | None:
    """This session's job under `key`; with none, one running into the same graph (another tab, or this page before
    a reload: a reload is a new session) is followed instead."""
    job = jobs().get(st.session_state.get(key))
    if job is None:
        job = jobs().running(where)
        if job is None:
            st.session_state.pop(key, None)
            return None
        st.session_state[key] = job.id
    return job


def running(key: str, where: Where) -> bool:
    """Whether this session's job (or one it follows) is still running: a second would only wait for it."""
    job = current(key, where)
    return job is not None and not job.done


def follow(key: str, where: Where, running: Callable[[Job], None], finished: Callable[[Job], None]) -> None:
    """Draw this session's job: `running(job)` polled every POLL_S while it runs, then `finished(job)` once."""
    job = current(key, where)
    if job is None:
        return
    if job.done:
        st.session_state.pop(key, None)  # shown once, like a build's report always was
        finished(job)
    else:
        _poll(job.id, running)


@st.fragment(run_every=POLL_S)
def _poll(job_id: str, running: Callable[[Job], None]) -> None:
    job = jobs().get(job_id)
    if job is None or job.done:
        st.rerun()  # the whole page: the report, and what the new content changes around it
    running(job)

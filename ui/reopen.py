"""Reopening a run from its link (a reload, a shared link, History's Open, Evaluate's drill-down) without asking the
model again. The runs this server made are kept (the last KEEP, each with its naive baseline) and found by what a
link names — graph, question, method, knobs and document filter: a link to a kept run replays it as it was, its
pinned run too, with no query and no model call. A link to a run the server does not hold is run again: offline at
once (it costs nothing); with a model configured, only once the user has chosen — the page says that running it
again calls the model (up to two calls per run) and that its answer may differ, and offers to run it offline."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

import streamlit as st

from ui.run_link import DOC_FILTER, KNOBS
from vgrag.config import QueryParams
from vgrag.query.trace import QueryTrace

KEEP = 64  # runs kept per server (a trace is ~0.1 MB)


def run_key(graph: tuple[str, str], question: str, method: str, params: QueryParams) -> tuple:
    """What a link names of a run — graph ((database, name): a session may open another database), question,
    method, every knob in the link and the document filter."""
    knobs = tuple(getattr(params, k.field) for k in KNOBS)
    return (graph, question.strip(), method, knobs, tuple(getattr(params, f) for f in DOC_FILTER))


Kept = tuple[QueryTrace, QueryTrace, float]  # a run, its naive baseline, when it ran


class RunStore:
    """The runs of this server by run_key, the last two per key (a comparison may pin a run and ask the same again,
    say to see what the model answers a second time), at most `keep` keys, the least recently run dropped first."""

    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self._runs: OrderedDict[tuple, tuple[Kept, ...]] = OrderedDict()
        self._lock = threading.Lock()  # sessions run in threads of one process

    def put(self, graph: tuple[str, str], trace: QueryTrace, naive: QueryTrace) -> None:
        key = run_key(graph, trace.question, trace.method, trace.params)
        with self._lock:
            runs = self._runs.get(key, ())
            if not runs or runs[-1][0] is not trace:  # a replayed run is kept once
                self._runs[key] = (*runs[-1:], (trace, naive, time.time()))
            self._runs.move_to_end(key)
            while len(self._runs) > self.keep:
                self._runs.popitem(last=False)

    def get(self, key: tuple, earlier: bool = False) -> Kept | None:
        """The last run under `key`; with `earlier`, the one before it (None if there is none)."""
        with self._lock:
            runs = self._runs.get(key, ())
        want = 2 if earlier else 1
        return runs[-want] if len(runs) >= want else None


@st.cache_resource(show_spinner=False)
def run_store() -> RunStore:
    """This server's kept runs, shared by its sessions (a link opened in another tab or by a colleague)."""
    return RunStore()


def _choose(how: str) -> None:
    st.session_state["reopen_with"] = how


def reopen_with_model(keys: list[tuple], llm_enabled: bool) -> bool | None:
    """Whether the runs a link names that this server does not hold are run again with the model: False offline;
    with a model configured, the user's choice — None until they chose (the page then shows what each choice
    does, and runs nothing)."""
    same = len(keys) == 2 and keys[0] == keys[1]  # the pinned run is the earlier of the two kept
    missing = [k for n, k in enumerate(keys) if run_store().get(k, earlier=same and n == 1) is None]
    if not llm_enabled or not missing:
        return llm_enabled
    if "reopen_with" in st.session_state:
        return st.session_state["reopen_with"] == "model"
    runs = "its two runs" if len(missing) == 2 else ("its pinned run" if len(keys) == 2 else "its run")
    kept = "" if len(missing) == len(keys) else " (the other run is kept and is shown as it was)"
    st.info(
        f"This link names a {'comparison' if len(keys) == 2 else 'run'} that this server has not kept{kept}. "
        f"Showing it means running {runs} again: with the model that is up to {2 * len(missing)} calls "
        f"(at most two per run), and the answer may differ from the one in the link; offline, no model is called."
    )
    left, right = st.columns(2)
    left.button("Run again with the model", key="reopen_model", on_click=_choose, args=("model",), width="stretch")
    right.button("Run again offline", key="reopen_offline", on_click=_choose, args=("offline",), width="stretch")
    return None


def replayed(when: float) -> str:
    """What the page says of a kept run it reopened (made at `when`)."""
    return f"Reopened the run of {time.strftime('%H:%M', time.localtime(when))} as it was: no new query, no model call."

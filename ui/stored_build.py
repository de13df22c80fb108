"""What the graph holds, read from the store: the Build page's summary for a user who comes back. A build's report
is this session's (ui/jobs.py); a new tab, or the app restarted, showed only an empty uploader (walk22). The store
keeps each source document's record (name, passages, when it was added, complete or not) and the graph's counts:
those are shown, newest document first — nothing is kept for it beside them."""

from __future__ import annotations

from datetime import datetime, timezone

import pandas as pd
import streamlit as st

from ui.safe import md_escape
from vgrag.models import Document
from vgrag.storage.store import Graph


def when(t: float) -> str:
    """A stored time as the page says it: "2026-11-29 03:01 UTC" (the server's clock, said in UTC)."""
    return datetime.fromtimestamp(t, tz=timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def summary_line(name: str, counts: dict[str, int], docs: list[Document]) -> str:
    """One sentence (Markdown, the names escaped): what the graph holds and when a document was last added."""
    n = len(docs)
    head = (
        f"**In graph “{md_escape(name)}” now:** {n:,} source document{'s' if n != 1 else ''}, "
        f"{counts['passages']:,} passages, {counts['relations']:,} triples, {counts['entities']:,} entities."
    )
    if not docs:
        return head
    last = max(docs, key=lambda d: d.added_at)
    return head + f" Last added: {md_escape(last.name)}, {when(last.added_at)}."


def stored_build(graph: Graph) -> None:
    """The graph's contents as stored, and its documents newest first (name, passages, added, complete): a user
    opening the Build page in a new session sees what the last builds left."""
    docs = graph.documents.all()
    st.markdown(summary_line(graph.name, graph.counts(), docs))
    if docs:
        rows = [
            {"Document": d.name, "Passages": d.n_passages, "Added": when(d.added_at),
             "Complete": "yes" if d.complete else "interrupted: re-add it"}
            for d in sorted(docs, key=lambda d: -d.added_at)
        ]  # fmt: skip
        height = 38 + 35 * min(len(rows), 6)  # at most six rows high: the uploader stays near the top
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", height=height)

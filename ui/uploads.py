"""The one upload limit of the app: every file chooser (Build's documents and triple files, Evaluate's benchmark
files, own questions) takes files up to UPLOAD_MB each, the library's own limit per document (MAX_FILE_MB), and
`.streamlit/config.toml`'s server.maxUploadSize is the same number (tests/test_browser_uploads.py holds them together).
The drop zone states it ("Limit 50MB per file"); a bigger file is refused there, by name."""

from __future__ import annotations

from vgrag.documents.sources import MAX_FILE_MB

UPLOAD_MB = MAX_FILE_MB

# Streamlit marks a refused file's chip red and keeps why in a screen-reader-only line (shown on hover): shown here
# beside the file's name, so a class sees "big.pdf 53.5MB  Error: File must be 50.0MB or smaller." at once
_REFUSED_CSS = (
    "[data-testid=stFileChip][aria-invalid=true]{flex-wrap:wrap;max-width:none}"
    "[data-testid=stFileChip][aria-invalid=true] span[role=alert]{position:static!important;width:auto!important;"
    "height:auto!important;clip:auto!important;clip-path:none!important;overflow:visible!important;"
    "white-space:nowrap;margin:0 0 0 8px!important;padding:0!important;color:#b91c1c;font-size:0.9rem;"
    "align-self:center}"
)


def show_refused() -> None:
    """Call on a page with a file chooser: a file over the limit is named with the reason, in view."""
    import streamlit as st

    st.html(f"<style>{_REFUSED_CSS}</style>")

"""Text from documents and models is data: shown literally, never as Markdown, HTML or Streamlit directives."""

from __future__ import annotations

import re

# every ASCII punctuation character may be backslash-escaped in CommonMark; Streamlit's own `:color[...]`,
# `:material/...:` and `$...$` extensions are built from the same characters, so escaping them disarms those too
_PUNCT = re.compile(r"([!-/:-@\[-`{-~])")


_AUTOLINK = re.compile(r"(?i)(https?|ftp|mailto)(:)|\b(www)(\.)")


def md_escape(text: str) -> str:
    """`text` made literal for st.markdown/st.caption: no heading, link, image, emphasis, HTML, LaTeX or icon.
    Bare URLs would still be auto-linked, so a zero-width space goes after their scheme (or "www")."""
    text = _AUTOLINK.sub(lambda m: (m.group(1) or m.group(3)) + "\u200b" + (m.group(2) or m.group(4)), text)
    return _PUNCT.sub(r"\\\1", text)

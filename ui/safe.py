"""Text from documents and models is data: shown literally, never as Markdown, HTML or Streamlit directives."""

from __future__ import annotations

import re

# every ASCII punctuation character may be backslash-escaped in CommonMark; Streamlit's own `:color[...]`,
# `:material/...:` and `$...$` extensions are built from the same characters, so escaping them disarms those too
_PUNCT = re.compile(r"([!-/:-@\[-`{-~])")


def md_escape(text: str) -> str:
    """`text` made literal for st.markdown/st.caption: no heading, link, image, emphasis, HTML, LaTeX or icon."""
    return _PUNCT.sub(r"\\\1", text)

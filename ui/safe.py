"""Text from documents and models is data: shown literally, never as Markdown, HTML or Streamlit directives."""

from __future__ import annotations

import re

# every ASCII punctuation character may be backslash-escaped in CommonMark; Streamlit's own `:color[...]`,
# `:material/...:` and `$...$` extensions are built from the same characters, so escaping them disarms those too
_PUNCT = re.compile(r"([!-/:-@\[-`{-~])")


# what GitHub-flavoured Markdown links without any markup, found again after the backslashes are read: a scheme
# ("http:", "mailto:", "xmpp:"…), "www." where no letter or digit stands before it ("_www." too), and an e-mail
# address (its "@")
_AUTOLINK = re.compile(r"(?i)(?:https?|ftp|mailto|xmpp)(?=:)|(?<![a-z0-9])www(?=\.)|@")


def md_escape(text: str) -> str:
    """`text` made literal for st.markdown/st.caption: no heading, link, image, emphasis, HTML, LaTeX or icon.
    Bare URLs and e-mail addresses would still be auto-linked, so a zero-width space goes after their scheme,
    "www" or "@"."""
    text = _AUTOLINK.sub(lambda m: m.group(0) + "\u200b", text)
    return _PUNCT.sub(r"\\\1", text)

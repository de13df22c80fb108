"""Document and model text is shown literally: the escaping used by every page."""

from __future__ import annotations

import re

from ui.safe import md_escape


def test_markdown_html_and_streamlit_directives_are_escaped():
    raw = "## Head *em* `code` <b>x</b> ![img](http://h/x.png) [l](http://h) :red[alert] :material/home: $x^2$ | a |"
    out = md_escape(raw)
    # every markup character is backslash-escaped, so nothing can open a construct
    assert not re.search(r"(?<!\\)[#*`<>!\[\]():$|]", out.replace("\u200b", ""))
    assert out.replace("\\", "").replace("\u200b", "") == raw  # and the visible text is unchanged


def test_bare_urls_are_not_auto_linked():
    out = md_escape("see http://exfil.example/a and www.exfil.example and HTTPS://x.y")
    assert "http\u200b" in out and "www\u200b" in out and "HTTPS\u200b" in out
    assert "http:" not in out.replace("\\", "") and "www." not in out.replace("\\", "")

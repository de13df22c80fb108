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


def test_e_mail_addresses_and_www_after_punctuation_are_not_auto_linked():
    """remark-gfm links "a@b.c" and "_www.x" (after an underscore) too; the zero-width space goes after "@" and after
    any "www" not inside a word."""
    out = md_escape("alice@evil.example, _www.evil.example, (www.x.y), xmpp:b@c.d, awww.x")
    assert "@\u200b" in out and out.count("@\u200b") == 2
    assert out.count("www\u200b") == 2 and "awww\u200b" not in out  # inside a word GFM links nothing
    assert "xmpp\u200b" in out

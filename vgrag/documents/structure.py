"""Document structure: sections under headings, markup stripped, code listings skipped.

A document becomes a list of Sections. Chunks never cross a section; a section's heading path gives its passage
title, and its innermost heading that reads like a name (not "Early life", "References" …) is its candidate topic,
what pronouns fall back to during offline extraction — topics.section_topics keeps a nested one only when the
text under it uses it as a name ("Impact", "The Law" are not). A file name is never a topic.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .tables import markdown_tables

_SMALL = {"a", "an", "and", "as", "at", "by", "de", "del", "der", "for", "in", "la", "le", "of", "on", "or", "the",
          "to", "van", "von", "with"}  # fmt: skip
GENERIC_HEADINGS = {
    "abstract", "acknowledgements", "acknowledgments", "appendix", "background", "bibliography", "biography",
    "career", "conclusion", "conclusions", "contents", "discussion", "early life", "external links",
    "further reading", "history", "introduction", "legacy", "methods", "notes", "overview", "personal life",
    "plot", "reception", "references", "results", "see also", "summary", "table of contents",
}  # fmt: skip


@dataclass(frozen=True)
class Section:
    heading: tuple[str, ...]  # heading path, outermost first; () before the first heading
    text: str
    page: int | None = None  # 1-based page of a PDF

    @property
    def topic(self) -> str:
        """The innermost heading that reads like a name (without a trailing "(film)"-style qualifier), else "" (the
        candidate; documents.topics.section_topics decides with the text)."""
        return next((name_of(h) for h in reversed(self.heading) if entity_like(name_of(h))), "")

    def title(self, fallback: str, topic: str | None = None) -> str:
        """Passage title: from the topic heading (this section's own, or the `topic` chosen for it by
        topics.section_topics) down to the innermost one; the fallback (a file name) only when the section has no
        heading at all; the page for PDFs."""
        path = list(self.heading)
        topic = self.topic if topic is None else topic
        if topic:
            at = next((i for i in range(len(path) - 1, -1, -1) if topic in (name_of(path[i]), heading_name(path[i]))),
                      0)  # fmt: skip
            path = path[at:]
        base = " › ".join(path) or fallback
        return f"{base} · p. {self.page}" if self.page else base


_ENUM = re.compile(r"^\d+(?:\.\d+)*\.\s+|^\d+(?:\.\d+)+\s+")  # "2. ", "3.1 " (not "1917 Revolution")


def heading_name(heading: str) -> str:
    """A heading as a name: without its qualifier and its section number ("2. Supply of Products" → "Supply of
    Products")."""
    name = name_of(heading)
    return _ENUM.sub("", name).strip() or name


def name_of(heading: str) -> str:
    """A heading without its trailing qualifier: "The Prestige (film)" → "The Prestige". (One pass from the end: a
    regex searched from every position of a long heading was quadratic.)"""
    h = heading.strip()
    at = h.rfind("(")
    if h.endswith(")") and at >= 0 and ")" not in h[at:-1]:
        return h[:at].strip() or h
    return h


_MARKER = re.compile(
    r"\[(?:\d{1,3}(?:\s*[,–-]\s*\d{1,3})*|[a-z]|[A-Z]|(?:note|nb|n)\s*\d{1,3}|citation needed|clarification needed"
    r"|verification needed|when\?|who\?|according to whom\?|edit|page needed|dubious(?: – discuss)?)\]"
    r"|\[\d{1,3}(?=\s|$)"  # a marker whose closing bracket was lost ("II[5")
)


def strip_markers(text: str) -> str:
    """Text without footnote and citation markers ("[2]", "[citation needed]", "[a]", a torn "[5")."""
    out = _MARKER.sub("", text)
    if out == text:
        return text
    return re.sub(r"[ \t]{2,}", " ", _SPACE_BEFORE_PUNCT.sub(r"\1", out))


# a run of spaces before punctuation, matched from the run's first space only: tried from every space of a long run,
# `[ \t]+([.,;:])` was quadratic ("[1]" and 150 KB of spaces: 109 s)
_SPACE_BEFORE_PUNCT = re.compile(r"(?<![ \t])[ \t]++([.,;:])")


_EMPTY_PARENS = re.compile(r"\(\s*(?:[;,]\s*)*\)|(?<=\()\s*[;,]\s*")


def clean_prose(text: str) -> str:
    """Text without citation markers and without what removed pronunciations leave: "X ( ; born 1970)" → "X (born
    1970)", "X ()" → "X"."""
    out = _EMPTY_PARENS.sub("", strip_markers(text))
    return out if out == text else re.sub(r"[ \t]{2,}", " ", out)


def clean_section(sec: Section) -> Section:
    """A section with markers stripped from its heading and text."""
    heading = tuple(strip_markers(h).strip() for h in sec.heading)
    text = clean_prose(sec.text)
    return sec if (heading, text) == (sec.heading, sec.text) else Section(heading, text, sec.page)


def entity_like(heading: str) -> bool:
    """True for headings such as "Marie Curie" or "Treaty of Paris"; false for "Early life", "History",
    "1. Results", "The model we used"."""
    h = heading.strip()
    words = re.findall(r"[^\W_][\w'’.-]*", h)
    if not words or len(words) > 10 or h.casefold().strip(" .:") in GENERIC_HEADINGS:
        return False
    if not words[0][0].isupper() and not words[0][0].isdigit():
        return False
    content = [w for w in words if w.casefold() not in _SMALL]
    return (
        bool(content)
        and all(w[0].isupper() or w[0].isdigit() for w in content)
        and any(w[0].isalpha() for w in content)
    )


# ---------- code and listings

_CODE_START = re.compile(
    r"^\s*(\$ |>>> |\.\.\. |#include|#!|def |class |import |from \S+ import|diff --|@@ |\+\+\+ |--- a/"
    r"|index [0-9a-f]{6,}|create mode|public |private |static |return |var |let |const |function\b"
    r"|for \(|if \(|while \(|[{}]\s*$)"
)
_SYMBOLS = set("{}[]();=<>/\\|_#$@*&^~`")


def code_like(line: str) -> bool:
    """A line of a program, shell session or diff rather than prose."""
    s = line.strip()
    if not s:
        return False
    if _CODE_START.match(s) or s.endswith((";", "{", "}")):
        return True
    chars = "".join(s.split())  # counted in C: a Python loop per character cost most of reading a long line
    symbols = sum(chars.count(c) for c in _SYMBOLS)
    return len(chars) >= 4 and symbols / len(chars) >= 0.15


def drop_code(lines: Iterable[str]) -> list[str]:
    """Lines without runs of three or more code-like lines (a listing); one odd line in prose stays."""
    lines = list(lines)
    flags = [code_like(x) for x in lines]
    keep = [True] * len(lines)
    i = 0
    while i < len(lines):
        if not flags[i]:
            i += 1
            continue
        j = i
        while j < len(lines) and (flags[j] or not lines[j].strip()):
            j += 1
        run = sum(flags[i:j])
        if run >= 3:
            for k in range(i, j):
                keep[k] = False
        i = j
    return [x for x, k in zip(lines, keep, strict=True) if k]


# ---------- Markdown

_ATX = re.compile(r" {0,3}(#{1,6})(?=[ \t]|$)")  # the title is cut by _atx_title, not by a regex
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)\s*$")
_RULE = re.compile(r"^ {0,3}([-*_])(\s*\1){2,}\s*$")
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_REF_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*\S+")
_QUOTE = re.compile(r"^ {0,3}(?:>[ \t]?)+")
_BLOCK_START = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+|^\s*>\s?")
# Inline markup. Every pattern's span stops at the next character that could start another span of its kind, so a
# line is scanned in linear time whatever it holds: spans that could run on to the end of the line from every
# opener (`.+?`, `[^\]]+`, `[^>]*`) made a 60 KB line of "_a _a …" take 11.9 s and 120 KB 45 s.
_URL = r"\((?:[^()\s]|\([^()\s]*\))*(?:\s+\"[^\"()]*\")?\)"  # (url), (url(x)), (url "title")
_INLINE = [
    (re.compile(r"!\[([^\[\]]*)\]" + _URL), ""),  # images are not prose
    (re.compile(r"!\[([^\[\]]*)\]\[[^\[\]]*\]"), r"\1"),
    (re.compile(r"\[([^\[\]]+)\]" + _URL), r"\1"),  # link → its text
    (re.compile(r"\[([^\[\]]+)\]\[[^\[\]]*\]"), r"\1"),
    (re.compile(r"<(https?://[^<>\s]+)>"), r"\1"),
    (re.compile(r"<([^<>\s@]+@[^<>\s@]+\.[^<>\s@]+)>"), r"\1"),  # an e-mail autolink shows its address
    (re.compile(r"<(script|style)\b[^<>]*>[^<]*</\1\s*>", re.I), ""),  # code, not prose (as the HTML reader)
    (re.compile(r"</?[A-Za-z][^<>]*>"), ""),  # inline HTML tags
    (re.compile(r"`+([^`]*)`+"), r"\1"),
    (re.compile(r"\*\*(?=\S)((?:[^*]|\*(?!\*))+?)(?<=\S)\*\*"), r"\1"),
    (re.compile(r"__(?=\S)((?:[^_]|_(?!_))+?)(?<=\S)__"), r"\1"),
    (re.compile(r"(?<![\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?!\w)"), r"\1"),
    (re.compile(r"(?<!\w)_(?=\S)((?:[^_]|(?<=\w)_(?=\w))+?)(?<=\S)_(?!\w)"), r"\1"),  # snake_case inside stays
    (re.compile(r"~~((?:[^~]|~(?!~))+?)~~"), r"\1"),
    (re.compile(r"\\([\\`*_{}\[\]()#+\-.!|>~])"), r"\1"),
]


def _atx_title(rest: str) -> str:
    """An ATX heading's title: what follows the opening #s, without a closing run of #s (one that follows a space).
    (The regex `\\s+(.*?)\\s*#*\\s*$` took 355 s on "# a", 4 KB of spaces and "b": cubic.)"""
    title = rest.strip()
    bare = title.rstrip("#")
    return bare.rstrip() if not bare or bare[-1] in " \t" else title


def strip_inline(line: str) -> str:
    for pattern, repl in _INLINE:
        line = pattern.sub(repl, line)
    return re.sub(r"[ \t]{2,}", " ", line)


def markdown_sections(text: str) -> list[Section]:
    """Sections of a Markdown text: ATX and setext headings, fenced and indented code skipped, inline markup
    reduced to its text, list items kept as separate lines, a pipe table's rows as "Header: cell; …" paragraphs
    (documents.tables)."""
    sections: list[Section] = []
    path: list[tuple[int, str]] = []
    body: list[str] = []

    def close() -> None:
        kept = drop_code(body)
        out = "\n".join(kept).strip()
        out = re.sub(r"\n{3,}", "\n\n", out)
        if out:
            sections.append(Section(tuple(h for _, h in path), out))
        body.clear()

    def open_heading(level: int, title: str) -> None:
        close()
        while path and path[-1][0] >= level:
            path.pop()
        title = strip_inline(title).strip()
        if title:
            path.append((level, title))

    lines = markdown_tables(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))  # rows as "H: v; …"
    fence: str | None = None
    prev_blank = True
    quoted = 0  # the quote depth of the line before ("> " a reply, "> > " the reply it quotes), 0 after a blank
    for n, line in enumerate(lines):
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            continue
        m = _FENCE.match(line)
        if m:
            fence = m.group(1)[:3]
            continue
        if q := _QUOTE.match(line):  # a quote's lines are one paragraph until a blank quoted line (an e-mail's
            depth, line = q.group(0).count(">"), line[q.end() :]  # quoted reply, wrapped at 72 columns), not a
            if depth != quoted and line.strip():  # paragraph each; every level of ">" is a marker, not text
                body.append("")
            quoted = depth if line.strip() else 0
        else:
            quoted = 0
        if not line.strip():
            body.append("")
            prev_blank = True
            continue
        if prev_blank and (line.startswith("    ") or line.startswith("\t")):
            continue  # an indented code block line (list continuations follow a non-blank line)
        m = _ATX.match(line)
        if m:
            open_heading(len(m.group(1)), _atx_title(line[m.end() :]))
            prev_blank = True
            continue
        nxt = lines[n + 1] if n + 1 < len(lines) else ""
        if prev_blank and _SETEXT.match(nxt) and not _BLOCK_START.match(line) and not _RULE.match(line):
            open_heading(1 if nxt.strip()[0] == "=" else 2, line.strip())
            lines[n + 1] = ""
            prev_blank = True
            continue
        prev_blank = False
        if _RULE.match(line) or _TABLE_SEP.match(line) or _REF_DEF.match(line):
            continue
        if _BLOCK_START.match(line) or "|" in line:
            body.append("")  # list items, quotes and table rows are paragraphs of their own
        line = _BLOCK_START.sub("", line)
        if line.count("|") >= 2:
            line = "; ".join(c.strip() for c in line.strip().strip("|").split("|") if c.strip())
        body.append(strip_inline(line).strip())
    close()
    return sections


def plain_sections(text: str, first_line_title: bool = False) -> list[Section]:
    """One section of plain text without code listings; with first_line_title a short first line (a title, not a
    sentence, nor the first line of a paragraph wrapped onto a next line that goes on in lower case) becomes its
    heading."""
    lines = drop_code(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    heading: tuple[str, ...] = ()
    if first_line_title:
        first = next((i for i, x in enumerate(lines) if x.strip()), None)
        if first is not None:
            cand = lines[first].strip()
            wrapped = first + 1 < len(lines) and lines[first + 1].strip()[:1].islower()
            if 2 <= len(cand) <= 100 and not cand.endswith((".", ",", ";", ":")) and any(c.isalpha() for c in cand) \
                    and not wrapped:  # fmt: skip
                heading = (cand,)
                lines = lines[first + 1 :]
    out = "\n".join(lines).strip()
    return [Section(heading, out)] if out else []

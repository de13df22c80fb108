"""Reading documents (PDF, TXT, MD, HTML, DOCX) into titled sections; triple files are triple_files.py."""

from __future__ import annotations

import hashlib
import logging
import re
import unicodedata
from html.parser import HTMLParser
from pathlib import Path

from .docx_text import docx_sections
from .inputs import MAX_FILE_MB, MAX_UNPACKED_MB, InputError, clean_surrogates, clean_text  # noqa: F401 (re-exported)
from .pdf_text import pdf_sections
from .structure import Section, clean_section, markdown_sections, plain_sections
from .tables import HTMLTable

log = logging.getLogger(__name__)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")

TEXT_TYPES = (".txt", ".md", ".markdown", ".pdf", ".html", ".htm", ".docx")


def source_key(name: str) -> str:
    """A document's identity: the name or path exactly as given (separators unified), so `2023/report.pdf` and
    `2024/report.pdf`, or `..` and a bare newline, stay different documents."""
    return unicodedata.normalize("NFC", clean_surrogates(str(name))).replace("\\", "/")


def clean_file_name(name: str) -> str:
    """The name shown for an upload: the path as given without empty, "." and ".." parts or control characters
    ("unnamed file" and a short hash of the name given when nothing is left)."""
    parts = [" ".join(clean_text(p).split()).strip(". ") for p in re.split(r"[\\/]", str(name))]
    shown = "/".join(p for p in parts if p)
    return shown or f"unnamed file {hashlib.sha1(source_key(name).encode()).hexdigest()[:6]}"  # "..", "/", "\n"


def base_name(name: str) -> str:
    """The last part of a shown name (a passage's title when its section has no heading)."""
    return name.rsplit("/", 1)[-1]


def decode_text(data: bytes, name: str) -> str:
    """Bytes of a text file as clean text (see clean_text), or InputError naming the file."""
    return clean_text(_decode(data, name))


def _decode(data: bytes, name: str) -> str:
    """UTF-16 (with a BOM, or without one when its ASCII letters show the NUL pattern), else UTF-8 — kept as
    UTF-8 when a few bytes are not (each becomes U+FFFD, logged) —, else Windows-1252; binary data refused."""
    utf16 = "utf-16" if data.startswith((b"\xff\xfe", b"\xfe\xff")) else _utf16_without_bom(data[:65536])
    if utf16:
        try:
            text = data.decode(utf16)
        except UnicodeDecodeError as e:
            raise InputError(f"{name}: broken UTF-16 text; save it as UTF-8 and upload again.") from e
        _refuse_binary(text[:32768], name)
        return text
    head = data[:65536]
    _refuse_binary(head.decode("latin-1"), name)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    text = data.decode("utf-8-sig", "surrogateescape")  # each byte that is not UTF-8 becomes one lone surrogate
    bad = len(_STRAY.findall(text))
    good = len(text) - len(text.encode("ascii", "ignore")) - bad  # well-formed non-ASCII characters
    if good > bad:  # more well-formed UTF-8 characters than stray bytes: UTF-8 with a few damaged bytes
        log.warning("%s: %d byte(s) that are not UTF-8 replaced by U+FFFD", name, bad)
        return _STRAY.sub("\ufffd", text)
    text = data.decode("cp1252", "replace")  # not UTF-8: the common Windows/Latin-1 encoding
    if "\ufffd" in text:
        log.warning("%s: %d byte(s) undefined in Windows-1252 replaced by U+FFFD", name, text.count("\ufffd"))
    return text


_STRAY = re.compile(r"[\udc80-\udcff]")


def _utf16_without_bom(head: bytes) -> str | None:
    """The codec ("utf-16-le" or "-be") when NUL bytes fill one byte of at least a quarter of the 2-byte units and
    (almost) never the other: the pattern of ASCII-range text in UTF-16 without a byte-order mark."""
    n = len(head) // 2
    if n < 2:
        return None
    even, odd = head[0 : 2 * n : 2].count(0), head[1 : 2 * n : 2].count(0)
    if odd >= n / 4 and even <= n / 100:
        return "utf-16-le"
    if even >= n / 4 and odd <= n / 100:
        return "utf-16-be"
    return None


def _refuse_binary(text: str, name: str) -> None:
    if "\x00" in text or len(_CONTROL.findall(text)) > max(8, len(text) // 100):
        raise InputError(f"{name}: this is a binary file, not text; upload the document itself (PDF, DOCX, …) or "
                         "a plain-text export of it.")  # fmt: skip


class _HTMLSections(HTMLParser):
    """Visible text of an HTML page by heading: script, style, template, pre (code), nav, footer and aside skipped;
    block elements become paragraph breaks, a table one paragraph per row (documents.tables); the <title> is kept
    for pages without headings. The head's other content is skipped; as in HTML5 it ends at </head>, at <body>, or
    at the first body element or text (</head> may be left out), and a <head> after body content is ignored."""

    # not the page's prose: code, and what HTML5 marks as navigation, the page's footer and side content
    SKIP = {"script", "style", "template", "noscript", "svg", "pre", "nav", "footer", "aside"}
    CELLS = {"td", "th"}  # a table's cells are separate words ("Location" | "Bexleyheath" ran together)
    HEAD_ONLY = {"title", "meta", "link", "base", "style", "script", "noscript", "template"}
    BLOCK = {"p", "div", "br", "li", "tr", "section", "article", "blockquote", "table", "ul", "ol", "dd", "dt"}
    HEADINGS = {f"h{i}" for i in range(1, 7)}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.sections: list[Section] = []
        self.title = ""
        self._path: list[tuple[int, str]] = []
        self._parts: list[str] = []
        self._heading: list[str] | None = None
        self._level = 0
        self._skip = 0
        self._in_title = False
        self._in_head = False
        self._seen_body = False
        self._table: HTMLTable | None = None  # the table being read (documents.tables: one paragraph per row)

    def _close(self) -> None:
        text = re.sub(r"\n\s*\n\s*", "\n\n", re.sub(r"[ \t\r\f\v]+", " ", "".join(self._parts))).strip()
        if text:
            self.sections.append(Section(tuple(h for _, h in self._path), text))
        self._parts = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "head":
            self._in_head = not self._seen_body
            return
        if tag not in self.HEAD_ONLY and tag != "html":
            self._in_head, self._seen_body = False, True  # <body> or a body element ends the head
        if tag == "title":
            self._in_title = True
        if tag in self.SKIP:
            self._skip += 1
        elif not self._skip and (tag == "table" or self._table is not None and tag in HTMLTable.TAGS):
            self._table = self._table or HTMLTable()
            self._table.start(tag)
        elif self._table is not None and tag in self.BLOCK:
            self._table.data(" ")
        elif tag in self.HEADINGS and not self._skip:
            self._close()
            self._heading, self._level = [], int(tag[1])
        elif tag in self.BLOCK:
            self._parts.append("\n\n")
        elif tag in self.CELLS:
            self._parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "head":
            self._in_head = False
            return
        if tag == "title":
            self._in_title = False
        if tag in self.SKIP:
            self._skip = max(0, self._skip - 1)
        elif self._table is not None and not self._skip and tag in HTMLTable.TAGS:
            if self._table.end(tag):
                self._parts.append(self._table.text())
                self._table = None
        elif self._table is not None and tag in self.BLOCK:
            self._table.data(" ")
        elif tag in self.HEADINGS and self._heading is not None:
            title = " ".join("".join(self._heading).split())
            while self._path and self._path[-1][0] >= self._level:
                self._path.pop()
            if title:
                self._path.append((self._level, title))
            self._heading = None
        elif tag in self.BLOCK:
            self._parts.append("\n\n")

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
            return
        if self._skip or (self._in_head and not data.strip()):
            return
        if data.strip():
            self._in_head, self._seen_body = False, True  # text ends the head: it is body text
        if self._heading is not None:
            self._heading.append(data)
        elif self._table is not None:
            self._table.data(data)
        else:
            self._parts.append(data)

    def finish(self) -> list[Section]:
        self.close()
        if self._table is not None:  # a table the page never closes (browsers show it) keeps its text
            self._parts.append(self._table.text())
        self._close()
        title = " ".join(self.title.split())
        if title:  # text before the first heading belongs to the page's title
            self.sections = [Section((title,) + s.heading if not s.heading else s.heading, s.text)
                             for s in self.sections]  # fmt: skip
        return self.sections


def _html_sections(raw: str) -> list[Section]:
    parser = _HTMLSections()
    parser.feed(_unclosed_as_text(raw))
    return parser.finish()


def _unclosed_as_text(raw: str) -> str:
    """The page with every "<" after its last ">" written as "&lt;": no tag, comment or declaration can end there,
    so they are text either way — but html.parser scans from each such "<" to the end of the page before giving
    up on it, which is quadratic ("<a" × 150k: 62 s)."""
    end = raw.rfind(">") + 1
    return raw if "<" not in raw[end:] else raw[:end] + raw[end:].replace("<", "&lt;")


def document_sections(name: str, data: bytes) -> list[Section]:
    """The sections of an uploaded document (headings, text without markup, PDF pages), or InputError saying
    why not and what to do."""
    suffix = Path(name).suffix.lower()
    if not data:
        raise InputError(f"{name}: the file is empty (0 bytes); check that it saved completely and upload it again.")
    if len(data) > MAX_FILE_MB * 1024 * 1024:
        raise InputError(f"{name}: {len(data) / 2**20:,.1f} MB is over the {MAX_FILE_MB} MB limit per file; split it "
                         "into smaller files and upload those.")  # fmt: skip
    try:
        sections = _read_sections(name, suffix, data)
    except InputError:
        raise
    except Exception as e:  # noqa: BLE001 - any failure to read a file is a message about that file, not a crash
        log.warning("reading %s failed", name, exc_info=True)
        raise InputError(f"{name}: could not be read ({type(e).__name__}); check the file, or save it again as "
                         "PDF, DOCX or plain text and upload that.") from e  # fmt: skip
    sections = [sec for sec in (_without_blobs(clean_section(x)) for x in sections) if sec.text]
    if not sections:
        raise InputError(f"{name}: no readable text found (only markup, scripts, code or data); check the file.")
    return sections


def _read_sections(name: str, suffix: str, data: bytes) -> list[Section]:
    """The sections of a document by its type, before cleaning (see document_sections)."""
    if suffix == ".pdf":
        sections = pdf_sections(data, name)
    elif suffix == ".docx":
        sections = docx_sections(data, name)
    elif suffix in (".html", ".htm"):
        sections = _html_sections(decode_text(data, name))
    elif suffix in (".md", ".markdown"):
        sections = markdown_sections(decode_text(data, name))
    elif suffix in (".txt", ""):
        text = decode_text(data, name)
        lines = text.lstrip().splitlines()
        titled = len(lines) > 2 and not lines[1].strip()  # a short first line followed by a blank line
        sections = plain_sections(text, first_line_title=titled)
    else:
        raise InputError(
            f"{name}: unsupported type {suffix!r}; save it as one of {', '.join(TEXT_TYPES)} and upload that."
        )
    return sections


def _without_blobs(sec: Section) -> Section:
    """Runs of 80+ characters without a space (base64, minified data, hashes) are not prose: dropped — unless
    they are written in a script that puts no spaces between words (Chinese, Japanese, Thai …)."""
    text = re.sub(r"\S{80,}", lambda m: m.group(0) if _unspaced_script(m.group(0)) else " ", sec.text)
    return sec if text == sec.text else Section(sec.heading, text.strip(), sec.page)


_UNSPACED = re.compile(r"[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff]")  # Thai, Lao, Myanmar, Khmer


def _unspaced_script(run: str) -> bool:
    """Whether at least a third of a run's letters are wide (CJK ideographs, kana, fullwidth forms) or of a
    Southeast Asian script written without spaces."""
    letters = [c for c in run[:4096] if c.isalpha()]  # its start decides: a Python loop over a 1 MB run is slow
    wide = sum(1 for c in letters if unicodedata.east_asian_width(c) in ("W", "F") or _UNSPACED.match(c))
    return bool(letters) and wide * 3 >= len(letters)


def document_text(name: str, data: bytes) -> str:
    """The plain text of an uploaded document (its sections' text), or InputError with a reason."""
    return "\n\n".join(s.text for s in document_sections(name, data))

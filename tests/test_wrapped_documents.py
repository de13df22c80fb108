"""Hard-wrapped text (#31 walk-through, session 21): a Markdown or HTML file whose paragraphs are broken into lines
("Liam O'Connor fixed the\\nlock ordering …") is read like the same file unwrapped. The heading reader
(vgrag.documents.topics) read each line as a sentence, and a line opening with a name and ending in a small word
("the", "of") looked one token before the text's start: the whole upload failed with an IndexError."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from vgrag.ingest.passages import plan_chunks
from vgrag.nlp import load_spacy

FIXTURES = Path(__file__).parent / "fixtures"
pytestmark = pytest.mark.skipif(load_spacy() is None, reason="spaCy's en_core_web_sm is not installed")


def wrapped(text: str, width: int) -> str:
    """Each paragraph (not headings, list items or tables) broken into lines of at most `width` characters."""
    out = []
    for para in re.split(r"\n\s*\n", text):
        plain = not re.match(r"\s*(#|[-*>|]|\d+\.)", para)
        out.append(textwrap.fill(" ".join(para.split()), width) if plain else para)
    return "\n\n".join(out)


def test_a_wrapped_line_opening_with_a_name_and_ending_in_a_small_word_is_read():
    md = "# Notes\n\n## Fixed\n\nLiam O'Connor fixed the\nlock ordering in the scheduler.\n"
    html = "<h1>Notes</h1><h2>Fixed</h2><p>Liam O'Connor fixed the\nlock ordering in the scheduler.</p>"
    for name, data in (("notes.md", md), ("notes.html", html)):
        chunks = plan_chunks(name, data.encode())
        assert "lock ordering in the scheduler" in " ".join(c.text for c in chunks)


@pytest.mark.parametrize("name", ["email_thread.md", "travel_guide.md", "clinical_notes.md", "articles.md"])
def test_every_markdown_fixture_wrapped_at_any_width_reads_as_unwrapped(name):
    text = (FIXTURES / name).read_text(encoding="utf-8")
    words = len(" ".join(c.text for c in plan_chunks(name, text.encode())).split())
    for width in (24, 41, 72):
        chunks = plan_chunks(name, wrapped(text, width).encode())
        assert abs(len(" ".join(c.text for c in chunks).split()) - words) <= words // 50  # the same text, read

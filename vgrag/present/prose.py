"""Does a document read as prose? A cheap signal measured before a build: the share of its words that are English
function words ("the", "of", "is", "and" … spaCy's stop-word list). Sentences need them; a list of random or
made-up words, a dump of identifiers or a keyword list has almost none. Measured on the test fixtures, the probe's
documents and every passage of the dev corpora (docs/ui.md): real text 0.22 and up, random words 0.01."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..nlp import stop_words

MIN_SHARE = 0.05  # below this share of function words a text is not prose: real text measured >= 0.079 (docs/ui.md)
MIN_LOWER = 0.5  # ...and more than half its words are in lower case: running words, not a table of names
MIN_WORDS = 40  # a shorter text (a title, a few notes) is not judged
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
SAMPLE_CHARS = 200_000  # the share is read on this much of the text, spread over it (a 300 KB file in ~20 ms)


@dataclass(frozen=True)
class ProseCheck:
    words: int  # words read
    share: float  # of them, function words
    lower: float  # of them, written in lower case (a table or an infobox is mostly names: capitalised)

    @property
    def prose(self) -> bool:
        return self.words < MIN_WORDS or self.share >= MIN_SHARE or self.lower < MIN_LOWER


def _sample(text: str, size: int = SAMPLE_CHARS, parts: int = 8) -> str:
    """Up to `size` characters from `parts` places spread over the text (a long document is not read whole)."""
    if len(text) <= size:
        return text
    step, part = len(text) // parts, size // parts
    return " ".join(text[i * step : i * step + part] for i in range(parts))


def prose_check(text: str) -> ProseCheck:
    words = _WORD.findall(_sample(text))
    if not words:
        return ProseCheck(0, 0.0, 0.0)
    stop = stop_words()
    function = sum(w.lower().replace("’", "'") in stop for w in words)
    lower = sum(w.islower() for w in words)
    return ProseCheck(len(words), function / len(words), lower / len(words))

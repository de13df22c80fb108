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


def test_no_import_cycle_in_the_library():
    """Module imports inside vgrag (module level, lazy and TYPE_CHECKING alike) form no cycle."""
    import ast

    deps: dict[str, set[str]] = {}
    for p in (ROOT / "vgrag").glob("*.py"):
        mod = p.stem
        deps[mod] = set()
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    deps[mod].add(node.module.split(".")[0])
                else:
                    deps[mod].update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("vgrag."):
                deps[mod].add(node.module.split(".")[1])
    deps.pop("__init__", None)
    for d in deps.values():
        d.discard("__init__")
    state: dict[str, int] = {}

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for n in sorted(deps.get(m, ())):
            assert state.get(n) != 1, " → ".join([*path, m, n])
            if n not in state:
                visit(n, [*path, m])
        state[m] = 2

    for m in sorted(deps):
        if m not in state:
            visit(m, [])

"""House rules that keep the code base honest."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_library_never_imports_streamlit():
    offenders = [
        p.name
        for p in (ROOT / "vgrag").rglob("*.py")
        if re.search(r"^\s*(import|from)\s+streamlit", p.read_text(), re.M)
    ]
    assert offenders == []


def test_no_eval_or_print_in_library():
    for p in (ROOT / "vgrag").rglob("*.py"):
        text = p.read_text()
        assert not re.search(r"(^|[^.\w])eval\(", text), p.name
        assert not re.search(r"^\s*print\(", text, re.M), p.name


def _module(p: Path) -> str:
    parts = p.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_no_import_cycle_in_the_library():
    """Module imports inside vgrag (module level, lazy and TYPE_CHECKING alike) form no cycle; a package's
    __init__ is not a node (importing `vgrag.storage.store` is an edge to that module)."""
    import ast

    files = {_module(p): p for p in (ROOT / "vgrag").rglob("*.py") if p.stem != "__init__"}
    deps: dict[str, set[str]] = {}
    for mod, p in files.items():
        package = mod.rsplit(".", 1)[0]
        deps[mod] = set()
        for node in ast.walk(ast.parse(p.read_text())):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                target = f"{base}.{node.module}" if node.module else base
            elif node.module and node.module.startswith("vgrag."):
                target = node.module
            else:
                continue
            names = [f"{target}.{a.name}" for a in node.names]
            deps[mod].update(n for n in [target, *names] if n in files)
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
    assert len(deps) > 40 and sum(map(len, deps.values())) > 100  # the walk saw the library's imports


def test_the_layout_shows_the_architecture():
    """Pipeline steps, stores and presentation are separate groups; each group imports no presentation code
    except presentation itself, and storage imports nothing from the query steps or presentation."""
    groups = {p.parent.name for p in (ROOT / "vgrag").glob("*/__init__.py")}
    assert {"documents", "extraction", "storage", "query", "present"} <= groups
    for p in (ROOT / "vgrag" / "storage").glob("*.py"):
        text = p.read_text()
        assert not re.search(r"^\s*from \.\.(query|present)\b", text, re.M), p.name


def test_starting_the_command_line_does_not_import_spacy():
    """spaCy (~1.4 s to import) is loaded where it is used: a command that needs no spaCy (ingest of triples, stats,
    export, --help) starts without it. Through vgrag.query.trace → verdict → evidence → nlp, every start paid it."""
    import subprocess
    import sys

    code = "import sys, vgrag.cli; print(sorted(m for m in sys.modules if m.split('.')[0] in ('spacy', 'thinc')))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", out[:300]

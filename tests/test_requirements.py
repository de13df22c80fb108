"""Every third-party module the product imports is pinned in requirements.txt (a fresh venv has nothing else)."""

from __future__ import annotations

import ast
import re
import sys
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCAL = {"vgrag", "ui", "pages", "tests"} | {p.stem for d in ("tests", "scripts") for p in (ROOT / d).glob("*.py")}
# imported lazily by a library we call, on a path the product uses (not visible as an import statement here)
INDIRECT = {"scipy": "networkx.spring_layout (drawings over 500 nodes)", "jinja2": "pyvis"}


def _imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
    return out


def _pinned() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        m = re.match(r"^([A-Za-z0-9_.\-\[\]]+)==(\S+)", line.strip())
        if m:
            pins[re.sub(r"[-_.]+", "-", m.group(1).split("[")[0]).lower()] = m.group(2)
    return pins


def test_every_requirement_is_pinned_exactly():
    lines = [x.split("#")[0].strip() for x in (ROOT / "requirements.txt").read_text().splitlines()]
    loose = [x for x in lines if x and "==" not in x]
    assert not loose, f"unpinned requirements: {loose}"


def test_every_third_party_import_is_a_pinned_requirement():
    files = [ROOT / "app.py", *ROOT.glob("vgrag/**/*.py"), *ROOT.glob("ui/*.py"), *ROOT.glob("pages/*.py")]
    files += [*ROOT.glob("tests/*.py"), *ROOT.glob("scripts/*.py")]
    modules = set().union(*(_imports(f) for f in files)) - LOCAL - set(sys.stdlib_module_names)
    modules |= set(INDIRECT)
    dists = packages_distributions()
    pins = _pinned()
    missing = {}
    for m in sorted(modules):
        names = [re.sub(r"[-_.]+", "-", d).lower() for d in dists.get(m, [m])]
        if not any(n in pins for n in names):
            missing[m] = names
    assert not missing, f"imported but not pinned in requirements.txt: {missing}"

"""The command line end to end on the demo corpus: ingest, graphs, query --json, check, export round trip. The
round trips call the CLI's main() in this process (tests/cli_run.py); its errors run `python -m vgrag` for real."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "data" / "demo" / "northwind.jsonl"


@pytest.fixture(scope="module")
def cli(tmp_path_factory):  # a new Python per command: the exit code and stderr of `python -m vgrag` itself
    env = {**os.environ, "VGRAG_MILVUS_URI": str(tmp_path_factory.mktemp("cli") / "cli.db"), "PYTHONPATH": str(ROOT)}

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "vgrag", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
        )

    return run


def test_ingest_query_check_and_export_round_trip(cli_run, tmp_path):
    cli = cli_run
    r = cli("--graph", "demo", "ingest", "--triples", str(DEMO))
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert report["counts"]["passages"] == 36 and report["failures"] == []
    assert "demo\tall-MiniLM-L6-v2-int8\t384" in cli("graphs").stdout
    q = cli("--graph", "demo", "query", "Who operates the data centre of the oldest Northwind Cloud region?", "--json")
    trace = json.loads(q.stdout)
    assert "Maas Colocation" in trace["answer"]["text"] and trace["method"] == "graph"
    chk = cli("--graph", "demo", "check")
    assert chk.returncode == 0 and json.loads(chk.stdout)["ok"]
    csv_file, gml = tmp_path / "demo.csv", tmp_path / "demo.graphml"
    assert cli("--graph", "demo", "export", "--format", "csv", "--out", str(csv_file)).returncode == 0
    assert cli("--graph", "demo", "export", "--format", "graphml", "--out", str(gml)).returncode == 0
    nodes = ET.parse(gml).getroot().findall(".//{http://graphml.graphdrawing.org/xmlns}node")
    assert len(nodes) == report["counts"]["entities"]
    exported = json.loads(cli("--graph", "demo", "export", "--format", "json").stdout)
    assert len(exported["relations"]) == report["counts"]["relations"]
    again = json.loads(cli("--graph", "copy", "ingest", "--triples", str(csv_file)).stdout)  # CSV re-imports
    assert again["counts"]["relations"] == report["counts"]["relations"]
    assert again["counts"]["passages"] == report["counts"]["passages"]


def test_cli_errors_are_messages(cli):
    r = cli("--graph", "nope", "query", "anything")
    assert r.returncode == 2 and "No graph named 'nope'" in r.stderr
    r = cli("ingest", "--triples", str(ROOT / "README.md"))
    assert r.returncode == 2 and "unsupported triple file" in r.stderr


def test_docs_delete_takes_a_files_bare_name_unless_two_documents_share_it(cli_run, tmp_path):
    cli = cli_run
    for folder, text in (("a", "Ferry Alpha sails from Split."), ("b", "Ferry Beta sails from Hvar."), ("c", "Zadar.")):
        (tmp_path / folder).mkdir()
        name = "other.md" if folder == "c" else "notes.md"
        (tmp_path / folder / name).write_text(f"# {folder}\n\n{text}\n")
        assert cli("--graph", "names", "ingest", str(tmp_path / folder / name)).returncode == 0
    r = cli("--graph", "names", "docs", "--delete", "notes.md")
    assert r.returncode == 2 and "names 2 documents" in r.stderr and "a/notes.md" in r.stderr
    assert cli("--graph", "names", "docs", "--delete", "other.md").returncode == 0
    left = cli("--graph", "names", "docs").stdout
    assert "other.md" not in left and left.count("notes.md") == 2

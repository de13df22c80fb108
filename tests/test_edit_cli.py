"""`python -m vgrag edit …`: every subcommand through the real parser, on a real graph; bad input is a message and
exit code 2, not a traceback."""

from __future__ import annotations

import pytest
from editgraph import openie

from vgrag import Settings, Workspace, cli
from vgrag.text import relation_id


@pytest.fixture
def run(db, embedder, monkeypatch, capsys):
    ws = Workspace(Settings(milvus_uri="unused"), db, embedder)
    ws.drop("clied")
    ws.import_triples(("bio.json", openie()), graph="clied")
    monkeypatch.setattr(cli.Workspace, "open", classmethod(lambda cls, settings=None, embedder=None: ws))

    def call(*argv: str) -> tuple[int, str, str]:
        code = cli.main(["--graph", "clied", "edit", *argv])
        out = capsys.readouterr()
        return code, out.out, out.err

    yield call
    ws.drop("clied")


def test_every_edit_subcommand(run, tmp_path):
    junk = relation_id("zy:t", "born", "December 22, 1955")
    assert run("merge", "CLL", "Chronic lymphocytic leukemia")[1].startswith("#1 ")
    assert "renamed 'Dr. Mignot' to 'Mignot'" in run("rename", "Dr. Mignot", "Mignot")[1]
    assert run("edit-relation", junk, "--predicate", "was born on")[0] == 0
    new = relation_id("zy:t", "was born on", "December 22, 1955")
    assert "deleted" in run("delete-relation", new)[1]
    pid = "psg-" + "x"
    code, _, err = run("add-relation", "--passage", pid, "A", "b", "C")
    assert code == 2 and "has no passage 'psg-x'" in err
    assert "deleted 'Thomas C. Sudhof'" in run("delete-entity", "Thomas C. Sudhof")[1]
    assert "merge 'Thomas C. Sudhof'" not in run("suggest")[1]
    out = run("log")[1].splitlines()
    assert [line.split()[3] for line in out] == ["merge:", "rename:", "edit_relation:", "delete_relation:",
                                                 "delete_entity:"]  # fmt: skip
    assert "undid #5" in run("undo")[1]
    assert run("undo", "99")[2].startswith("error: Cannot undo 99 edit(s)")
    code, _, err = run("merge", "CLL", "CLL")
    assert code == 2 and "error:" in err


def test_suggest_and_apply_a_kind(run):
    out = run("suggest")[1]
    assert "[duplicate] merge 'Thomas C. Sudhof' into 'Thomas C. Südhof'" in out
    applied = run("suggest", "--apply", "duplicate")[1].splitlines()
    assert applied[0] == "3 suggestion(s) of kind 'duplicate' to apply" and len(applied) == 4
    assert "0 suggestion(s)" in run("suggest")[1]

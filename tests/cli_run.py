"""The command line run inside the test's own process: `vgrag.cli.main(argv)` — the parser, the handlers, the exit
codes and the messages of `python -m vgrag` — with the shell's environment (VGRAG_MILVUS_URI), stdout and stderr
captured. A new Python per command loaded MiniLM, spaCy and milvus-lite again each time (seconds a command); here the
session's MiniLM is passed to the Workspace the settings name. The process boundary itself (`python -m`, a
traceback, Ctrl-C, a second process on a locked file) stays under test in test_cli.py, test_hostile_cli.py,
test_milvus_modes.py and test_writers.py."""

from __future__ import annotations

import contextlib
import logging
import subprocess
import sys
from collections.abc import Iterator

import pytest

from vgrag import Workspace, cli


@contextlib.contextmanager
def cli_in_process(uri: str, minilm, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture):
    """A `run(*argv)` returning a CompletedProcess (returncode, stdout, stderr) as `subprocess.run` did, over the Lite
    file (or server) at `uri`. Each command opens its Workspace from the environment as the CLI does and closes it
    after; the Lite file's server is released at the end of the block."""
    monkeypatch.setenv("VGRAG_MILVUS_URI", uri)
    real_open = Workspace.open.__func__
    opened: list[Workspace] = []

    def open_(cls, settings=None, embedder=None):  # the embedder the settings name: the session's copy of MiniLM
        ws = real_open(cls, settings, embedder or (minilm if settings and settings.embedder == "minilm" else None))
        opened.append(ws)
        return ws

    monkeypatch.setattr(cli.Workspace, "open", classmethod(open_))

    def run(*argv: str) -> subprocess.CompletedProcess:
        capsys.readouterr()  # what earlier code printed is not this command's output
        # main()'s logging.basicConfig does nothing under pytest (its handlers are on the root logger already): log
        # records go to stderr as the real CLI writes them, so a logged traceback is seen by the test
        shown = logging.StreamHandler(sys.stderr)
        shown.setLevel(logging.WARNING)
        shown.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        logging.getLogger().addHandler(shown)
        try:
            code = cli.main(list(argv))
        except SystemExit as e:  # argparse's usage errors: exit status 2 and a message on stderr, as from a shell
            code = e.code if isinstance(e.code, int) else 1
        finally:
            logging.getLogger().removeHandler(shown)
            while opened:
                opened.pop().close()
        out = capsys.readouterr()
        return subprocess.CompletedProcess(["vgrag", *argv], code, out.out, out.err)

    try:
        yield run
    finally:
        from milvus_lite import server_manager_instance

        server_manager_instance.release_server(uri)


@pytest.fixture
def cli_run(minilm, monkeypatch, capsys, tmp_path_factory) -> Iterator:
    """`cli_in_process` over a new Lite file (in a temp dir of its own: the test's tmp_path holds only its files)."""
    with cli_in_process(str(tmp_path_factory.mktemp("cli") / "cli.db"), minilm, monkeypatch, capsys) as run:
        yield run

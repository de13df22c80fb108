"""The lower cases of #34: paths that are not files, files too big to read, bad numbers, an export that cannot be
written and Ctrl-C get a message on the command line, never a traceback, a hang or 3 GB read into memory."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from vgrag.documents.inputs import InputError, read_file

ROOT = Path(__file__).resolve().parent.parent


def test_read_file_refuses_what_is_not_a_small_regular_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="is a folder; give the files in it"):
        read_file(tmp_path)
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    with pytest.raises(InputError, match="a loop of symbolic links"):
        read_file(loop)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="not a regular file"):  # before: read_bytes() waited for a writer forever
        read_file(fifo)
    with pytest.raises(InputError, match="not a regular file"):  # before: read to 2.5 GB
        read_file("/dev/zero")
    big = tmp_path / "big.txt"
    with open(big, "wb") as f:
        f.truncate(3 * 2**30)  # a 3 GB (sparse) file: refused by its size, never read
    with pytest.raises(InputError, match=r"3,072.0 MB is over the 50 MB limit"):
        read_file(big)
    small = tmp_path / "ok.txt"
    small.write_bytes(b"Ada worked with Charles.")
    assert read_file(small) == b"Ada worked with Charles."


@pytest.fixture(scope="module")
def cli(tmp_path_factory):  # noqa: ANN001, ANN201
    env = {**os.environ, "VGRAG_MILVUS_URI": str(tmp_path_factory.mktemp("cli") / "cli.db"), "PYTHONPATH": str(ROOT)}

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "vgrag", *args], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=300)  # fmt: skip

    run.env = env  # type: ignore[attr-defined]
    return run


def test_cli_messages_for_folders_loops_and_bad_numbers(cli_run, tmp_path: Path) -> None:  # noqa: ANN001
    cli = cli_run  # main() in this process (tests/cli_run.py)
    loop = tmp_path / "loop.txt"
    loop.symlink_to(loop)
    for args, expected in [
        (("ingest", str(tmp_path)), "is a folder"),
        (("ingest", str(loop)), "a loop of symbolic links"),
        (("ingest", "--chunk-chars", "0", "x.txt"), "--chunk-chars: must be at least 50 (got 0)"),
        (("ingest", "--batch-size", "0", "--triples", "x.jsonl"), "--batch-size: must be at least 1 (got 0)"),
    ]:
        r = cli("--graph", "hostile", *args)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        assert expected in r.stderr and "Traceback" not in r.stderr, (args, r.stderr)


def test_cli_ingest_skips_a_bad_path_and_keeps_the_good_file(cli_run, tmp_path: Path) -> None:  # noqa: ANN001
    cli = cli_run  # main() in this process (tests/cli_run.py)
    good = tmp_path / "good.txt"
    good.write_text("Ada Lovelace worked with Charles Babbage in London.")
    r = cli("--graph", "hostile2", "ingest", str(tmp_path), str(good))
    assert r.returncode == 1 and "is a folder" in r.stderr and "Traceback" not in r.stderr
    assert "good.txt" in cli("--graph", "hostile2", "docs").stdout


def test_cli_export_to_a_folder_or_a_full_disk_is_a_message(cli_run, tmp_path: Path) -> None:  # noqa: ANN001
    cli = cli_run  # main() in this process (tests/cli_run.py)
    good = tmp_path / "a.txt"
    good.write_text("Ada Lovelace worked with Charles Babbage in London.")
    assert cli("--graph", "hostile3", "ingest", str(good)).returncode == 0
    r = cli("--graph", "hostile3", "export", "--out", str(tmp_path))
    assert r.returncode == 2 and "is a folder; give a file name" in r.stderr and "Traceback" not in r.stderr
    r = cli("--graph", "hostile3", "export", "--out", "/dev/full")  # every write: ENOSPC, as on a full disk
    assert r.returncode == 2 and "could not be written (No space left on device)" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_ctrl_c_during_an_ingest_is_a_message(cli, tmp_path: Path) -> None:  # noqa: ANN001
    doc = tmp_path / "long.txt"
    doc.write_text(" ".join(f"Person {i} worked with Person {i + 1} in City {i}." for i in range(3000)))
    # a test run started in the background (`pytest &`) inherits an ignored SIGINT, and Python then installs no
    # KeyboardInterrupt handler: the program gets Ctrl-C's default, as from a terminal
    proc = subprocess.Popen([sys.executable, "-m", "vgrag", "--graph", "hostile4", "ingest", str(doc)], cwd=ROOT,
                            env=cli.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # fmt: skip
    assert proc.stderr is not None
    first = proc.stderr.readline()  # the first progress line: the ingest is under way
    assert first.startswith(("read", "extract", "store")), first
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130 and "interrupted:" in err and "Traceback" not in err, err

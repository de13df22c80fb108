"""Where outside text enters: the error a person sees for a file that cannot be used, the size limits, and the
cleaning every document, triple file, question and model reply gets."""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path


class InputError(ValueError):
    """An input file that cannot be used; the message says why, in words for the person who gave it."""


MAX_FILE_MB = 50  # per uploaded file; the Build page's uploader states and enforces the same (max_upload_size)
MAX_UNPACKED_MB = 2 * MAX_FILE_MB  # the most any unzipped or inflated part of a file may grow to (DOCX text)
MAX_TEXT_CHARS = MAX_UNPACKED_MB * 2**20  # the most text one document may yield (a PDF's pages can share a stream)
MAX_PDF_PAGES = 2_000  # pages read from one PDF: each costs a text extraction, however small the file
_UNSAFE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")  # controls, C1, lone surrogates


def clean_text(text: str) -> str:
    """Text at the boundary (documents, triple files, pasted text, questions, model replies): lone surrogates
    become U+FFFD, control characters (ESC, NUL, C1) a space; tabs and line breaks stay."""
    return _UNSAFE.sub(lambda m: "\ufffd" if "\ud800" <= m.group() <= "\udfff" else " ", text)


def clean_surrogates(text: str) -> str:
    """Lone surrogates (which UTF-8 cannot encode) as U+FFFD; everything else as it was."""
    return re.sub(r"[\ud800-\udfff]", "\ufffd", text)


def read_file(path: str | Path, limit_mb: int = MAX_FILE_MB) -> bytes:
    """The bytes of a regular file of at most `limit_mb` MB, or InputError saying what the path is instead: a folder,
    a link loop, a pipe or device (which could block or never end: never opened), a file over the limit (checked by
    its size first, and at most limit + 1 byte read, for a file that grows meanwhile)."""
    name = str(path)
    try:
        st = os.stat(path)
    except OSError as e:
        why = {errno.ENOENT: "no such file", errno.ELOOP: "a loop of symbolic links", errno.EACCES: "permission denied",
               errno.ENOTDIR: "a part of the path is not a folder"}.get(e.errno or 0, e.strerror or str(e))  # fmt: skip
        raise InputError(f"{name}: cannot be read ({why}); check the path.") from e
    if stat.S_ISDIR(st.st_mode):
        raise InputError(f"{name}: is a folder; give the files in it (for example {name.rstrip('/')}/*.pdf).")
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"{name}: is not a regular file (a pipe, socket or device); save the content to a file and "
                         "give that.")  # fmt: skip
    cap = limit_mb * 2**20
    if st.st_size > cap:
        raise InputError(f"{name}: {st.st_size / 2**20:,.1f} MB is over the {limit_mb} MB limit per file; split it "
                         "into smaller files.")  # fmt: skip
    try:
        with open(path, "rb") as f:
            data = f.read(cap + 1)
    except OSError as e:
        raise InputError(f"{name}: cannot be read ({e.strerror or e}); check the file.") from e
    if len(data) > cap:
        raise InputError(f"{name}: grew past the {limit_mb} MB limit per file while it was read; split it.")
    return data

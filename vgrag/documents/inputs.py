"""Where outside text enters: the error a person sees for a file that cannot be used, the size limits, and the
cleaning every document, triple file, question and model reply gets."""

from __future__ import annotations

import re


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

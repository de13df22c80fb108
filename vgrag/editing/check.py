"""What an edit accepts: names and predicates a person typed, checked before anything is read or written."""

from __future__ import annotations

import unicodedata

from ..text import display_name

MAX_NAME = 200


class EditError(ValueError):
    """An edit that cannot be done as asked; the message says why and what to do. Nothing was written."""


def check_text(value: object, what: str) -> str:
    """`value` as it will be stored (NFC, whitespace collapsed, stray edge punctuation off), or EditError: empty,
    longer than MAX_NAME characters, holding a control character, or without a letter or digit (only Markdown or
    punctuation, e.g. "**" or "---")."""
    if not isinstance(value, str):
        raise EditError(f"The {what} must be text, not {type(value).__name__}.")
    for n, c in enumerate(value):
        if unicodedata.category(c) in ("Cc", "Cs") and c not in " \t\n":
            raise EditError(
                f"The {what} contains a control character (U+{ord(c):04X}) at position {n + 1}; type it again "
                "without it."
            )
    shown = display_name(value)
    if not shown:
        raise EditError(f"The {what} is empty; type a {what}.")
    if len(shown) > MAX_NAME:
        raise EditError(f"The {what} has {len(shown):,} characters; at most {MAX_NAME} are allowed.")
    if not any(c.isalnum() for c in shown):
        raise EditError(
            f"The {what} {shown!r} has no letter or digit (only punctuation or Markdown); type a real {what}."
        )
    return shown

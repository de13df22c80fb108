"""Suggested fixes (placeholder, filled below)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Suggestion:
    kind: str
    op: str
    args: dict[str, Any] = field(hash=False)
    title: str = ""
    preview: tuple[str, ...] = ()


def suggest_fixes(graph: Any) -> list[Suggestion]:
    return []

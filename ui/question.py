"""The Ask page's question, written out whole under its box when the box cuts it: the one-line box, ~330 px wide
at 1280×720, showed "Who was the courier named in the loan agreement, a" (walk23 finding 11)."""

from __future__ import annotations

import streamlit as st

from ui.safe import md_escape

# The box's width in the question row (px), measured in Chromium at two window widths (docs/ui.md, "Session 23");
# it grows linearly with the window. A character of its font is ~6 px on average: 6.5 errs towards writing the
# question out when it would just fit.
BOX_AT_1280, BOX_AT_1920, CHAR_PX, PADDING_PX = 326, 591, 6.5, 28
_WRAPPER = "[data-testid=stLayoutWrapper]:has(>.st-key-question_whole)"
_HIDE = f".st-key-question_whole,{_WRAPPER}{{display:none}}"


def shows_whole_from(question: str) -> int:
    """The narrowest window (px) whose question box shows all of `question`."""
    need = len(question) * CHAR_PX + PADDING_PX
    return int(1280 + (need - BOX_AT_1280) * (1920 - 1280) / (BOX_AT_1920 - BOX_AT_1280)) + 1


def whole_question(question: str, compact: bool) -> None:
    """The question in full, in small text, in a window whose box cuts it (a media query): a short one is never
    written twice, and where it is hidden it takes no room. Under the row before a run; with a run on screen
    (`compact`) just above it, over the top bar's empty left part, so the graph loses no height. Always
    drawn: the page keeps its elements in place (pages/ask.py)."""
    q = " ".join(question.split())
    css = f"@media (min-width:{shows_whole_from(q)}px){{{_HIDE}}}" if q else _HIDE
    if compact:  # above the row, over the top bar's empty left part (the top bar is drawn above the page)
        css += f".st-key-question_row{{position:relative}}{_WRAPPER}{{position:absolute;bottom:100%;left:0;right:0;"
        css += "z-index:999991;margin-bottom:2px}"
    with st.container(key="question_whole"):
        st.html(f"<style>{css}</style>")
        st.caption(md_escape(q) if q else "")

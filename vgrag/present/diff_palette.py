"""The colours and legend of a comparison of two runs (compare.py), beside the step-through's roles in viz.py:
Okabe–Ito orange and blue, told apart with every common colour-vision deficiency; the labels are also marked
− and + so the difference reads without colour."""

from __future__ import annotations

DIFF_COLORS = {
    "lost": "#E69F00",  # only in the pinned run (labels marked −)
    "gained": "#0072B2",  # only in the new run (labels marked +)
    "both": "#999999",  # in both runs
}
DIFF_LABELS = {"lost": "− only in the pinned run", "gained": "+ only in the new run", "both": "in both runs"}

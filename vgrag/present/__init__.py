"""Presentation: graph drawing and layout, step explanations, the replay page, why-missed."""

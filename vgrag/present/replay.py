"""The standalone replay page of one query: every step's graph (same layout, palette and zoom as the app), the
step sentences, the legend, the answer and the passages numbered as the answer cites them — offline, one file."""

from __future__ import annotations

from pathlib import Path

from ..query.trace import QueryTrace
from .explain import explain
from .layout import EDGE_LABEL_CHARS, short_label
from .drawing import FIT_JS, VIS_JS, vis_asset
from .viz import FADED, MIN_SCALE, ROLE_COLORS, STEPS, legend, trace_graph


def replay_html(trace: QueryTrace, cap: int | None = 80) -> str:
    """One self-contained HTML page that replays every step of a query offline (vis-network inlined), with the
    legend, the same fixed layout as the app, and passages numbered as the answer cites them."""
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    steps, roles = [], set()
    for st in STEPS:
        g = trace_graph(trace, st, cap)
        roles |= {n.role for n in g.nodes} | {e.role for e in g.edges}
        nodes = [
            {
                "id": n.id,
                "label": short_label(n.label),
                "title": n.title,
                "color": ROLE_COLORS.get(n.role),
                "x": n.x,
                "y": n.y,
            }
            for n in g.nodes
        ]
        edges = [
            {"from": e.source, "to": e.target,
             "label": "" if e.role in FADED else short_label(e.label, EDGE_LABEL_CHARS),
             "title": e.title, "color": ROLE_COLORS.get(e.role), "arrows": "to",
             "width": 1 if e.role in FADED else (4 if e.role == "path" else 2.5)}
            for e in g.edges
        ]  # fmt: skip
        steps.append(
            {"name": st.label, "explain": explain(trace, st), "nodes": nodes, "edges": edges, "focus": list(g.focus)}
        )
    env = Environment(
        loader=FileSystemLoader(Path(__file__).parent / "templates"), autoescape=select_autoescape(["j2", "html"])
    )
    return env.get_template("replay.html.j2").render(
        question=trace.question,
        answer=trace.answer.text if trace.answer else "",
        evidence=[{"n": e.n, "parts": e.parts()} for e in trace.answer.evidence] if trace.answer else [],
        short=trace.answer.short if trace.answer else "",
        confidence=f"{trace.answer.confidence:.0%}" if trace.answer else "",
        how=trace.answer.how if trace.answer else "",
        passages=numbered_passages(trace),
        legend=legend([r for r in ROLE_COLORS if r in roles]),
        steps=steps,
        vis_js=vis_asset(VIS_JS),
        min_scale=MIN_SCALE,
        fit_js=FIT_JS,
    )


def numbered_passages(trace: QueryTrace) -> list[dict]:
    """The retrieved passages numbered 1…k as the answer cites them, then any cited passage outside the top k."""
    ranked = trace.passages.passages if trace.passages else ()
    cited = {c.passage_id for c in trace.answer.citations} if trace.answer else set()
    out = [{"n": n, "title": p.title, "text": p.text, "cited": p.id in cited} for n, p in enumerate(ranked, 1)]
    listed = {p.id for p in ranked}
    for c in trace.answer.citations if trace.answer else ():
        if c.passage_id not in listed:
            out.append({"n": c.n, "title": c.title, "text": c.text, "cited": True})
    return out

"""The other spellings of the question's names that the graph records (extraction/entities.py `AliasLog`: "Kasia is
Katarzyna Pyrek", 'Władysław "Walter" Nowak', "Bridget Keane (née Walsh)", and merges made in Review), so that a
sentence writing one of them states the name the question writes: "Where did Walter Nowak work?" is answered by
"Władysław "Walter" Nowak (1905–1971) …" and by "Władek is sixteen …" only when the graph says Władek is Walter.
Only what the graph records: no spelling is guessed here.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..storage.store import Graph
from .evidence import states
from .question import norm


def alias_forms(graph: Graph | None, names: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """For each question name that is an entity's name or one of its recorded spellings, the entity's other
    spellings (normalised, the name's own left out); one read of the graph's alias records."""
    if graph is None or not names:
        return {}
    from ..extraction.entities import graph_aliases  # extraction builds on storage: imported when used

    try:
        records = graph_aliases(graph).all()
    except AttributeError:  # a graph without document records (a bare store in a script)
        return {}
    groups = [{norm(n) for n in (canon, *forms) if norm(n)} for canon, forms in records.items()]
    out: dict[str, tuple[str, ...]] = {}
    for name in names:
        key = norm(name)
        others = {f for g in groups if key in g for f in g} - {key}
        if others:
            out[name] = tuple(sorted(others))
    return out


def stated_by_alias(
    split: Sequence[tuple[int, str, str]], forms: dict[str, tuple[str, ...]], also: Sequence[Sequence[str]] = ()
) -> tuple[tuple[str, ...], ...]:
    """Per sentence, `also` (the names it already stands for: its referents) and the question names one of whose
    recorded spellings it or its passage's title writes."""
    extra = list(also) + [()] * (len(split) - len(also))
    out = []
    for (_, title, text), had in zip(split, extra, strict=True):
        padded = f" {norm(title)} {norm(text)} "
        more = [n for n, fs in forms.items() if n not in had and any(states(f, padded) for f in fs)]
        out.append((*had, *more))
    return tuple(out)

"""A "not in these documents" verdict checked against the documents, not only the passages retrieved.

The verdict (query/verdict.py) reads the retrieved passages: a question name none of them states ("1940", "BF/25/0147")
or a word none of them says is what it reports missing. Retrieval reads a handful of passages; the name may be in
another ("who lent it … in 1940" in the catalogue while the loan agreement's passages were retrieved). Before the
answer says "Not in these documents", every passage the question may read is looked at, as query/absent.py does for
phrases: a missing name is written elsewhere when a passage states it (normalised, whole words, as the evidence
reads names), a missing word when a passage has a word beginning with its stem. What is written nowhere stays "not
in these documents"; when everything reported missing is written somewhere, the answer is "partly found" and says
where the gap is — in what retrieval reached, not in the documents.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..storage.store import Graph
from .absent import mentioned
from .evidence import states
from .question import Asked, norm
from .scope import Scope
from .verdict import Verdict, _quote


def _texts(graph: Graph, scope: Scope) -> list[str]:
    return [f"{p.title}\n{p.full_text}" for p in graph.iter_passages() if scope.allows(p.id)]


def written_elsewhere(verdict: Verdict, asked: Asked, graph: Graph | None, scope: Scope) -> Verdict:
    """The verdict, or — when it says "not in these documents" of names or words that some passage the question may
    read does write — a "partly found" one naming them (see the module doc)."""
    if verdict.kind != "missing" or graph is None or not (verdict.missing_names or verdict.missing_words):
        return verdict
    texts = _texts(graph, scope)
    padded = [f" {norm(t)} " for t in texts]
    nowhere_n = [n for n in verdict.missing_names if not any(states(norm(n), t) for t in padded)]
    nowhere_w = [w for w in verdict.missing_words if not mentioned(w, _lemmas(asked, w), texts)]
    if nowhere_n or (nowhere_w and not verdict.missing_names):
        return _narrowed(verdict, nowhere_n, nowhere_w)
    elsewhere = [*verdict.missing_names, *(w for w in verdict.missing_words if w not in nowhere_w)]
    said = (f"Partly found: the passages retrieved do not state {_quote(elsewhere)}; other passages of these "
            "documents do — more passages or another hop may reach them.")  # fmt: skip
    return Verdict("partly", said, verdict.missing_names, verdict.missing_words, verdict.name_share,
                   verdict.word_share, verdict.by)  # fmt: skip


def _narrowed(verdict: Verdict, names: Sequence[str], words: Sequence[str]) -> Verdict:
    """The "not in these documents" verdict naming only what is written nowhere."""
    if names and tuple(names) != verdict.missing_names:
        said = f"Not in these documents: nothing here names {_quote(names)}."
    elif not names and words and tuple(words) != verdict.missing_words:
        said = f"Not in these documents: nothing here says {_quote(words)}."
    else:
        return verdict
    return Verdict("missing", said, verdict.missing_names, verdict.missing_words, verdict.name_share,
                   verdict.word_share, verdict.by)  # fmt: skip


def _lemmas(asked: Asked, word: str) -> frozenset[str]:
    i = asked.words.index(word) if word in asked.words else -1
    return asked.lemmas[i] if 0 <= i < len(asked.lemmas) else frozenset()

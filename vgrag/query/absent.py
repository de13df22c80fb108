"""What a question asks about that the documents never mention: a noun phrase of the question ("the tuition fee",
"the chief executive", "the focal length") none of whose words any passage says, in any form. Then the answer is
not in these documents, whatever else of the question they state ("What is the tuition fee for the MSc …?" beside a
handbook naming the MSc on every page).

A word is mentioned when a sentence says it in some form (its lemmas, as the evidence reads words) or a text has a
word beginning with its stem — the word or a lemma less its last three letters, at least four letters kept — so
that derived forms count ("convenor" / "convened", "founders" / "founded"); a word of four letters or fewer is its
own stem. The stem errs on the side of "mentioned": a question is said "not in these documents" only when nothing
near any word of the phrase is written anywhere. A verb's irregular forms, as spaCy's lemmatizer lists them,
count too ("met" for "meet", "sold" for "sell"). A single noun is not enough (a question's "patients" is the
documents' "you"); a phrase of two or more words, none written, is.

Nor is the main verb of a question asking a date, a number or an amount ("When was Ashbourne Vale Water founded?",
"How much are invigilators paid?", "How many withdrew …?") mentioned anywhere: the value asked is a value *of* what
the verb says (query/values.py requires the asked word in the sentence stating it), so with the verb written nowhere
no sentence can state it, whatever else of the question the documents name. A question asking *what* is not
judged so: its answer is a thing the documents may tie to the question's names by other words ("What book did she
write?" beside "her novel The Salt Road"; "What happened to the application?" beside "… was refused").

A question asking *who* is judged by the role it asks for (parse.slot_of): the head of its role ("Who is the chair
of …?": chair). Written nowhere, no sentence can say of anyone that they are it. Only the role's head: "Who is the
course convenor of GEO7012?" is answered by "… is convened by …" with "course" written nowhere. Not its verb: an act
is said in many ways ("Who commissioned the excavation?" beside "on behalf of Hollins Homes Ltd"; docs/offline-
answers.md, "Session 24").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ..config import QueryParams
from ..nlp import load_spacy
from ..storage.store import Graph
from .question import Asked
from .evidence import Sentence
from .scope import Scope, scope_for
from .values import bare_value
from .verdict import Verdict


def stems(word: str, lemmas: frozenset[str]) -> set[str]:
    """The word's and its lemmas' stems (see the module doc), and those of the lemmas' irregular verb forms."""
    return {x[: max(4, len(x) - 3)] for x in {word, *lemmas, *irregular(lemmas)} if x}


def irregular(lemmas: frozenset[str]) -> set[str]:
    """The irregular forms spaCy's English lemmatizer lists for these verb lemmas ("meet": met; "sell": sold; "sit":
    sat), which no stem of the lemma begins ("When did the founders meet?" is mentioned by "… who met while …")."""
    nlp = load_spacy() if lemmas else None
    if nlp is None or "lemmatizer" not in nlp.pipe_names:  # type: ignore[attr-defined]
        return set()
    table = nlp.get_pipe("lemmatizer").lookups.get_table("lemma_exc", {})  # type: ignore[attr-defined]
    verbs = table.get("verb", {}) if hasattr(table, "get") else {}
    return {form for form, of in verbs.items() if not lemmas.isdisjoint(of)}


def mentioned(word: str, lemmas: frozenset[str], texts: Iterable[str]) -> bool:
    """Whether any text has a word beginning with one of the word's stems (case-insensitive)."""
    pat = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(stems(word, lemmas)))) + ")", re.IGNORECASE)
    return any(pat.search(t) for t in texts)


def unmentioned(
    phrases: Sequence[frozenset[int]],
    words: Sequence[str],
    lemmas: Sequence[frozenset[str]],
    heard: frozenset[int],
    texts: Sequence[str],
) -> list[frozenset[int]]:
    """The phrases (sets of content-word indices) none of whose words is said by a sentence (`heard`: the indices
    some retrieved sentence says) or begins a word of `texts`."""
    return [a for a in phrases if not any(i in heard or mentioned(words[i], lemmas[i], texts) for i in a)]


def valued_predicate(asked: Asked) -> tuple[frozenset[int], ...]:
    """The question's main verb (as a one-word phrase) when it asks a date, a number or an amount; else none."""
    at = asked.predicate
    return (frozenset({at}),) if asked.value and 0 <= at < len(asked.words) and at not in asked.kind_words else ()


_OF_VALUE = (("DATE", "date"), ("TIME", "time"), ("MONEY", "amount"))


def not_mentioned(
    asked: Asked,
    heard: frozenset[int],
    split: Sequence[tuple[int, str, str]],
    graph: Graph | None,
    params: QueryParams,
    scope: Scope | None = None,
    chosen: Sequence[Sentence] = (),
) -> Verdict | None:
    """ "Not in these documents" when a noun phrase of the question, or the main verb of a question asking a value
    (`valued_predicate`), is mentioned neither by the retrieved passages (`split`: their sentences; `heard`: the
    content words they say) nor by any passage of the documents the question may read (the graph's, within `scope`,
    by default params' document scope; without a graph, the retrieved passages are all there is); else None.
    `chosen`: the evidence sentences (query/values.py `bare_value` reads those stating the question's names)."""
    words, lemmas = asked.words, asked.lemmas
    verb = valued_predicate(asked)
    # a "who" question's role noun or verb (its head: "convenor" of "course convenor", which "GEO7012 is convened by
    # …" answers; a modifier unwritten proves nothing)
    # (not its verb: "Who commissioned the excavation?" is answered by "on behalf of Hollins Homes Ltd" — a new
    # user's report, session 24 — as "founded" by "established": a role is named, an act is said in many ways)
    slot = (frozenset({asked.slot[-1]}),) if asked.slot and asked.slot != (asked.predicate,) and \
        asked.slot[-1] not in asked.kind_words else ()  # fmt: skip
    lost = unmentioned([*asked.phrases, *verb, *slot], words, lemmas, heard, [f"{t} {x}" for _, t, x in split])
    if lost and graph is not None:
        scope = scope if scope is not None else scope_for(graph, params)
        texts = [p.full_text for p in graph.iter_passages() if scope.allows(p.id)]
        lost = unmentioned(lost, words, lemmas, frozenset(), texts)
    if verb and verb[0] in lost:
        # a value the evidence's sentences about the question's names state with no verb of its own may be the one
        # asked, its verb left unwritten ("in force from 14 July to 22 September" for "lifted"): then the verb
        # unwritten is no proof (parsed only here, when the verb is written nowhere)
        about = [s for s in chosen if s.names] if asked.names else list(chosen)
        if bare_value(about, asked.value, asked.names):
            lost = [a for a in lost if a != verb[0]]
    if not lost:
        return None
    phrase = tuple(words[i] for i in sorted(lost[0]))
    said = f"Not in these documents: nothing here mentions “{' '.join(phrase)}”"
    if lost[0] in verb:
        what = next((w for lab, w in _OF_VALUE if lab in asked.value), "number")
        said += f", so nothing states the {what} the question asks for"
    elif lost[0] in slot:
        role = " ".join(words[i] for i in asked.slot)
        said += f", so nothing says who {role}" if asked.slot == (asked.predicate,) else f", so no one is named {role}"
    return Verdict("missing", said + ".", (), phrase, 1.0, 1 - len(phrase) / max(len(words), 1))

"""Triple extraction, offline and by LLM: the Extractor protocol and its typed result, the offline spaCy extractor,
the LLM extractor (one bounded few-shot call per chunk; its replies are read by parse.py) and the factory shared by
the CLI and the app.

The offline reading is clause-based over spaCy's dependency parse (clauses.py); citation markers are stripped
before parsing so they never end up in names.
"""

from __future__ import annotations

import re

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol

from ..config import LLMSettings
from ..documents.structure import clean_prose, name_of
from ..llm import LLMError, OpenAILLM, make_llm
from ..models import Named, Triple
from ..nlp import load_spacy
from .aboutness import pool
from .clauses import ClauseReader
from .defined import bracketed_abbreviations, defined_terms
from .entities import Canonicalizer
from .identity import defined_abbreviations
from .mentions import TITLES, honorific, post_nominal, title_words
from .nominal import nominal_triples
from .parse import parse_triples_output
from .persons import identity_names, not_crossed, stated_aliases
from .roles import RoleEvidence, noun_table, role_evidence
from .tables import field_facts, table_facts

ExtractorKind = Literal["offline", "llm"]
NO_TRIPLES = "no triples found"  # a chunk read without error that states no fact between named things
# a footnote or affiliation mark on a name ("Ingrid Haugland¹", "Mei-Ling Zhou²*", "R. Falkenhain†"): not part of it
# (a unit's power, "km²", is lower-case)
_MARK = re.compile(r"\b([A-Z][^\W\d_]*(?:-[A-Z][^\W\d_]*)?)[¹²³⁴⁵⁶⁷⁸⁹⁰]+[*†‡]*|\b([A-Z][^\W\d_]+)[*†‡]+")


@dataclass(frozen=True)
class Extraction:
    """What one chunk yielded: triples, entity names, the raw model text and any error (never silently [])."""

    triples: tuple[Triple, ...] = ()
    entities: tuple[str, ...] = ()
    raw: str = ""
    error: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached: bool = False
    named: Named = Named()  # offline: the named entities its parse found, where (ingest gives them to sentences)
    defined: tuple[tuple[str, str], ...] = ()  # (long form, abbreviation) the text defines: "… leukemia (CLL)"
    people: tuple[str, ...] = ()  # the people the text names in full (a later surname alone is one of them)
    roles: RoleEvidence = RoleEvidence()  # offline: role words before person names, and the text's evidence
    failed: bool = False  # the extractor could not run (endpoint down …): not "no triples", try again later


class Extractor(Protocol):
    name: str

    def extract_many(self, texts: Sequence[str], titles: Sequence[str] | None = None) -> list[Extraction]: ...


# ---------- offline: clauses over spaCy's dependency parse (clauses.py)


class OfflineExtractor:
    """Extracts triples from English prose without any model download or API: one spaCy parse per text."""

    name = "offline (spaCy clauses)"

    def __init__(self, batch_size: int = 32) -> None:
        self._nlp = load_spacy()
        self._batch = batch_size
        self._noun = noun_table(self._nlp) if self._nlp is not None else None

    def extract_many(self, texts: Sequence[str], titles: Sequence[str] | None = None) -> list[Extraction]:
        if self._nlp is None:
            return [
                Extraction(error="spaCy model en_core_web_sm not installed: pip install -r requirements.txt")
                for _ in texts
            ]
        titles = list(titles) if titles else [""] * len(texts)
        clean = [_MARK.sub(lambda m: m.group(1) or m.group(2), clean_prose(t)) for t in texts]
        out, brackets = [], []
        rows = [table_facts(t) for t in clean]  # a table's rows are facts, never parsed as sentences
        docs = list(self._nlp.pipe([t for t, _ in rows], batch_size=self._batch))  # type: ignore[attr-defined]
        # "Cllr" before the names of the texts given together: a title, as "Dr."
        honorifics = title_words(docs, self._noun or (lambda w: False))
        for doc in docs:
            doc.user_data[TITLES] = honorifics
        readers = pool_topics([ClauseReader(doc, name_of(title) if title else "") for doc, title in
                               zip(docs, titles, strict=True)])  # fmt: skip
        for reader, (_, table) in zip(readers, rows, strict=True):
            doc, title = reader.doc, reader.title
            fields, listed = field_facts(doc, reader.arg, title, honorific)  # "Case officer: Alan Whitcombe"
            triples = tuple(dict.fromkeys(reader.triples() + nominal_triples(reader) + table + fields))
            said = stated_aliases(doc, reader.arg)  # "Marysia is Marianna": one person (merged at ingest)
            triples = not_crossed(triples, identity_names(doc, reader.arg), said)
            names = tuple(dict.fromkeys(x for t in triples for x in (t.subject, t.object)))
            named = Named(doc.text, tuple((e.start_char, e.end_char, e.text.strip(), e.label_) for e in doc.ents))
            brackets.append(tuple(bracketed_abbreviations(doc, reader.arg)) + tuple(said))
            out.append(Extraction(triples, names, error=None if triples else NO_TRIPLES, named=named,
                                  defined=(*defined_abbreviations(doc.text), *defined_terms(doc, reader.arg)),
                                  people=tuple(dict.fromkeys(people(doc) + tuple(listed) + initialled(table))),
                                  roles=role_evidence(doc, honorific, self._noun, title)))  # fmt: skip
        clean_names = Canonicalizer(each_text=True).apply(out)  # no leading article, markers, repeated titles
        # an abbreviation in brackets whose letters are not the name's initials ("Halvorsen Therapeutics (HTX)") is
        # merged by the document's canonicalizer at ingest, not across texts given together: a corpus's passages
        # write "NS Railinfratrust (RIT)" and then "RIT" as GPT-3.5's triples do (MuSiQue pair recall −0.0005
        # [−0.0010, −0.0002] when merged here)
        return [replace(r, defined=(*r.defined, *b)) if b else r for r, b in zip(clean_names, brackets, strict=True)]


def people(doc: Any) -> tuple[str, ...]:
    """The full names (two words or more, without a title such as "Dr.") of the PERSON entities of a parse."""
    out = []
    for ent in doc.ents:
        span = ent[1:] if ent.label_ == "PERSON" and len(ent) > 1 and honorific(ent[0]) else ent
        span = span[: len(span) - post_nominal(ent)] if len(span) > 1 else span
        if ent.label_ == "PERSON" and len(span) > 1 and all(t.text[:1].isupper() for t in span if t.is_alpha):
            out.append(span.text)
    return tuple(dict.fromkeys(out))


_INITIALLED = re.compile(r"(?:(?:Dr|Prof|Mr|Mrs|Ms|Mx)\.? )?((?:[A-Z]\. ?){1,3}[A-Z][a-z]+(?:[-'][A-Z][a-z]+)?)")


def initialled(table: Sequence[Triple]) -> tuple[str, ...]:
    """The people a table's cells name by initials and surname ("T. Breen", "Dr M. Okafor" → "M. Okafor"), which
    no parse reads (a table's rows are facts, not sentences): a later surname alone is one of them."""
    cells = (x for t in table for x in (t.subject, t.object))
    return tuple(dict.fromkeys(m.group(1) for c in cells if (m := _INITIALLED.fullmatch(c))))


def pool_topics(readers: list[ClauseReader]) -> list[ClauseReader]:
    """The texts given together that share a topic (a document's chunks under one heading) share what they say of it
    (aboutness.pool)."""
    groups: dict[str, list[ClauseReader]] = {}
    for r in readers:
        if r.title:
            groups.setdefault(r.title, []).append(r)
    for group in groups.values():
        for r in group[1:]:  # only a document's opening sentence names its topic by another name
            r.lead = set()
            r.about.said = r.about.says()
        pool([r.about for r in group])
    return readers


# ---------- by LLM

SYSTEM = (
    'You extract a knowledge graph from text. Return JSON: {"entities": [names], "triples": '
    "[[subject, predicate, object], …]}. Use exact names from the text, resolve pronouns to the names they "
    "refer to, keep predicates short, and include every fact that links two named things."
)
EXAMPLE_IN = "Radio City is India's first private FM radio station. It was started on 3 July 2001 in Bangalore."
EXAMPLE_OUT = (
    '{"entities": ["Radio City", "India", "3 July 2001", "Bangalore"], "triples": [["Radio City", '
    '"located in", "India"], ["Radio City", "is", "private FM radio station"], ["Radio City", '
    '"started on", "3 July 2001"], ["Radio City", "started in", "Bangalore"]]}'
)
GLEAN = (
    'Some facts may have been missed. Reply with JSON {"entities": [...], "triples": [...]} listing only '
    'facts not already given; reply {"triples": []} if none were missed.'
)


def extraction_messages(text: str, title: str = "") -> list[dict]:
    body = f"Title: {title}\n\n{text}" if title else text
    return [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": EXAMPLE_IN},
        {"role": "assistant", "content": EXAMPLE_OUT},
        {"role": "user", "content": body},
    ]


def _parsed(raw: str, truncated: str | None, cap: int) -> tuple[tuple[Triple, ...], tuple[str, ...], str | None]:
    """Triples from a reply; one cut at its token cap is a parse failure (its raw text is kept by the caller)."""
    if truncated:
        return (), (), f"the reply was cut at the {cap}-token cap: not parsed (raise max_tokens or shorten chunks)"
    return parse_triples_output(raw)


class LLMExtractor:
    """Extractor over an OpenAI-compatible endpoint; `glean` adds one follow-up call asking for missed facts."""

    def __init__(self, llm: OpenAILLM, concurrency: int = 4, glean: bool = False) -> None:
        self.llm, self.concurrency, self.glean = llm, max(1, concurrency), glean
        self.name = f"LLM ({llm.settings.model_extract})" + (" + gleaning" if glean else "")

    def _one(self, text: str, title: str) -> Extraction:
        messages = extraction_messages(text, title)
        try:
            r = self.llm.complete("extract", messages)
        except LLMError as e:
            return Extraction(raw=e.partial, error=str(e), failed=True)
        triples, entities, error = _parsed(r.text, r.truncated, r.max_tokens)
        raw, pt, ct, cached = r.text, r.prompt_tokens, r.completion_tokens, r.cached
        if self.glean and error is None:
            follow = messages + [{"role": "assistant", "content": r.text}, {"role": "user", "content": GLEAN}]
            try:
                g = self.llm.complete("glean", follow)
            except LLMError as e:
                return Extraction(triples, entities, raw, f"gleaning failed: {e}", pt, ct, cached, failed=True)
            more, more_ents, g_error = _parsed(g.text, g.truncated, g.max_tokens)
            triples = tuple(dict.fromkeys(triples + more))
            entities = tuple(dict.fromkeys(entities + more_ents))
            raw, pt, ct = raw + "\n--- gleaning ---\n" + g.text, pt + g.prompt_tokens, ct + g.completion_tokens
            error = f"gleaning: {g_error}" if g.truncated else None
        return Extraction(triples, entities, raw, error, pt, ct, cached)

    def extract_many(self, texts: Sequence[str], titles: Sequence[str] | None = None) -> list[Extraction]:
        titles = list(titles) if titles else [""] * len(texts)
        with ThreadPoolExecutor(max_workers=self.concurrency) as pool:
            return list(pool.map(self._one, texts, titles))


def make_extractor(
    kind: ExtractorKind, llm: LLMSettings | None = None, cache_dir: str | None = None, glean: bool = False
) -> Extractor:
    """The extractor the CLI and the Build page use: offline spaCy rules, or the configured LLM endpoint."""
    if kind == "llm":
        if llm is None or not llm.enabled:
            raise ValueError("LLM extraction needs an endpoint: set OPENAI_API_KEY / OPENAI_BASE_URL or use Settings.")
        return LLMExtractor(make_llm(llm, cache_dir), llm.concurrency, glean)
    return OfflineExtractor()

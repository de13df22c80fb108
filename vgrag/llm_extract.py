"""Triple extraction by an LLM: one few-shot prompt per chunk, bounded concurrency, raw output kept."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from .extract import Extraction, parse_triples_output
from .llm import LLMError, OpenAILLM

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


def extraction_messages(text: str, title: str = "") -> list[dict]:
    body = f"Title: {title}\n\n{text}" if title else text
    return [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": EXAMPLE_IN},
        {"role": "assistant", "content": EXAMPLE_OUT},
        {"role": "user", "content": body},
    ]


GLEAN = (
    'Some facts may have been missed. Reply with JSON {"entities": [...], "triples": [...]} listing only '
    'facts not already given; reply {"triples": []} if none were missed.'
)


class LLMExtractor:
    """Extractor over an OpenAI-compatible endpoint; `glean` adds one follow-up call asking for missed facts."""

    def __init__(self, llm: OpenAILLM, model: str, concurrency: int = 4, glean: bool = False) -> None:
        self.llm, self.model, self.concurrency, self.glean = llm, model, max(1, concurrency), glean
        self.name = f"LLM ({model})" + (" + gleaning" if glean else "")

    def _one(self, text: str, title: str) -> Extraction:
        messages = extraction_messages(text, title)
        try:
            r = self.llm.complete(self.model, messages, json_mode=True)
        except LLMError as e:
            return Extraction(error=str(e))
        triples, entities, error = parse_triples_output(r.text)
        raw, pt, ct, cached = r.text, r.prompt_tokens, r.completion_tokens, r.cached
        if self.glean and error is None:
            follow = messages + [{"role": "assistant", "content": r.text}, {"role": "user", "content": GLEAN}]
            try:
                g = self.llm.complete(self.model, follow, json_mode=True)
            except LLMError as e:
                return Extraction(triples, entities, raw, f"gleaning failed: {e}", pt, ct, cached)
            more, more_ents, _ = parse_triples_output(g.text)
            triples = tuple(dict.fromkeys(triples + more))
            entities = tuple(dict.fromkeys(entities + more_ents))
            raw, pt, ct = raw + "\n--- gleaning ---\n" + g.text, pt + g.prompt_tokens, ct + g.completion_tokens
        return Extraction(triples, entities, raw, error, pt, ct, cached)

    def extract_many(self, texts: Sequence[str], titles: Sequence[str] | None = None) -> list[Extraction]:
        titles = list(titles) if titles else [""] * len(texts)
        with ThreadPoolExecutor(max_workers=self.concurrency) as pool:
            return list(pool.map(self._one, texts, titles))

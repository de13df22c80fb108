"""Triple extraction by an LLM: one few-shot prompt per chunk, bounded concurrency, raw output kept."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from .extract import Extraction, parse_triples_output
from .llm import LLMError, OpenAILLM

SYSTEM = ("You extract a knowledge graph from text. Return JSON: {\"entities\": [names], \"triples\": "
          "[[subject, predicate, object], …]}. Use exact names from the text, resolve pronouns to the names they "
          "refer to, keep predicates short, and include every fact that links two named things.")
EXAMPLE_IN = "Radio City is India's first private FM radio station. It was started on 3 July 2001 in Bangalore."
EXAMPLE_OUT = ('{"entities": ["Radio City", "India", "3 July 2001", "Bangalore"], "triples": [["Radio City", '
               '"located in", "India"], ["Radio City", "is", "private FM radio station"], ["Radio City", '
               '"started on", "3 July 2001"], ["Radio City", "started in", "Bangalore"]]}')


def extraction_messages(text: str, title: str = "") -> list[dict]:
    body = f"Title: {title}\n\n{text}" if title else text
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": EXAMPLE_IN},
            {"role": "assistant", "content": EXAMPLE_OUT}, {"role": "user", "content": body}]


class LLMExtractor:
    """Extractor over an OpenAI-compatible endpoint."""

    def __init__(self, llm: OpenAILLM, model: str, concurrency: int = 4) -> None:
        self.llm, self.model, self.concurrency = llm, model, max(1, concurrency)
        self.name = f"LLM ({model})"

    def _one(self, text: str, title: str) -> Extraction:
        try:
            r = self.llm.complete(self.model, extraction_messages(text, title), json_mode=True)
        except LLMError as e:
            return Extraction(error=str(e))
        triples, entities, error = parse_triples_output(r.text)
        return Extraction(triples, entities, r.text, error, r.prompt_tokens, r.completion_tokens, r.cached)

    def extract_many(self, texts: Sequence[str], titles: Sequence[str] | None = None) -> list[Extraction]:
        titles = list(titles) if titles else [""] * len(texts)
        with ThreadPoolExecutor(max_workers=self.concurrency) as pool:
            return list(pool.map(self._one, texts, titles))

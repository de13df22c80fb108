"""Triples out of text: the offline clause extractor, the LLM extractor, canonical entity names."""

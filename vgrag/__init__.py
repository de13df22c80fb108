"""Vector Graph RAG: a knowledge graph that lives only in Milvus, queried by multi-hop look-ups."""

from __future__ import annotations

__version__ = "0.1.0"

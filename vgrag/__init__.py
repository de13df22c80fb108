"""Vector Graph RAG: a knowledge graph that lives only in Milvus, queried by multi-hop look-ups.

The front door is `Workspace` (see workspace.py for an example): open a database, add documents, texts or
pre-extracted triples to a named graph, and `query` it for a `QueryTrace` whose steps and answer you can inspect.
"""

from __future__ import annotations

from .config import LLMSettings, QueryParams, Settings
from .query.trace import QueryTrace, Step
from .workspace import Workspace

__version__ = "0.2.0"
__all__ = ["LLMSettings", "QueryParams", "QueryTrace", "Settings", "Step", "Workspace", "__version__"]

"""What the CLI and the app open once per process: the database, the embedder, and graphs by name."""

from __future__ import annotations

from dataclasses import dataclass, field

from .config import Settings
from .embed import Embedder, make_embedder
from .database import Database
from .store import Graph


@dataclass
class Workspace:
    settings: Settings
    db: Database
    embedder: Embedder
    _graphs: dict[str, Graph] = field(default_factory=dict)

    @classmethod
    def open(cls, settings: Settings, embedder: Embedder | None = None) -> Workspace:
        emb = embedder or make_embedder(
            settings.embedder, settings.embed_model, settings.embed_base_url, settings.embed_api_key
        )
        return cls(settings, Database(settings.milvus_uri, settings.milvus_token), emb)

    def graph(self, name: str | None = None, create: bool = True) -> Graph:
        """A graph by name (the configured one by default), checked against this embedder."""
        name = name or self.settings.graph
        if name not in self._graphs:
            self._graphs[name] = self.db.open_graph(name, self.embedder.model_id, self.embedder.dim, create=create)
        return self._graphs[name]

    def drop(self, name: str) -> None:
        self.db.drop_graph(name)
        self._graphs.pop(name, None)

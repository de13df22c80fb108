"""Reopening a run from its link (AppTest, real Milvus Lite, offline models; the model is a scripted
OpenAI-compatible server behind the real client): the document filter travels in the link, and a comparison link
replays the runs this server kept without calling the model — a run it did not keep is run again with the model only
when the user says so, at most two calls per run."""

from __future__ import annotations

from dataclasses import replace

import pytest
from apptest import app_workspace, opened, page

Q = "Who is the escalation contact for the service that Beacon depends on?"


def _url(at) -> dict[str, str]:
    return {k: (v[0] if isinstance(v, list) else v) for k, v in ((k, at.query_params[k]) for k in at.query_params)}


@pytest.fixture
def fresh_store():
    """No run kept from another test (the store is one per process, as on a server)."""
    from ui.reopen import run_store

    run_store.clear()


@pytest.fixture
def model(monkeypatch):
    """A scripted model server; the app's session settings that use it."""
    from llm_server import ScriptedServer

    import vgrag.llm
    from vgrag.config import LLMSettings, Settings

    server = ScriptedServer([lambda body: "Priya Raman [1]." if body.get("stream") else '{"selected": [1, 2]}'])
    monkeypatch.setattr(vgrag.llm, "make_llm", lambda settings, cache_dir=None: server.llm())
    return server, replace(Settings.from_env(), llm=LLMSettings(base_url="http://llm.test/v1"))


def test_the_document_filter_travels_in_the_link_of_a_run_and_of_a_pinned_run(app_env, fresh_store):
    at = page("pages/ask.py")
    [doc] = app_workspace(at).documents("demo")
    at.multiselect(key="only_docs").set_value([doc.id]).run()
    at.text_input(key="question").input(Q)
    at.button(key="ask").click().run()
    assert _url(at)["only"] == doc.id
    again = opened(_url(at))  # a reload
    assert again.session_state["trace"].params.only_documents == (doc.id,)
    assert again.multiselect(key="only_docs").value == [doc.id]  # the Knobs show the run's filter
    assert not any("Stale" in m.value for m in again.markdown)

    at.button(key="pin_btn").click().run()  # compare with the filter taken off
    at.multiselect(key="only_docs").set_value([]).run()
    at.multiselect(key="exclude_docs").set_value([doc.id]).run()
    at.button(key="ask").click().run()
    url = _url(at)
    assert url["a_only"] == doc.id and url["not"] == doc.id and "only" not in url, url
    again = opened(url)
    a, b = again.session_state["pinned"], again.session_state["trace"]
    assert (a.params.only_documents, a.params.exclude_documents) == ((doc.id,), ())
    assert (b.params.only_documents, b.params.exclude_documents) == ((), (doc.id,))


def test_a_comparison_link_replays_the_kept_runs_without_calling_the_model(app_env, fresh_store, model):
    server, settings = model
    at = page("pages/ask.py")
    at.session_state["settings"] = settings
    at.text_input(key="question").input(Q)
    at.button(key="ask").click().run()
    at.button(key="pin_btn").click().run()
    at.radio(key="hops").set_value(2)
    at.button(key="ask").click().run()
    at.segmented_control(key="step_pick").set_value("rerank").run()
    assert not at.exception, at.exception
    calls, url = len(server.requests), _url(at)
    assert calls and url["a_hops"] == "1" and url["hops"] == "2"

    again = opened(url, settings)  # the same server: a reload, or a colleague opening the link
    assert len(server.requests) == calls  # no new model call
    a, b = again.session_state["pinned"], again.session_state["trace"]
    assert (a.params.hops, b.params.hops) == (1, 2) and again.session_state["step"] == "rerank"
    assert b.answer.text == at.session_state["trace"].answer.text and b.llm_calls  # the model's run, as it was
    assert a.passage_ids() == at.session_state["pinned"].passage_ids()


def test_a_link_the_server_did_not_keep_says_it_will_call_the_model_before_it_does(app_env, fresh_store, model):
    server, settings = model
    url = {"graph": "demo", "q": Q, "k_psg": "4", "a_q": Q, "a_k_psg": "3", "step": "answer"}
    at = opened(url, settings)
    assert not server.requests and "trace" not in at.session_state  # nothing run yet
    said = " ".join(i.value for i in at.info)
    assert "up to 4 calls" in said and "at most two per run" in said, said
    at.button(key="reopen_offline").click().run()
    assert not server.requests  # offline: no model call
    a, b = at.session_state["pinned"], at.session_state["trace"]
    assert (a.params.passage_top_k, b.params.passage_top_k) == (3, 4) and not a.llm_calls and not b.llm_calls

    again = opened(url | {"k_psg": "2", "a_k_psg": "1"}, settings)
    again.button(key="reopen_model").click().run()
    assert not again.exception, again.exception
    a, b = again.session_state["pinned"], again.session_state["trace"]
    assert a.llm_calls and b.llm_calls and len(a.llm_calls) <= 2 and len(b.llm_calls) <= 2
    assert len(server.requests) == len(a.llm_calls) + len(b.llm_calls) <= 4

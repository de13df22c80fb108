"""The server's part of stepping through a comparison, measured in-process (less sensitive to the machine's load
than a browser timing): the Ask page under AppTest on a temp Milvus Lite file with the demo graph; per demo
question Ask at Hops 1, Pin, Ask at Hops 2, then Next through the comparison's steps and, unpinned, Previous back
through the new run's — timing each step's script run (ScriptRunner._run_script). Each script is compiled once, as
the server does (AppTest compiles it on every run). With --profile, a cProfile of the comparison steps' runs.

Usage: python scripts/compare_step_server.py [--questions N] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--questions", type=int, default=8)
    ap.add_argument("--profile", action="store_true")
    a = ap.parse_args()
    from milvus_lite.server_manager import server_manager_instance
    from streamlit.runtime.scriptrunner import script_runner
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache
    from streamlit.testing.v1 import AppTest

    from vgrag import Settings, Workspace
    from vgrag.embed import MiniLMEmbedder

    os.chdir(ROOT)
    db = str(Path(tempfile.mkdtemp()) / "steps.db")
    os.environ["VGRAG_MILVUS_URI"] = db
    ws = Workspace.open(Settings(milvus_uri=db), MiniLMEmbedder())
    ws.import_triples(ROOT / "data/demo/northwind.jsonl", "demo")
    ws.close()
    server_manager_instance.release_server(db)

    compiled, compile_once = {}, ScriptCache.get_bytecode
    ScriptCache.get_bytecode = lambda self, p: compiled.get(p) or compiled.setdefault(p, compile_once(self, p))
    runs: list[float] = []
    prof, profiling = cProfile.Profile(), [False]
    run_script = script_runner.ScriptRunner._run_script

    def timed(self, *args, **kwargs):  # the script's thread: the profiler is enabled in it
        t = time.perf_counter()
        if profiling[0]:
            prof.enable()
        try:
            return run_script(self, *args, **kwargs)
        finally:
            if profiling[0]:
                prof.disable()
            runs.append((time.perf_counter() - t) * 1000)

    script_runner.ScriptRunner._run_script = timed
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["graph"] = at.session_state["select_graph"] = "demo"
    at.run()
    at.switch_page("pages/ask.py")
    at.run()
    compare_ms, plain_ms = [], []
    for q in json.loads((ROOT / "data/demo/questions.json").read_text())[: a.questions]:
        at.text_input(key="question").input(q)
        at.radio(key="hops").set_value(1)
        at.button(key="ask").click().run()
        at.button(key="pin_btn").click().run()
        at.radio(key="hops").set_value(2)
        at.button(key="ask").click().run()
        steps = len(at.segmented_control(key="step_pick").options)
        for _ in range(steps - 1):
            n, profiling[0] = len(runs), a.profile
            at.button(key="next").click().run()
            profiling[0] = False
            compare_ms.append(sum(runs[n:]))
        at.button(key="pin_btn").click().run()
        for _ in range(steps - 1):
            n = len(runs)
            at.button(key="prev").click().run()
            plain_ms.append(sum(runs[n:]))
        assert not at.exception, at.exception
    out = {
        "comparison_step_ms": {"median": round(statistics.median(compare_ms)), "max": round(max(compare_ms)),
                               "n": len(compare_ms)},
        "plain_step_ms": {"median": round(statistics.median(plain_ms)), "max": round(max(plain_ms))},
    }  # fmt: skip
    print(json.dumps(out, indent=1))
    if a.profile:
        text = io.StringIO()
        pstats.Stats(prof, stream=text).sort_stats("cumulative").print_stats(str(ROOT), 40)
        print(text.getvalue())


if __name__ == "__main__":
    main()

"""Evaluate reads no file through a link that leads out of the allowed folders (#34): `corpus.json` and
`questions.json` in an allowed folder that are symbolic links to files elsewhere are refused, not read."""

from __future__ import annotations

import shutil

from apptest import ROOT, page

SAMPLE = ROOT / "data" / "sample_bench"


def test_links_out_of_the_allowed_folder_are_not_followed(app_env, tmp_path, monkeypatch):  # noqa: ANN001
    allowed, outside = tmp_path / "allowed", tmp_path / "outside"
    shutil.copytree(SAMPLE, outside)
    (allowed / "b").mkdir(parents=True)
    monkeypatch.setenv("VGRAG_BENCH_DIRS", str(allowed))
    for f in outside.iterdir():
        (allowed / "b" / f.name).symlink_to(f)  # before: read through the links, run, questions shown
    at = page("pages/evaluate.py")
    at.text_input(key="bench_dir").input(str(allowed / "b"))
    at.number_input(key="bench_limit").set_value(1)
    at.multiselect(key="bench_methods").set_value(["graph"])
    at.checkbox(key="bench_answers").set_value(False)
    at.button(key="run_bench").click().run()
    assert not at.exception, at.exception
    assert "bench" not in at.session_state
    said = [e.value.replace("\\", "") for e in at.error]
    assert any("VGRAG_BENCH_DIRS" in e for e in said), said

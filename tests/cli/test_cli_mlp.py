"""A micrograd course user's first render: their own small MLP, with the default formats."""

from __future__ import annotations

from pathlib import Path

import pytest

from vizgrad import from_json
from vizgrad.export.batch import DEFAULT_FORMATS

MODEL = Path(__file__).resolve().parents[1] / "models" / "mg_model.py"


def test_the_course_mlp_renders_with_the_default_formats(run, tmp_path):
    pytest.importorskip("micrograd", reason="micrograd 0.1.0 is a test dependency")
    out = tmp_path / "out"
    run("render", f"{MODEL}:build", "--set", "n=1", "--out", str(out), "-q")
    folder = out / "mg_model"
    G = from_json((folder / "mg_model.json").read_text(encoding="utf-8"))
    assert G.number_of_nodes() == 132 and len(G.graph["steps"]) == 154
    assert DEFAULT_FORMATS == ("svg", "animated-svg", "gif", "json", "dot", "html")
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["mg_model.anim.svg", "mg_model.dot", "mg_model.gif", "mg_model.html",
                     "mg_model.json", "mg_model.svg", "steps"]
    # 132 values without groups (the net is made inside build()): the output's
    # neighbourhood, one step SVG per step of that smaller graph
    assert 0 < len(list((folder / "steps").glob("step-*.svg"))) < 154
    assert "of 132 values" in (folder / "mg_model.svg").read_text(encoding="utf-8")
    assert (folder / "mg_model.gif").read_bytes()[:6] == b"GIF89a"
    assert (folder / "mg_model.html").read_bytes().startswith(b"<!DOCTYPE html>")
    assert not [p for p in out.rglob(".*")]  # no temporary file left
    # the README's own single-file form
    page = tmp_path / "mg.html"
    run("render", f"{MODEL}:build", "-o", str(page), "-q")
    assert page.read_bytes() == (folder / "mg_model.html").read_bytes()

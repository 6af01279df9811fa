"""A huge label is cut at a documented limit in every medium, said so, and counted by the
budget, so a 1 MB graph JSON cannot take the machine (issue 31, item 1)."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time

import pytest

import vizgrad
from vizgrad import Value, examples, from_json, to_json
from vizgrad.core.labels import MAX_LABEL
from vizgrad.exceptions import ExpressionError, LabelCutWarning


def _huge_fork(tmp_path, size: int = 10 ** 6):
    doc = json.loads(to_json(examples.graph("fork")))
    doc["nodes"][0]["label"] = "a" * size  # the 5-node fork, 1 MB
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_the_limit_is_documented_and_200():
    assert MAX_LABEL == 200
    from pathlib import Path

    docs = Path(__file__).parents[2] / "docs" / "cli.md"
    assert "200 characters" in docs.read_text(encoding="utf-8").split("## Bounds")[1]


def test_the_huge_label_file_is_written_within_its_budget(tmp_path):
    path = _huge_fork(tmp_path)
    assert path.stat().st_size > 10 ** 6
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "vizgrad", "render", str(path), "--out",
                           str(tmp_path / "out"), "--max-bytes", "5M", "-q", "-j", "1"],
                          capture_output=True, text=True, timeout=120)
    took = time.monotonic() - start
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr
    written = sum(p.stat().st_size for p in (tmp_path / "out").rglob("*") if p.is_file()) \
        if (tmp_path / "out").exists() else 0
    assert written <= 5_000_000, written
    assert took < 30, took
    assert max(peak_kb, before) < 1_000_000, peak_kb  # kB: under 1 GB
    if proc.returncode == 0:
        assert "note: the label of v0 has 1,000,000 characters" in proc.stderr


def test_json_as_loaded_is_cut_and_said_so(tmp_path):
    path = _huge_fork(tmp_path, 5000)
    with pytest.warns(LabelCutWarning, match="the label of v0 has 5,000 characters"):
        G = from_json(path.read_bytes())
    label = G.nodes["v0"]["label"]
    assert len(label) == 201 and label.endswith("…") and label[:200] == "a" * 200


def test_draw_cuts_a_long_label_and_says_so():
    a = Value(2.0, label="x" * 5000)
    with pytest.warns(LabelCutWarning):
        svg = vizgrad.draw(a * 3).svg()
    assert "x" * 200 + "…" in svg and "x" * 201 not in svg


def test_an_expression_refuses_a_longer_name():
    long = "v" * 201
    with pytest.raises(ExpressionError, match="has 201 characters; a name has at most 200"):
        vizgrad.parse(f"{long} * 2", **{long: 1.0})


def test_the_budget_counts_the_text():
    from vizgrad.export.budget import estimate, text_size

    doc = json.loads(to_json(examples.graph("fork")))
    plain = from_json(json.dumps(doc))
    doc["nodes"][0]["label"] = "a" * 200
    labelled = from_json(json.dumps(doc))
    assert text_size(plain) == 0 and text_size(labelled) == 4 * 200
    kinds = ["svg", "steps", "json"]
    assert (estimate(5, 8, kinds, text=text_size(labelled)).bytes
            - estimate(5, 8, kinds).bytes) == (1 + 8 + 1) * 4 * 200

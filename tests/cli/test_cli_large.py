"""``vizgrad render`` of a 50,000-value graph with no options: it succeeds within the budgets."""

from __future__ import annotations

import json

import pytest

LARGE = """
    import random

    from vizgrad import Value

    def build(n=50_000):
        rng = random.Random(7)
        terms = (int(n) - 1) // 4  # x, w, x * w and the running sum: 4 values a term
        total = Value(0.0, label="c")
        for i in range(terms):
            x = Value(rng.uniform(-1, 1), label=f"x{i}")
            w = Value(rng.uniform(-1, 1), label=f"w{i}")
            total = total + x * w
        total.backward()
        return total
"""


@pytest.mark.slow
def test_a_50000_value_graph_renders_with_the_default_formats(run, model, tmp_path):
    out = tmp_path / "out"
    run("render", f"{model(LARGE, 'large.py')}:build", "--out", str(out), "-q")
    folder = out / "large"
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["large.anim.svg", "large.dot", "large.gif", "large.html", "large.json",
                     "large.svg", "steps"]
    graph = json.loads((folder / "large.json").read_text(encoding="utf-8"))
    assert len(graph["nodes"]) == 49_997  # the graph given, whole
    steps = list((folder / "steps").glob("step-*.svg"))
    assert 0 < len(steps) <= 200  # the picture drawn is collapsed: a step SVG per its step
    written = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    assert written <= 200_000_000  # the default --max-bytes

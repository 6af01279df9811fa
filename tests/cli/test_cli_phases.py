"""``vizgrad render MODEL.py -o FILE``: the progress bar of one picture's phases (trace,
collapse, layout, write) on stderr, and the overview of a graph past --max-nodes drawn from
its trace's columns as the full graph would be drawn."""

from __future__ import annotations

from vizgrad.graph.lite import LiteGraph
from vizgrad.cli.targets import graph_of

CHAIN = """
    from vizgrad import Value

    def build(n=2500):
        v = Value(0.5, label="x")
        for _ in range(int(n) - 1):
            v = v.tanh()
        v.backward()
        return v
"""

PHASES = ["trace (1/4)", "collapse (2/4)", "layout (3/4)", "write (4/4)"]


def test_the_phases_appear_in_order_then_the_summary(run, model, tmp_path):
    out = tmp_path / "chain.svg"
    res = run("render", str(model(CHAIN)), "-o", str(out))
    lines = res.stderr.splitlines()
    assert [ln for ln in lines if ln in PHASES] == PHASES  # each once, in order
    assert lines[-1] == f"wrote {out}" and lines.index(PHASES[-1]) < len(lines) - 1
    assert out.read_text(encoding="utf-8").startswith("<?xml")


def test_quiet_silences_the_phases(run, model, tmp_path):
    res = run("render", str(model(CHAIN)), "-o", str(tmp_path / "chain.svg"), "--quiet")
    assert res.stderr == ""
    assert (tmp_path / "chain.svg").exists()


def test_a_small_graph_has_the_same_phases(run, tmp_path):
    res = run("render", "fork", "-o", str(tmp_path / "fork.dot"))
    assert [ln for ln in res.stderr.splitlines() if ln in PHASES] == PHASES


def test_an_animation_keeps_its_bar_of_frames(run, tmp_path):
    res = run("render", "fork", "-o", str(tmp_path / "fork.gif"))
    assert "rendering frames" in res.stderr
    assert not any(p in res.stderr for p in PHASES)


def test_the_overview_from_the_columns_is_the_full_graphs(run, model, tmp_path):
    """The model file's graph (past --max-nodes: read from its trace's columns) and the
    same graph saved as JSON (read into networkx, collapsed as always) draw the same SVG."""
    path = model(CHAIN)
    assert isinstance(graph_of(str(path), {})[1], LiteGraph)  # 2,500 values > 2,000
    run("render", str(path), "-o", str(tmp_path / "chain.json"), "-q")
    run("render", str(path), "-o", str(tmp_path / "a.svg"), "-q")
    run("render", str(tmp_path / "chain.json"), "-o", str(tmp_path / "b.svg"), "-q")
    a = (tmp_path / "a.svg").read_text(encoding="utf-8")
    assert "collapsed automatically" in a
    assert a == (tmp_path / "b.svg").read_text(encoding="utf-8")

"""``vizgrad render`` pauses the garbage collector while it builds its graphs and freezes them
while it draws, and gives the collector back as it found it on every way out (issue 22)."""

from __future__ import annotations

import gc

from vizgrad.cli import targets as _targets


def _spy(monkeypatch, seen):
    real_expr, real_graph = _targets.expr_graph, _targets.graph_of

    def expr_graph(*args):
        seen.append(("build", gc.isenabled(), gc.get_freeze_count()))
        return real_expr(*args)

    def graph_of(*args):
        seen.append(("build", gc.isenabled(), gc.get_freeze_count()))
        return real_graph(*args)

    monkeypatch.setattr(_targets, "expr_graph", expr_graph)
    monkeypatch.setattr(_targets, "graph_of", graph_of)


def test_render_builds_with_the_collector_paused_and_draws_with_the_graph_frozen(
        run, tmp_path, monkeypatch):
    seen = []
    _spy(monkeypatch, seen)
    import vizgrad.export.batch as gallery

    real_write = gallery.write_one

    def write_one(*args, **kwargs):
        seen.append(("draw", gc.isenabled(), gc.get_freeze_count() > 0))
        return real_write(*args, **kwargs)

    monkeypatch.setattr(gallery, "write_one", write_one)
    run("render", "--expr", "(a*b)*(a+b)", "--set", "a=-2", "--set", "b=3",
        "-o", str(tmp_path / "q.svg"))
    assert seen == [("build", False, 0), ("draw", True, True)]
    assert gc.isenabled() and gc.get_freeze_count() == 0
    assert (tmp_path / "q.svg").read_text(encoding="utf-8").startswith("<?xml")


def test_the_collector_comes_back_after_an_error_while_building(run, tmp_path, monkeypatch):
    seen = []
    _spy(monkeypatch, seen)
    res = run("render", "--expr", "(a*b", "-o", str(tmp_path / "q.svg"), code=2)
    assert "--expr" in res.output
    assert seen == [("build", False, 0)]
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_the_collector_comes_back_after_an_error_while_writing(run, tmp_path):
    res = run("render", "fork", "sum-square", "-o", str(tmp_path / "q.svg"), code=2)
    assert "-o writes one file" in res.output
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_tracing_in_a_program_never_touches_the_collector():
    from vizgrad import Value, to_networkx, trace

    gc.disable()
    try:
        x = Value(0.5)
        for _ in range(2000):
            x = (x * 0.9).tanh()
        to_networkx(trace(x))
        assert not gc.isenabled() and gc.get_freeze_count() == 0  # left disabled, as set
    finally:
        gc.enable()
    to_networkx(trace(x))
    assert gc.isenabled() and gc.get_freeze_count() == 0

"""The batch export behind ``vizgrad render``: formats, atomic writes, pruning, planning."""

from __future__ import annotations

import os
import stat

import pytest

from vizgrad import examples
from vizgrad.export import batch as gallery
from vizgrad.exceptions import GraphTooLargeError, OptionError
from vizgrad.export.batch import (Job, Options, example_jobs, export, parse_formats, plan,
                                  write_atomic)
from vizgrad.options import Options as DrawOptions


def test_parse_formats():
    assert parse_formats("svg,GIF, html") == ("svg", "gif", "html")
    assert parse_formats("svg,svg") == ("svg",)
    assert parse_formats(["json"]) == ("json",)
    for bad in ("jpg", "", ","):
        with pytest.raises(OptionError, match="svg, gif, png, mp4, json, dot, html"):
            parse_formats(bad)


def test_write_atomic_replaces_whole_files_and_skips_equal_ones(tmp_path):
    path = tmp_path / "sub" / "a.txt"
    assert write_atomic(path, b"one") is True
    assert write_atomic(path, b"one") is False
    assert write_atomic(path, b"two") is True
    assert path.read_bytes() == b"two"
    assert [p.name for p in path.parent.iterdir()] == ["a.txt"]
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask  # not mkstemp's 0600


def test_an_interrupted_write_keeps_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "a.txt"
    write_atomic(path, b"old")

    def interrupted(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(path, b"new")
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]


def test_steps_left_by_a_longer_graph_are_removed(tmp_path):
    (tmp_path / "fork" / "steps").mkdir(parents=True)
    stale = tmp_path / "fork" / "steps" / "step-42.svg"
    stale.write_text("<svg/>", encoding="utf-8")
    keep = tmp_path / "fork" / "steps" / "notes.txt"
    keep.write_text("mine", encoding="utf-8")
    report = export(example_jobs(["fork"]), tmp_path, Options(formats=("svg",)), workers=1)
    assert not stale.exists() and keep.exists()
    assert report.files == ["fork/fork.svg"] + [f"fork/steps/step-0{k}.svg" for k in range(8)]


def test_plan_puts_big_graphs_and_animations_first():
    jobs = example_jobs(["shared-node", "softmax-nll"])
    tasks = [(kind, job.name) for kind, job in plan(jobs, Options(frames=True))]
    assert tasks[0] == ("gif", "softmax-nll")
    assert sorted(tasks) == sorted((k, n) for n in ("shared-node", "softmax-nll")
                                   for k in ("pictures", "gif", "frames"))
    assert [k for k, _ in plan(jobs, Options(formats=("json",)))] == ["pictures", "pictures"]


def test_options_are_checked_before_any_work(tmp_path):
    G = examples.graph("fork")
    with pytest.raises(OptionError, match="same folder"):
        export([Job("x", G), Job("x", G)], tmp_path)
    with pytest.raises(OptionError, match="rankdir"):
        export([Job("x", G)], tmp_path, Options(drawing=DrawOptions(rankdir="RL")))
    with pytest.raises(OptionError, match="0..7"):
        export([Job("x", G)], tmp_path, Options(step=8))
    assert list(tmp_path.iterdir()) == []


def test_progress_is_reported_per_task(tmp_path):
    seen: list[str] = []
    export(example_jobs(["fork", "sum-square"]), tmp_path, Options(formats=("json",)), workers=1,
           on_done=seen.append)
    assert sorted(seen) == ["fork pictures", "sum-square pictures"]


def test_write_one_checks_the_suffix(tmp_path):
    with pytest.raises(OptionError, match=r"\.svg"):
        gallery.write_one(examples.graph("fork"), tmp_path / "q.bmp")


def _broken_fork():
    """The fork graph with a last step that names a node the graph lacks: drawing it fails."""
    G = examples.graph("fork")
    G.graph["steps"] = [*G.graph["steps"], {
        "index": 8, "kind": "backward", "node": "v4", "upstream": 1.0,
        "contributions": [{"source": "v4", "target": "gone", "slot": 0, "local": 1.0,
                           "upstream": 1.0, "amount": 1.0, "before": 0.0, "after": 1.0}]}]
    return G


def test_a_failing_worker_stops_the_batch_and_leaves_no_temporary_file(tmp_path):
    from vizgrad import Value, to_networkx

    x = Value(1.0, label="x")
    for _ in range(60):
        x = x + 1.0
    # two workers: one writes the big graph's GIF (a temporary file from its first frame)
    # while the other fails on the broken graph and the batch is stopped
    jobs = [Job("big", to_networkx(x)), Job("broken", _broken_fork())]
    with pytest.raises(Exception, match="gone"):
        export(jobs, tmp_path, Options(formats=("svg", "gif")), workers=2)
    assert [p.relative_to(tmp_path) for p in tmp_path.rglob(".*")] == []


def test_a_failure_in_one_process_leaves_no_temporary_file(tmp_path):
    jobs = [Job("broken", _broken_fork())]
    with pytest.raises(Exception, match="gone"):
        export(jobs, tmp_path, Options(formats=("svg", "gif")), workers=1)
    assert [p.relative_to(tmp_path) for p in tmp_path.rglob(".*")] == []


def test_temporary_files_a_stopped_task_could_not_remove_are_swept_after_a_failure(
        tmp_path, monkeypatch):
    # a worker stopped twice (SIGTERM while it unwinds) leaves its temporary file: the
    # export removes it once the workers are gone
    def stopped(job, folder, opts):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f".{job.name}.kt9cfqn7.gif").write_bytes(b"")
        (folder / f".{job.name}.gif.a1b2c3d4.tmp").write_bytes(b"")
        raise KeyboardInterrupt

    monkeypatch.setitem(gallery.TASKS, "gif", stopped)
    with pytest.raises(KeyboardInterrupt):
        export(example_jobs(["fork"]), tmp_path, Options(formats=("gif",)), workers=1)
    assert [p.relative_to(tmp_path) for p in tmp_path.rglob(".*")] == []


def test_every_limit_is_checked_before_anything_is_written(tmp_path, monkeypatch):
    from vizgrad import Value, to_networkx
    from vizgrad.exceptions import GraphTooLargeError, RenderError

    x = Value(1.0, label="x")
    for _ in range(40):
        x = x + 1.0
    G = to_networkx(x)  # 81 values, 82 steps
    fork = [Job("fork", examples.graph("fork"))]
    cases = [
        (Options(drawing=DrawOptions(max_nodes=80, collapse=False)),
         "81 values, more than --max-nodes 80.*--max-nodes 81"),
        (Options(max_cells=6641),
         "6,642 node states, more than --max-cells 6,641.*--max-cells 6642"),
        (Options(max_bytes=1_000_000), r"write about \d+ MB \(step SVGs .*--max-bytes \d"),
        (Options(max_seconds=1.0), r"take about \d+ s .*--max-seconds \d"),
    ]
    for opts, message in cases:
        with pytest.raises(GraphTooLargeError, match=message):
            export([Job("x", G), *fork], tmp_path, opts)
    gallery.write_one(G, tmp_path / "x.json", Options(max_bytes=1_000_000))  # a small format
    with pytest.raises(GraphTooLargeError, match="--max-bytes"):
        gallery.write_one(G, tmp_path / "x.gif", Options(max_bytes=1_000_000))
    assert [p.name for p in tmp_path.iterdir()] == ["x.json"]
    shown = gallery.resolve(Job("x", G), Options(drawing=DrawOptions(max_nodes=80)))  # collapsed
    assert 1 < shown.graph.number_of_nodes() <= 60 and shown.source is G


def test_temporary_files_of_a_killed_run_are_swept(tmp_path):
    folder = tmp_path / "fork"
    (folder / "steps").mkdir(parents=True)
    left = [folder / ".fork.k2j_9xq1.gif", folder / ".fork.svg.abcd1234.tmp",
            folder / "steps" / ".step-03.svg.zz99yy88.tmp"]
    for p in left:
        p.write_bytes(b"")
    mine = folder / ".notes"
    mine.write_text("keep", encoding="utf-8")
    export(example_jobs(["fork"]), tmp_path, Options(formats=("json",)), workers=1)
    assert not any(p.exists() for p in left) and mine.exists()


@pytest.mark.parametrize("workers", [1, 2])
def test_progress_counts_every_picture_and_frame(tmp_path, workers):
    jobs = example_jobs(["fork", "shared-node"])
    opts = Options(formats=("svg", "animated-svg", "gif", "html"), frames=True)
    counts: list[int] = []
    export(jobs, tmp_path, opts, workers=workers, on_step=counts.append)
    # per graph and step: a step SVG, an animated SVG's step, a player step, a GIF frame
    # and a PNG frame (+ 2: every GIF ends on the final view)
    assert sum(counts) == gallery.units(jobs, opts) == 5 * (8 + 4) + 2
    if workers == 1:
        assert counts.count(1) >= 3 * 12


def test_the_player_is_budgeted_by_the_player_modules_own_figures(monkeypatch):
    from vizgrad.exceptions import GraphTooLargeError
    from vizgrad.player import page as html

    jobs = example_jobs(["softmax-nll"])
    steps = len(jobs[0].graph.graph["steps"])
    opts = Options(formats=("html",), max_bytes=1_000_000, max_seconds=2.0)  # 1 MB, 2 s
    monkeypatch.setattr(html, "estimate", lambda n, steps, groups: (1_000, 0.5))
    assert gallery.units(jobs, opts) == steps
    monkeypatch.setattr(html, "estimate", lambda n, steps, groups: (30_000_000, 0.5))
    with pytest.raises(GraphTooLargeError, match=r"about 30 MB \(step player 30 MB\)"):
        gallery.units(jobs, opts)
    monkeypatch.setattr(html, "estimate", lambda n, steps, groups: (1_000, 50.0))
    with pytest.raises(GraphTooLargeError, match=r"about 50 s"):
        gallery.units(jobs, opts)


@pytest.mark.parametrize("name", ["shared-node", "fork", "softmax-nll", "mlp"])
def test_the_budget_of_a_player_page_is_an_upper_bound(tmp_path, name):
    from vizgrad.export import budget as _budget
    from vizgrad.player import page as html

    (job,) = example_jobs([name])
    export([job], tmp_path, Options(formats=("html",)), workers=1)
    size = (tmp_path / name / f"{name}.html").stat().st_size
    G = job.graph
    estimate = _budget.estimate(G.number_of_nodes(), len(G.graph["steps"]), ["html"],
                                player=html.estimate)
    assert size <= estimate.bytes <= 2 * size  # the player alone: no SVG is written


def test_an_estimate_of_the_player_needs_the_players_own_figures():
    from vizgrad.export import budget as _budget

    with pytest.raises(TypeError, match="player=vizgrad.player.page.estimate"):
        _budget.estimate(5, 8, ["html"])


@pytest.mark.parametrize("name", ["shared-node", "fork", "softmax-nll"])
def test_the_budget_of_an_animated_svg_is_an_upper_bound(tmp_path, name):
    from vizgrad.export import budget as _budget

    (job,) = example_jobs([name])
    report = export([job], tmp_path, Options(formats=("animated-svg",)), workers=1)
    assert report.files == [f"{name}/{name}.anim.svg"]
    size = (tmp_path / name / f"{name}.anim.svg").stat().st_size
    G = job.graph
    estimate = _budget.estimate(G.number_of_nodes(), len(G.graph["steps"]), ["animated-svg"])
    assert size <= estimate.bytes <= 3 * size
    with pytest.raises(GraphTooLargeError, match=r"\(animated SVG \d+ kB\)"):
        gallery.units([job], Options(formats=("animated-svg",), max_bytes=size // 2))

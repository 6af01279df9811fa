"""Each picture is laid out once: the DOT strings handed to Graphviz are counted.

``vizgrad render fork -o fork.svg`` used to lay out twice (once to choose the picture and
measure it, once more to write it) and ``draw(...).save()`` once; both lay out once now.
The count is taken where every layout goes, :func:`vizgrad.scene.layout.run.run_layout`.
"""

from __future__ import annotations

import pytest

import vizgrad
import vizgrad.scene.layout.run as layout_run
from vizgrad import examples


def test_render_fork_to_one_svg_lays_out_once(run, tmp_path, layouts):
    run("render", "fork", "-o", str(tmp_path / "fork.svg"))
    assert (tmp_path / "fork.svg").read_text(encoding="utf-8").startswith("<?xml")
    assert len(layouts) == 1 and "digraph" in layouts[0]


# before: 2, 2 and 3; the player page lays out its own scene (of the graph as given, whose
# groups it can open), so ``.html`` still counts the picture chosen plus the player's
@pytest.mark.parametrize("suffix, expected", [("dot", 1), ("anim.svg", 1), ("html", 2)])
def test_other_single_files_of_fork_lay_out_once_each(run, tmp_path, layouts, suffix, expected):
    run("render", "fork", "-o", str(tmp_path / f"fork.{suffix}"))
    assert len(layouts) == expected


def test_draw_save_lays_out_once(tmp_path, layouts):
    vizgrad.draw(examples.graph("fork")).save(tmp_path / "fork.svg")
    assert len(layouts) == 1


def test_a_drawing_at_every_step_reuses_its_one_layout(tmp_path, layouts):
    d = vizgrad.draw(examples.graph("fork"))
    svgs = {d.at(k).svg() for k in range(8)}
    assert len(svgs) == 8 and len(layouts) == 1


@pytest.fixture
def graphviz_runs(monkeypatch) -> list[tuple[str, str]]:
    """Each time Graphviz itself runs (a layout answered from a reused one does not count)."""
    seen: list[tuple[str, str]] = []
    real = layout_run.render_embedded

    def counted(dot: str, fmt: str, timeout: float) -> bytes:
        seen.append((dot, fmt))
        return real(dot, fmt, timeout)

    monkeypatch.setattr(layout_run, "render_embedded", counted)
    monkeypatch.setenv("VIZGRAD_LAYOUT", "embedded")
    return seen


def test_a_batch_export_of_fork_runs_graphviz_once(tmp_path, graphviz_runs):
    """svg, steps, animated svg, dot, json, html and gif: one layout (before: four)."""
    from vizgrad.export.batch import example_jobs, export

    report = export(example_jobs(["fork"]), tmp_path, workers=1)
    assert "fork/fork.gif" in report.files and "fork/fork.html" in report.files
    assert len(graphviz_runs) == 1


def test_a_worker_writes_from_the_parents_layouts(tmp_path, graphviz_runs):
    """A worker process gets the job pickled: without the scene, with the layouts resolve ran;
    its tasks run no Graphviz (before: the pictures task two layouts, the gif one)."""
    import pickle

    from vizgrad.export.batch import TASKS, example_jobs
    from vizgrad.export.jobs import Options, resolve

    job = resolve(example_jobs(["fork"])[0], Options())
    assert len(graphviz_runs) == 1
    moved = pickle.loads(pickle.dumps(job))
    assert moved.laid_out is None and len(moved.layouts) == 1
    for kind in ("pictures", "gif"):
        TASKS[kind](moved, tmp_path / "fork", Options())
    assert len(graphviz_runs) == 1


def test_a_reused_layout_is_the_same_bytes(graphviz_runs):
    dot = "digraph { a -> b }"
    with layout_run.recording() as made:
        first = layout_run.run_layout(dot, "json0")
    with layout_run.reusing(made):
        again = layout_run.run_layout(dot, "json0")
    assert again == first and len(graphviz_runs) == 1
    assert layout_run.run_layout(dot, "json0") == first and len(graphviz_runs) == 2  # outside


def test_render_fork_to_one_svg_builds_its_options_once(run, tmp_path, monkeypatch):
    """The command builds one :class:`vizgrad.options.Options` (before: four), and no
    writer builds another to draw the graph it laid out."""
    import vizgrad.export.jobs  # noqa: F401  (its default Options is made at import)
    from vizgrad.options import Options

    made = []
    real = Options.__post_init__

    def counted(self):
        made.append(self)
        return real(self)

    monkeypatch.setattr(Options, "__post_init__", counted)
    run("render", "fork", "-o", str(tmp_path / "fork.svg"))
    assert len(made) == 1


def test_a_batch_with_its_progress_bar_lays_out_once(run, tmp_path, layouts):
    """The bar's length and the export share one resolve (before: each laid fork out)."""
    run("render", "fork", "--format", "svg", "--jobs", "1", "--out", str(tmp_path))
    assert (tmp_path / "fork" / "fork.svg").exists()
    assert len(layouts) == 1

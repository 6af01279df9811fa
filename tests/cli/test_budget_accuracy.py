"""The budget's estimates are within 2× of what an export then writes, format by format, on
three graph sizes: fork (5 values), tanh-native (10) and the lecture's MLP collapsed by neuron
(394 values in 10 boxes and 12 inputs, tests/models/course.py)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from vizgrad import examples
from vizgrad.export import batch as gallery
from vizgrad.export.batch import DEFAULT_FORMATS, Job, Options, export, resolve

COURSE = Path(__file__).resolve().parents[1] / "models" / "course.py"


def _graph(name):
    if name != "course":
        return examples.graph(name)
    pytest.importorskip("micrograd", reason="micrograd 0.1.0 is a test dependency")
    from vizgrad.cli.targets import graph_of

    return graph_of(f"{COURSE}:build", {})[1]


def _written(folder: Path, name: str) -> dict[str, int]:
    """Bytes written per kind of file."""
    size = {p.name: p.stat().st_size for p in folder.iterdir() if p.is_file()}
    return {"svg": size[f"{name}.svg"],
            "steps": sum(p.stat().st_size for p in (folder / "steps").glob("step-*.svg")),
            "animated-svg": size[f"{name}.anim.svg"], "gif": size[f"{name}.gif"],
            "html": size[f"{name}.html"], "json": size[f"{name}.json"],
            "dot": size[f"{name}.dot"]}


def _estimated(job: Job, opts: Options) -> dict[str, int]:
    """The budget check's estimate per kind of file, as the export checks it."""
    def check(j, formats):
        return gallery._check([j], replace(opts, formats=formats)).bytes

    one = replace(job, steps=False)
    out = {f: check(one, (f,)) for f in ("svg", "animated-svg", "gif", "html", "json", "dot")}
    out["steps"] = check(job, ("svg",)) - out["svg"]
    return out


@pytest.mark.parametrize("name", ["fork", "tanh-native", "course"])
def test_every_estimate_is_within_2x_of_what_is_written(tmp_path, name):
    opts = Options()
    assert opts.formats == DEFAULT_FORMATS
    job = resolve(Job(name, _graph(name)), opts)
    export([job], tmp_path, opts, workers=1)
    written = _written(tmp_path / name, name)
    estimated = _estimated(job, opts)
    assert set(written) == set(estimated)
    ratios = {k: estimated[k] / written[k] for k in written}
    assert all(0.5 <= r <= 2 for r in ratios.values()), ratios
    if name == "course":  # drawn by neuron: far fewer step SVGs than the 602 steps given
        # 10 boxes (9 neurons, the loss) and one box of the 12 inputs x[s][i] of 4 samples
        assert job.source.number_of_nodes() == 394 and job.graph.number_of_nodes() == 11
        assert len(list((tmp_path / name / "steps").iterdir())) < 602 / 10

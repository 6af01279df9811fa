"""``vizgrad render`` limits, budgets and error texts: checked before anything is written."""

from __future__ import annotations

import errno
import os
import xml.etree.ElementTree as ET

import pytest

from vizgrad.export import batch as gallery
from vizgrad.export.budget import MAX_CELLS
from vizgrad.scene.layout.run import DEFAULT_TIMEOUT
from vizgrad.write.svg import DEFAULT_MAX_NODES

SVG = "{http://www.w3.org/2000/svg}"

SUM = """
    from vizgrad import Value

    def build(n=3):
        terms = [Value(float(i), label=f"x{i}") for i in range(int(n))]
        total = sum(terms[1:], terms[0])
        total.backward()
        return total
"""


def _files(folder):
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")) if folder.exists() else []


def test_help_names_every_limit_with_its_default_and_every_suffix(run):
    out = " ".join(run("render", "--help").output.split())
    for option in ("--max-nodes", "--max-cells", "--timeout", "--max-bytes", "--max-seconds"):
        assert option in out
    assert f"default: {DEFAULT_MAX_NODES}" in out and f"default: {MAX_CELLS}" in out
    assert f"default: {DEFAULT_TIMEOUT}" in out and "default: 200M" in out
    suffixes = " ".join("." + f for f in gallery.SINGLE_FILE_FORMATS)
    assert out.count(suffixes) == 1  # the -o help lists them all


def test_a_big_sum_is_refused_at_once_with_the_estimate_and_the_option(run, model, tmp_path):
    path = model(SUM)
    out = run("render", f"{path}:build", "--set", "n=1000", "--out", str(tmp_path / "out"),
              "--format", "svg", "--collapse", "none", code=1).output
    # 1,999 values and 2,000 steps: about 4 MB per step SVG (2 kB per value)
    assert "would write about 8.0 GB (step SVGs 8.0 GB, SVG 4.0 MB)" in out
    assert "more than --max-bytes 200 MB" in out and "--max-bytes 8.1G" in out
    assert "--collapse" in out and "--focus NODE" in out and "--model NAME" in out
    assert not (tmp_path / "out").exists()


def test_every_limit_named_in_an_error_is_an_option_that_lifts_it(run, model, tmp_path):
    path = f"{model(SUM)}:build"
    cases = [
        (["--set", "n=6", "--max-nodes", "10"], "--max-nodes 11"),
        (["--set", "n=6", "--format", "html", "--max-cells", "100"], "--max-cells 132"),
        (["--set", "n=6", "--format", "svg", "--max-bytes", "100k"], "--max-bytes "),
        (["--set", "n=6", "--format", "svg", "--max-seconds", "0.1"], "--max-seconds 1"),
    ]
    for i, (args, lift) in enumerate(cases):
        out_dir = tmp_path / f"out{i}"
        out = run("render", path, *args, "--out", str(out_dir), "-q", code=1).output
        assert lift in out
        assert not out_dir.exists()
        suggested = out[out.rindex(lift):].split()[1]  # the value "pass ..." names
        option = lift.split()[0]
        rest = [a for i, a in enumerate(args) if a != option and (i == 0 or args[i - 1] != option)]
        run("render", path, *rest, option, suggested, "--format", "json", "--out", str(out_dir),
            "-q")


@pytest.mark.parametrize("size", ["", "abc", "0", "-5M", "1X"])
def test_a_bad_max_bytes_is_a_usage_error(run, size):
    out = run("render", "fork", "--max-bytes", size, code=2).output
    assert "'--max-bytes'" in out


def test_timeout_reaches_the_layout(run, tmp_path, monkeypatch):
    from vizgrad.scene import make as scene

    seen = []
    real = scene.run_layout

    def spy(dot, fmt="svg", backend=None, timeout=60.0):
        seen.append(timeout)
        return real(dot, fmt, backend, timeout)

    monkeypatch.setattr(scene, "run_layout", spy)
    run("render", "fork", "--timeout", "7.5", "-o", str(tmp_path / "f.svg"))
    assert seen and set(seen) == {7.5}  # the budget's layout and the picture's
    run("render", "fork", "--timeout", "0", code=2)


def test_mp4_without_ffmpeg_is_refused_before_any_folder_is_made(run, tmp_path, monkeypatch):
    from vizgrad.write.raster import frames

    monkeypatch.setattr(frames, "find_ffmpeg", lambda: None)
    out = run("render", "fork", "--format", "mp4", "--out", str(tmp_path / "out"), code=1).output
    assert "pip install 'vizgrad[mp4]'" in out
    assert not (tmp_path / "out").exists()
    run("render", "fork", "-o", str(tmp_path / "f.mp4"), code=1)
    assert list(tmp_path.iterdir()) == []


# -- names and error texts ----------------------------------------------------------

def test_the_expression_output_is_named_as_in_the_lab(run, tmp_path):
    from vizgrad.lab._requests import Limits, Query
    from vizgrad.lab._service import build_graph

    out = tmp_path / "q.svg"
    run("render", "--expr", "(a*b)*(a+b)", "--set", "a=-2", "--set", "b=3", "-o", str(out))
    root = ET.parse(out).getroot()
    text = " ".join("".join(el.itertext()) for el in root.iter(f"{SVG}text"))
    assert "∂f/∂a" in root.findtext(f"{SVG}desc") + text and "∂v4" not in text
    lab = build_graph(Query(expression="(a*b)*(a+b)", values={"a": -2, "b": 3}), Limits())
    assert lab.nodes[lab.graph["root"]]["label"] == "f"
    run("render", "--expr", "(a*b)*(a+b)", "--set", "a=-2", "--set", "b=3", "-o",
        str(tmp_path / "q.json"))
    cli = gallery_graph(tmp_path / "q.json")
    assert [cli.nodes[n]["label"] for n in cli] == [lab.nodes[n]["label"] for n in lab]


def gallery_graph(path):
    from vizgrad import from_json

    return from_json(path.read_text(encoding="utf-8"))


def test_a_value_outside_the_domain_blames_set(run, tmp_path):
    out = run("render", "--expr", "log(a)", "--set", "a=-1", "-o", str(tmp_path / "q.svg"),
              code=2).output
    assert "Invalid value for '--set'" in out and "log is only defined for x > 0" in out


def test_a_step_out_of_range_names_the_graph_not_the_file(run, tmp_path):
    out = run("render", "fork", "--step", "99", "-o", str(tmp_path / "other.svg"), code=2).output
    assert "out of range for fork" in out and "0..7" in out and "other" not in out


def test_a_write_error_names_the_target(run, tmp_path, monkeypatch):
    def full(src, dst):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    target = tmp_path / "fork.svg"
    out = run("render", "fork", "-o", str(target), code=1).output
    assert f"cannot write {target}: No space left on device" in out
    assert list(tmp_path.iterdir()) == []  # and the temporary file is gone


def test_a_file_where_a_folder_should_be(run, tmp_path):
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    out = run("render", "fork", "-o", str(tmp_path / "afile" / "x.svg"), code=1).output
    assert f"{tmp_path / 'afile'} is a file, not a folder" in out


def test_stale_temporary_files_of_a_target_are_removed_on_rerun(run, tmp_path):
    stale = [tmp_path / ".q.svg.ab12cd34.tmp", tmp_path / ".q.zz99yy88.svg"]
    other = [tmp_path / ".other.svg.ab12cd34.tmp", tmp_path / ".q.notes"]
    for p in stale + other:
        p.write_bytes(b"")
    run("render", "fork", "-o", str(tmp_path / "q.svg"))
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.svg.ab12cd34.tmp", ".q.notes",
                                                          "q.svg"]


def test_check_notes_only_unused_values(run):
    res = run("check", "--expr", "a", "--set", "a=2")
    assert "not used" not in res.stderr
    res = run("check", "--expr", "a*2", "--set", "a=2", "--set", "c=1")
    assert "note: --set c: not used by the expression" in res.stderr


def test_check_refuses_an_overflowing_value_and_reports_an_overflowing_grad(run):
    out = run("check", "--expr", "a*b", "--set", "a=1e200", "--set", "b=1e200", code=2).output
    assert "'--set'" in out and "(1e+200) * (1e+200) overflows a float" in out
    # the values fit (1e300), the grad of a does not (1e600): no table, the overflow named
    out = run("check", "--expr", "a*1e300*1e300", "--set", "a=1e-300", code=1).output
    assert "the graph overflowed: the grad of a is inf" in out and "abs error" not in out


def test_a_flat_sum_and_look_alike_names_on_the_command_line(run, tmp_path):
    res = run("check", "--expr", "+".join(["a"] * 249), "--set", "a=1")
    assert "= 249;" in res.output
    out = run("check", "--expr", "ａ*2", "--set", "a=1", code=2).output
    assert "'ａ' would be read as 'a'" in out
    out = run("check", "--expr", "a*2", "--set", "ａ=1", code=2).output
    assert "'--set'" in out and "reads the name 'ａ' as 'a'" in out


def test_a_layout_timeout_names_the_option(run, tmp_path, monkeypatch):
    from vizgrad.exceptions import LayoutTimeoutError
    from vizgrad.scene import make as scene

    def slow(*args, **kwargs):
        raise LayoutTimeoutError("the Graphviz layout ran longer than 0.5 s and was stopped")

    monkeypatch.setattr(scene, "run_layout", slow)
    out = run("render", "fork", "--timeout", "0.5", "-o", str(tmp_path / "f.svg"), code=1).output
    assert "ran longer than 0.5 s" in out and "--timeout SECONDS" in out

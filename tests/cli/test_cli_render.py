"""``vizgrad render``: batch exports, single files, options and every error path."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from vizgrad import examples, from_json
from vizgrad.write.svg import draw

SVG = "{http://www.w3.org/2000/svg}"
QUICK = "svg,json,dot,html"  # no GIF: keeps the tests fast (the GIF has its own tests)


def _texts(path: Path) -> list[str]:
    root = ET.parse(path).getroot()
    return ["".join(el.itertext()) for el in root.iter(f"{SVG}text")]


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


# -- batch exports ------------------------------------------------------------

def test_render_one_example_writes_every_default_format(run, tmp_path):
    res = run("render", "shared-node", "--out", str(tmp_path), "--jobs", "1")
    folder = tmp_path / "shared-node"
    names = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
    assert names == ["shared-node.anim.svg", "shared-node.dot", "shared-node.gif",
                     "shared-node.html", "shared-node.json", "shared-node.svg",
                     "steps/step-00.svg", "steps/step-01.svg", "steps/step-02.svg",
                     "steps/step-03.svg"]
    assert ((folder / "shared-node.anim.svg").read_text(encoding="utf-8")
            == draw(examples.graph("shared-node")).animated_svg())
    assert not (tmp_path / "README.md").exists()  # only the full gallery writes the page
    assert "rendering" in res.stderr  # the progress bar's label
    assert "rendered 1 graph into" in res.stderr
    assert re.search(r"in [\d.]+ s \(1 process\)", res.stderr)


def test_render_selected_examples_and_formats(run, tmp_path):
    run("render", "fork", "softmax-nll", "--format", "svg,json", "--out", str(tmp_path),
        "-q", "-j1")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fork", "softmax-nll"]
    fork = tmp_path / "fork"
    assert sorted(p.name for p in fork.iterdir()) == ["fork.json", "fork.svg", "steps"]
    assert len(list((fork / "steps").iterdir())) == 8
    G = from_json((fork / "fork.json").read_text(encoding="utf-8"))
    assert (G.nodes["v0"]["grad"], G.nodes["v1"]["grad"]) == (-3.0, -8.0)
    texts = " ".join(_texts(fork / "steps" / "step-07.svg"))
    assert "−3" in texts and "−8" in texts
    final = " ".join(_texts(fork / "fork.svg"))  # the final view: every contribution labelled
    assert "after backward()" in final and "1 × (−6) = −6" in final


def test_an_expression_as_an_animated_svg_in_a_batch_and_as_one_file(run, tmp_path):
    expr = ["--expr", "(a*b)*(a+b)", "--set", "a=-2", "--set", "b=3"]
    run("render", *expr, "--format", "animated-svg", "--out", str(tmp_path / "out"), "-q")
    assert [p.name for p in (tmp_path / "out" / "expr").iterdir()] == ["expr.anim.svg"]
    batch = (tmp_path / "out" / "expr" / "expr.anim.svg").read_text(encoding="utf-8")
    assert "@keyframes" in batch and "<script" not in batch
    res = run("render", *expr, "-o", str(tmp_path / "q.ANIM.svg"))
    assert f"wrote {tmp_path / 'q.ANIM.svg'}" in res.stderr
    assert (tmp_path / "q.ANIM.svg").read_text(encoding="utf-8") == batch
    run("render", *expr, "-o", str(tmp_path / "q.svg"), "-q")  # a plain .svg stays static
    assert "@keyframes" not in (tmp_path / "q.svg").read_text(encoding="utf-8")
    out = run("render", *expr, "--format", "animated-svgz", "--out", str(tmp_path), code=2).output
    assert "unknown format 'animated-svgz'" in out and "animated-svg" in out


def test_quiet_prints_nothing(run, tmp_path):
    res = run("render", "fork", "--format", "json", "--out", str(tmp_path), "--quiet")
    assert res.output == "" and res.stderr == ""


def test_step_chooses_the_single_pictures(run, tmp_path):
    run("render", "fork", "--format", QUICK, "--step", "5", "--out", str(tmp_path), "-q")
    fork = tmp_path / "fork"
    assert (fork / "fork.svg").read_bytes() == (fork / "steps" / "step-05.svg").read_bytes()
    assert (fork / "fork.dot").read_text(encoding="utf-8") == draw(examples.graph("fork"), 5).dot()
    assert 'data-start="5"' in (fork / "fork.html").read_text(encoding="utf-8")


def test_step_out_of_range_is_a_usage_error(run, tmp_path):
    out = run("render", "fork", "--step", "8", "--out", str(tmp_path), code=2).output
    assert "0..7" in out
    assert not (tmp_path / "fork").exists()  # checked before anything is written
    run("render", "fork", "--step", "-1", "--out", str(tmp_path), code=2)


def test_backend_choice(run, tmp_path):
    fork = examples.graph("fork")
    run("render", "fork", "--backend", "embedded", "-o", str(tmp_path / "e.svg"))
    assert (tmp_path / "e.svg").read_text(encoding="utf-8") == draw(fork, backend="embedded").svg()
    run("render", "fork", "--backend", "wasm", code=2)


def test_rankdir_and_theme(run, tmp_path):
    run("render", "fork", "--format", "dot,svg,html", "--rankdir", "TB", "--theme", "dark",
        "--out", str(tmp_path), "-q")
    fork = tmp_path / "fork"
    assert 'rankdir="TB"' in (fork / "fork.dot").read_text(encoding="utf-8")
    assert "dark" in ET.parse(fork / "fork.svg").getroot().get("class", "")
    assert '<html lang="en" class="dark">' in (fork / "fork.html").read_text(encoding="utf-8")
    assert run("render", "fork", "--rankdir", "XY", code=2).exit_code == 2
    assert run("render", "fork", "--theme", "sepia", code=2).exit_code == 2


def test_frames_adds_one_png_per_step(run, tmp_path):
    run("render", "shared-node", "--format", "json", "--frames", "--out", str(tmp_path),
        "-q", "-j1")
    frames = sorted((tmp_path / "shared-node" / "frames").iterdir())
    assert [p.name for p in frames] == [f"frame-00{k}.png" for k in range(4)]
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in frames)


def test_the_full_gallery_page_and_a_byte_identical_rerun(run, tmp_path, monkeypatch):
    monkeypatch.setenv("VIZGRAD_LAYOUT", "system")  # the gallery uses the embedded one anyway
    run("render", "--format", "svg,animated-svg,json", "--out", str(tmp_path), "-q", "-j1")
    fork = examples.graph("fork")
    assert ((tmp_path / "fork" / "fork.svg").read_text(encoding="utf-8")
            == draw(fork, backend="embedded").svg())
    readme = (tmp_path / "README.md").read_text(encoding="utf-8")
    # the chapter's examples, and the training example written beside them
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_dir()) == sorted(
        [*examples.names(), "moons-train"])
    for k in range(8):  # the fork graph's steps 0..7
        assert f"](fork/steps/step-0{k}.svg)" in readme
    assert "a receives −6.0000 and 3.0000, together −3.0000" in readme
    assert "| ∂b/∂a: 2.0000 | ∂b/∂a: 1.0000 |" in readme  # shared-node beside overwrite-bug
    assert "| nodes: 10 | nodes: 18 |" in readme  # tanh-native beside tanh-decomposed
    assert "2.175515362617" in readme and "greyed" in readme
    animated = readme[readme.index("## Every example as one animated SVG"):]
    for name in examples.names():  # each shown, and linked from the summary table
        assert f"({name}/{name}.anim.svg)" in animated
        assert f"[animated SVG]({name}/{name}.anim.svg)" in readme
        assert (tmp_path / name / f"{name}.anim.svg").is_file()
    before = _tree(tmp_path)
    res = run("render", "--format", "svg,animated-svg,json", "--out", str(tmp_path), "-j1")
    assert "0 changed" in res.stderr
    assert _tree(tmp_path) == before


def test_two_processes_write_the_same_bytes_as_one(run, tmp_path):
    args = ["render", "fork", "sum-square", "tanh-native", "--format", "svg,json,html", "-q"]
    run(*args, "--out", str(tmp_path / "one"), "--jobs", "1")
    run(*args, "--out", str(tmp_path / "two"), "--jobs", "2")
    assert _tree(tmp_path / "one") == _tree(tmp_path / "two")


# -- single files ------------------------------------------------------------

def test_expr_to_an_svg_file(run, tmp_path):
    out = tmp_path / "q.svg"
    res = run("render", "--expr", "(a*b)*(a+b)", "--set", "a=-2", "--set", "b=3", "-o", str(out))
    assert f"wrote {out}" in res.stderr
    texts = " ".join(_texts(out))
    assert "∂f/∂a = −3" in texts and "∂f/∂b = −8" in texts and "−6" in texts


def test_an_unused_value_is_noted(run, tmp_path):
    res = run("render", "--expr", "a*a", "--set", "a=2", "--set", "c=1",
              "-o", str(tmp_path / "q.svg"))
    assert "note: --set c: not used by the expression" in res.stderr


@pytest.mark.parametrize("suffix", ["svg", "dot", "json", "html", "gif"])
def test_output_format_comes_from_the_suffix(run, tmp_path, suffix):
    out = tmp_path / f"fork.{suffix}"
    run("render", "fork", "-o", str(out))
    data = out.read_bytes()
    checks = {
        "svg": lambda: ET.fromstring(data).tag == f"{SVG}svg",
        "dot": lambda: data.lstrip().startswith(b"digraph"),
        "json": lambda: from_json(data).graph["root"] == "v4",
        "html": lambda: data.startswith(b"<!DOCTYPE html>"),
        "gif": lambda: data[:6] in (b"GIF87a", b"GIF89a"),
    }
    assert checks[suffix]()


def test_a_graph_json_renders_like_the_live_graph(run, tmp_path):
    run("render", "fork", "-o", str(tmp_path / "fork.json"))
    run("render", str(tmp_path / "fork.json"), "-o", str(tmp_path / "again.svg"))
    assert ((tmp_path / "again.svg").read_text(encoding="utf-8")
            == draw(examples.graph("fork")).svg())


def test_example_inputs_can_be_set(run, tmp_path):
    run("render", "fork", "--set", "a=1", "--set", "b=2", "-o", str(tmp_path / "f.json"))
    G = from_json((tmp_path / "f.json").read_text(encoding="utf-8"))
    assert (G.nodes["v0"]["grad"], G.nodes["v1"]["grad"]) == (8.0, 5.0)


# -- usage errors (exit 2) and failures (exit 1) ------------------------------

def test_unknown_example_lists_the_valid_ones(run):
    out = run("render", "forkk", code=2).output
    assert "unknown example 'forkk'" in out and "did you mean 'fork'" in out
    for name in examples.names():
        assert name in out


@pytest.mark.parametrize("item", ["a", "a=", "=3", "a=x", "1a=2", "a=nan", "a=inf"])
def test_malformed_set(run, item):
    out = run("render", "--expr", "a", "--set", item, "-o", "x.svg", code=2).output
    assert "'--set'" in out and repr(item) in out


def test_a_value_set_twice(run):
    assert "given twice" in run("render", "fork", "--set", "a=1", "--set", "a=2", code=2).output


def test_an_input_the_example_does_not_have(run):
    out = run("render", "fork", "--set", "x=1", code=2).output
    assert "has no input 'x'" in out and "a, b" in out


def test_expression_error_points_at_the_column(run, tmp_path):
    out = run("render", "--expr", "(a*b)*(a+c)", "--set", "a=1", "--set", "b=2",
              "-o", str(tmp_path / "q.svg"), code=2).output
    assert "Invalid value for '--expr': column 10: unknown name 'c'" in out
    lines = out.splitlines()
    source = next(i for i, line in enumerate(lines) if line.strip() == "(a*b)*(a+c)")
    assert lines[source + 1].index("^") == lines[source].index("c")
    assert not (tmp_path / "q.svg").exists()


@pytest.mark.parametrize("fmt", ["jpg", "svg,webm", "", " , "])
def test_unknown_format(run, fmt):
    out = run("render", "fork", "--format", fmt, code=2).output
    assert "'--format'" in out and "svg, gif, png, mp4, json, dot, html" in out


def test_unknown_output_suffix(run, tmp_path):
    out = run("render", "fork", "-o", str(tmp_path / "q.jpg"), code=2).output
    assert ".svg" in out and "q.jpg" in out


@pytest.mark.parametrize("args", [
    ["fork", "--expr", "a"],
    ["fork", "sum-square", "-o", "x.svg"],
    ["fork", "-o", "x.svg", "--format", "svg"],
    ["fork", "-o", "x.svg", "--frames"],
], ids=["expr-and-targets", "o-with-two", "o-with-format", "o-with-frames"])
def test_conflicting_options(run, args):
    run("render", *args, code=2)


def test_output_into_a_missing_folder_fails_cleanly(run, tmp_path):
    out = run("render", "fork", "-o", str(tmp_path / "nope" / "q.svg"), code=1).output
    assert "does not exist" in out


def test_a_rendering_failure_exits_1_and_leaves_no_partial_file(run, tmp_path, monkeypatch):
    from vizgrad.exceptions import BackendError
    from vizgrad.write import svg

    run("render", "fork", "--format", "svg", "--out", str(tmp_path), "-q")
    before = _tree(tmp_path)
    calls = []
    real_svg = svg.Drawing.svg

    def broken(self):
        calls.append(self.step)
        if len(calls) > 3:
            raise BackendError("the layout failed (simulated)")
        return real_svg(self)

    monkeypatch.setattr(svg.Drawing, "svg", broken)
    res = run("render", "fork", "--set", "a=1", "--format", "svg", "--out", str(tmp_path),
              "--jobs", "1", code=1)
    assert "the layout failed (simulated)" in res.output
    after = _tree(tmp_path)
    assert set(after) == set(before)  # no temporary file left behind
    changed = [k for k in after if after[k] != before[k]]
    for name in changed:  # whatever was replaced is a whole, new file
        ET.fromstring(after[name])


def test_out_must_be_a_folder(run, tmp_path):
    (tmp_path / "file").write_text("x", encoding="utf-8")
    run("render", "fork", "--out", str(tmp_path / "file"), code=2)


# -- formats that need a system tool -------------------------------------------

def _needs_ffmpeg():
    from vizgrad.write.raster.frames import find_ffmpeg

    if find_ffmpeg() is None:
        pytest.skip("no ffmpeg on PATH and imageio-ffmpeg is not installed")


@pytest.mark.parametrize("suffix, magic, needs", [
    ("png", b"\x89PNG", None),
    ("pdf", b"%PDF", None),
    ("mp4", b"ftyp", _needs_ffmpeg),
    ("webp", b"WEBP", None),
])
def test_formats_with_tools(run, tmp_path, suffix, magic, needs):
    if needs:
        needs()
    out = tmp_path / f"sn.{suffix}"
    run("render", "shared-node", "-o", str(out))
    assert magic in out.read_bytes()[:16]


def test_a_batch_with_png_and_mp4(run, tmp_path):
    _needs_ffmpeg()
    run("render", "shared-node", "--format", "png,mp4", "--out", str(tmp_path), "-q", "-j1")
    assert sorted(p.name for p in (tmp_path / "shared-node").iterdir()) == [
        "shared-node.mp4", "shared-node.png"]


def test_png_and_pdf_need_no_system_dot(run, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no dot to be found
    run("render", "fork", "-o", str(tmp_path / "fork.png"))
    run("render", "fork", "-o", str(tmp_path / "fork.pdf"))
    assert (tmp_path / "fork.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "fork.pdf").read_bytes()[:4] == b"%PDF"


def test_an_unwritable_folder_is_a_failure_with_the_path(run, tmp_path):
    (tmp_path / "file").write_text("x", encoding="utf-8")
    out = run("render", "fork", "--format", "json", "--out", str(tmp_path / "file" / "sub"),
              code=1).output
    assert f"cannot write {tmp_path / 'file' / 'sub'}" in out


def _points(svg: Path) -> tuple[float, float]:
    root = ET.parse(svg).getroot()
    return tuple(float(root.get(k).removesuffix("pt")) for k in ("width", "height"))


def test_slides_preset_writes_one_svg_per_slide(run, tmp_path):
    """`--preset slides -o NAME.svg`: a picture too big for one 960 × 540 slide becomes
    NAME-1.svg, NAME-2.svg …, each a 16:9 page whose smallest text is 14 pt or more when
    shown as a 960 pt wide slide; a small one stays NAME.svg, one page as well."""
    result = run("render", "course-mlp", "--preset", "slides", "-o", str(tmp_path / "course.svg"))
    written = sorted(p.name for p in tmp_path.iterdir())
    assert len(written) >= 2, written
    assert written == sorted(f"course-{i}.svg" for i in range(1, len(written) + 1)), written
    assert f"({len(written)} slides)" in result.output
    for name in written:
        width, height = _points(tmp_path / name)
        assert width / height == pytest.approx(960 / 540, rel=0.005), (name, width, height)
        sizes = re.findall(r'font-size="([0-9.]+)"', (tmp_path / name).read_text("utf-8"))
        assert sizes and min(map(float, sizes)) * 960 / width >= 14 - 0.01, (name, width)
    one = tmp_path / "one"
    one.mkdir()
    run("render", "fork", "--preset", "slides", "-o", str(one / "fork.svg"))
    assert [p.name for p in one.iterdir()] == ["fork.svg"]
    slides = draw(examples.graph("fork"), preset="slides").slides()  # one 16:9 page
    assert len(slides) == 1 and (one / "fork.svg").read_text(encoding="utf-8") == slides[0]

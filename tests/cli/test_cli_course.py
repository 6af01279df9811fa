"""The micrograd lecture's own script (tests/models/course.py: a module-level MLP(3, [4, 4, 1]),
four samples, 394 values), rendered by ``vizgrad render`` with no options."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from vizgrad import from_json
from vizgrad.cli.commands import main

COURSE = Path(__file__).resolve().parents[1] / "models" / "course.py"
SVG = "{http://www.w3.org/2000/svg}"
SCREEN_PX = 1920


def smallest_text_px(svg: str, shown_px: float) -> float:
    """The smallest text in CSS px when the picture is shown at most ``shown_px`` wide (never
    enlarged): from the SVG's width (pt), its viewBox and its texts' font sizes."""
    root = ET.fromstring(svg)
    natural_px = float(root.get("width").removesuffix("pt")) * 4 / 3
    view_width = float(root.get("viewBox").split()[2])
    texts = list(root.iter(f"{SVG}text"))
    sizes = [float(t.get("font-size")) for t in texts if t.get("font-size")]
    assert texts and len(sizes) == len(texts)  # every text says its size
    return min(sizes) * min(natural_px, shown_px) / view_width


def texts(svg: str) -> list[str]:
    return ["".join(t.itertext()) for t in ET.fromstring(svg).iter(f"{SVG}text")]


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """``vizgrad render tests/models/course.py:build`` with no options, once."""
    pytest.importorskip("micrograd", reason="micrograd 0.1.0 is a test dependency")
    out = tmp_path_factory.mktemp("course")
    result = CliRunner().invoke(main, ["render", f"{COURSE}:build", "--out", str(out), "-q"])
    assert result.exit_code == 0, (result.output, result.exception)
    return out / "course"


def test_the_lecture_script_renders_with_no_options_within_60_mb(course):
    written = sum(p.stat().st_size for p in course.rglob("*") if p.is_file())
    assert 0 < written <= 60_000_000
    G = from_json((course / "course.json").read_text(encoding="utf-8"))
    assert G.number_of_nodes() == 394 and len(G.graph["steps"]) == 602  # the graph given
    # the net read by model is drawn one box per neuron: one step SVG per collapsed step
    steps = sorted(int(p.stem.split("-")[1]) for p in (course / "steps").glob("step-*.svg"))
    assert steps == list(range(len(steps))) and 10 <= len(steps) <= 60


def test_its_picture_is_readable_on_a_1920_px_screen_and_names_the_net(course):
    svg = (course / "course.svg").read_text(encoding="utf-8")
    assert smallest_text_px(svg, SCREEN_PX) >= 10
    words = texts(svg)
    assert not [w for w in words if re.search(r"\bv\d+\b", w)]  # no raw id
    boxes = {w.split(" · ")[0] for w in words if " · " in w}
    assert {"L0/N0", "L0/N3", "L1/N3", "L2/N0", "loss"} <= boxes  # 9 neurons, the loss folded
    assert not [b for b in boxes if b.startswith("L3")]
    caption = " ".join(words)
    assert "net read: n (MLP), the one net in course.py" in caption
    assert "net read: n (MLP)" in (course / "course.html").read_text(encoding="utf-8")


def test_its_player_opens_the_boxes_the_automatic_collapse_drew(course):
    """The page starts from the graph given, collapsed at the level chosen, so that each
    neuron's box opens in place (not a graph already collapsed, with nothing to open)."""
    page = (course / "course.html").read_text(encoding="utf-8")
    data = json.loads(re.search(r'id="vg-data">(.*?)</script>', page, re.S).group(1))
    opened = {view["open"] for view in data["views"]}
    assert {"L0/N0", "L1/N3", "L2/N0"} <= opened
    # neurons, and the loss the picture folded into one box; not runs
    assert not [p for p in opened if not re.fullmatch(r"L\d/N\d|loss", p)]


def test_one_svg_and_one_gif_each_succeed(course, tmp_path):
    run = CliRunner()
    svg, gif = tmp_path / "course.svg", tmp_path / "course.gif"
    for path in (svg, gif):
        result = run.invoke(main, ["render", f"{COURSE}:build", "-o", str(path), "-q"])
        assert result.exit_code == 0, (result.output, result.exception)
    assert svg.read_bytes() == (course / "course.svg").read_bytes()  # the batch's picture
    assert gif.read_bytes()[:6] == b"GIF89a" and gif.stat().st_size <= 10_000_000


def test_a_gif_past_the_budget_is_refused_before_the_first_frame(tmp_path, monkeypatch):
    pytest.importorskip("micrograd", reason="micrograd 0.1.0 is a test dependency")
    from vizgrad.write.raster import frames

    def no_frames(*args, **kwargs):
        raise AssertionError("a frame was drawn")

    monkeypatch.setattr(frames, "animate", no_frames)
    path = tmp_path / "course.gif"
    result = CliRunner().invoke(main, ["render", f"{COURSE}:build", "-o", str(path),
                                       "--max-bytes", "500k"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    out = " ".join(result.output.split())
    assert "(GIF " in out and "more than --max-bytes 500 kB" in out
    for option in ("-o NAME.svg", "--collapse", "--focus NODE", "--model NAME", "--max-bytes "):
        assert option in out
    assert list(tmp_path.iterdir()) == []


def test_the_step_svgs_of_one_picture_are_not_counted(tmp_path):
    pytest.importorskip("micrograd", reason="micrograd 0.1.0 is a test dependency")
    run = CliRunner()
    # 22 step SVGs of about 40 kB: a batch with svg needs more than 300 kB, -o one file does not
    batch = run.invoke(main, ["render", f"{COURSE}:build", "--format", "svg", "--max-bytes",
                              "300k", "--out", str(tmp_path / "out")])
    assert batch.exit_code == 1 and "(step SVGs " in batch.output
    one = run.invoke(main, ["render", f"{COURSE}:build", "-o", str(tmp_path / "c.svg"),
                            "--max-bytes", "300k"])
    assert one.exit_code == 0, one.output


@pytest.mark.parametrize("flag, inputs", [((), 12), (("--merge-constants",), 12),
                                          (("--no-merge-constants",), 0)])
def test_the_inputs_are_drawn_unless_the_copies_are_kept(tmp_path, flag, inputs):
    """By default the 4 samples × 3 features are drawn once each, x[0][0] … x[3][2], as the
    cells of one box (each cell's tooltip names its input); --no-merge-constants keeps
    micrograd's copies inside the neurons' boxes."""
    pytest.importorskip("micrograd", reason="micrograd 0.1.0 is a test dependency")
    out = tmp_path / "course.svg"
    result = CliRunner().invoke(main, ["render", str(COURSE), *flag, "-o", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    tips = re.findall(r'id="c-[a-z]+\d+-s\d+x\d+"[^>]*><title>(x\[\d\]\[\d\]) ', out.read_text())
    names = sorted(set(tips))
    assert len(names) == inputs and (not inputs or names[0] == "x[0][0]" and names[-1] == "x[3][2]")

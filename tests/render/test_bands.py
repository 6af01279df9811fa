"""No blank band, readable by default: a still picture keeps room only for its own step's
caption, so the gap from the caption's lowest text to the graph's highest shape is at most
10 % of the picture's height (measured on the SVG, the caption's translate included), and its
smallest text is 12 px or more shown at min(natural size, 1,400 px), for every example and
for the student nets of tests/models/ as ``vizgrad render model.py`` draws them.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from vizgrad import draw, examples
from vizgrad.cli.commands import main

SVG = "{http://www.w3.org/2000/svg}"
MODELS = Path(__file__).resolve().parents[1] / "models"
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def band(svg: str) -> tuple[float, float]:
    """(the empty band between caption and graph, the picture's height), in the SVG's units."""
    root = ET.fromstring(svg)
    height = float(root.get("viewBox").split()[3])
    bottom = None
    for el in root.iter(f"{SVG}text"):
        if not (el.get("id") or "").startswith("cap-") or not "".join(el.itertext()).strip():
            continue
        shift = NUMBER.findall(el.get("transform") or "translate(0 0)")
        y = float(el.get("y")) + float(shift[1]) + 0.3 * float(el.get("font-size"))
        bottom = y if bottom is None else max(bottom, y)
    tops = [float(el.get("y")) for el in root.iter(f"{SVG}rect")
            if "vg-box" in (el.get("class") or "")]
    for el in root.iter(f"{SVG}path"):
        if "vg-edge" in (el.get("class") or ""):
            tops += [float(v) for v in NUMBER.findall(el.get("d"))[1::2]]
    assert bottom is not None and tops
    return min(tops) - bottom, height


@pytest.mark.parametrize("name", examples.names())
def test_no_example_keeps_a_band_at_any_step(name):
    d = draw(examples.graph(name))
    for k in [*range(d.scene.last + 1), None]:
        gap, height = band(d.at("final" if k is None else k).svg())
        assert gap <= 0.10 * height, (name, k, gap, height)


def smallest_px(svg: str, screen: float = 1400) -> float:
    """The smallest text in CSS px with the picture shown at min(natural size, ``screen``):
    from the SVG's width (pt), its viewBox and its texts' font sizes."""
    root = ET.fromstring(svg)
    natural = float(root.get("width").removesuffix("pt")) * 4 / 3
    scale = min(natural, screen) / float(root.get("viewBox").split()[2])
    return scale * min(float(t.get("font-size")) for t in root.iter(f"{SVG}text")
                       if "".join(t.itertext()).strip())


@pytest.mark.parametrize("model", ["squares", "bce", "moons", "demo", "course", "wide"])
def test_a_students_net_keeps_no_band_and_reads_at_12_px(model, tmp_path):
    pytest.importorskip("micrograd", reason="micrograd 0.1.0 is a test dependency")
    out = tmp_path / f"{model}.svg"
    result = CliRunner().invoke(main, ["render", str(MODELS / f"{model}.py"), "-o", str(out),
                                       "-q"])
    assert result.exit_code == 0, (result.output, result.exception)
    svg = out.read_text(encoding="utf-8")
    gap, height = band(svg)
    assert gap <= 0.10 * height, (gap, height)
    assert smallest_px(svg) >= 12


@pytest.mark.parametrize("name", examples.names())
def test_every_example_reads_at_12_px(name):
    assert smallest_px(draw(examples.graph(name)).svg()) >= 12

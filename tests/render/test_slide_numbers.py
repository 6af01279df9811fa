"""Numbers on slides are plain decimals from 0.001 on (a slide's two decimals used to write
0.057 as 5.7e−2): every number of every slide of every example, read from the SVG text."""

from __future__ import annotations

import re

import pytest

from vizgrad import draw, examples

E_NUMBER = re.compile(r"([−-]?\d+(?:\.\d+)?)e([−-]?\d+)")


@pytest.mark.parametrize("name", examples.names())
def test_no_slide_writes_a_number_from_0_001_on_in_e_notation(name):
    d = draw(examples.graph(name), preset="slides")
    for k in [*range(d.scene.last + 1), None]:
        for svg in d.at("final" if k is None else k).slides():
            for text in re.findall(r">([^<>]+)</text>", svg):
                for mantissa, exponent in E_NUMBER.findall(text):
                    value = float(mantissa.replace("−", "-")) * 10 ** int(
                        exponent.replace("−", "-"))
                    assert abs(value) < 1e-3, (name, k, text)


def _share(svg: str) -> float:
    """The part of a slide's height its caption and legend take, read from the SVG: from the
    top to the caption's lowest text, and from the legend's highest text to the bottom."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg)
    height = float(root.get("viewBox").split()[3])
    cap, leg = 0.0, 0.0
    for el in root.iter("{http://www.w3.org/2000/svg}text"):
        if not "".join(el.itertext()).strip():
            continue
        size, y = float(el.get("font-size")), float(el.get("y"))
        shift = 0.0
        for node in root.iter():  # the legend's group is moved to the slide's bottom
            if el in list(node) and node.get("transform", "").startswith("translate(0,"):
                shift = float(node.get("transform")[len("translate(0,"):-1])
        if "vg-caption" in el.get("class", "") or "vg-rule" in el.get("class", ""):
            cap = max(cap, y + 0.3 * size)
        elif "vg-legend" in el.get("class", ""):
            leg = max(leg, height - (y + shift - size))
    return (cap + leg) / height


@pytest.mark.parametrize("name", examples.names())
def test_caption_and_legend_take_at_most_a_quarter_of_a_picture_slide(name):
    d = draw(examples.graph(name), preset="slides")
    steps = [s["index"] for s in d.graph.graph["steps"] if s["kind"] == "backward"][-1:]
    for k in [*steps, None]:  # the view drawn counts its own steps
        pages = d.at("final" if k is None else k).slides()
        if len(pages) == 1:
            continue  # the whole picture on one slide, as drawn
        for svg in pages:
            if "vg-notes" in svg.split(">", 2)[1]:
                continue  # the caption and the legend on a slide of their own
            assert _share(svg) <= 0.25 + 1e-6, (name, k)

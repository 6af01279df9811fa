"""A Drawing in a notebook cell: it shrinks to the cell's width instead of scrolling."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from vizgrad import examples
from vizgrad.render.svg import draw


def test_the_notebook_svg_scales_to_the_cell():
    d = draw(examples.graph("softmax-nll"))
    for svg in (d._repr_svg_(), d._repr_mimebundle_()["image/svg+xml"]):
        root = ET.fromstring(svg.encode("utf-8"))
        assert root.get("width") is None and root.get("height") is None  # no fixed box
        style = root.get("style").replace(" ", "")
        assert "max-width:100%" in style and "height:auto" in style
        x, y, w, h = map(float, root.get("viewBox").split())
        assert w > 500 and h > 0
        assert f"width:{ET.fromstring(d.svg().encode('utf-8')).get('width')}" in style
        assert root.findtext("{http://www.w3.org/2000/svg}title") == d.title()


def test_saved_files_keep_their_size():
    root = ET.fromstring(draw(examples.graph("fork")).svg().encode("utf-8"))
    assert root.get("width").endswith("pt") and root.get("style") is None

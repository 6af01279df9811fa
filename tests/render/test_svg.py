"""The SVG drawing: what each step shows, parsed back with an XML parser."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from vizgrad import Value, to_networkx, trace
from vizgrad.exceptions import GraphTooLargeError, OptionError, RenderError
from vizgrad.render.svg import Drawing, draw

NS = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def group(root: ET.Element, gid: str) -> ET.Element:
    for g in root.iter(NS + "g"):
        if g.get("id") == gid:
            return g
    raise AssertionError(f"no <g id={gid!r}> in the SVG")


def texts(el: ET.Element) -> list[str]:
    return [t.text or "" for t in el.iter(NS + "text")]


def node_texts(root: ET.Element, gid: str) -> list[str]:
    return texts(group(root, gid))


def caption_lines(root: ET.Element) -> list[str]:
    graph = group(root, "graph0")
    return [t.text or "" for t in graph.findall(NS + "text")]


@pytest.fixture
def G(fork):
    q, _, _ = fork
    q.backward()
    return to_networkx(q)


# ids in the fork graph: a=v0, b=v1, u=v2, v=v3, q=v4


def test_step0_inputs_known_and_ops_pending(G):
    root = parse(draw(G, 0).svg())
    assert node_texts(root, "v0") == ["a", "data -2.0000", "grad —"]
    assert node_texts(root, "v1") == ["b", "data 3.0000", "grad —"]
    for vid, name in (("v2", "u"), ("v3", "v"), ("v4", "q")):
        assert node_texts(root, vid) == [name, "data pending", "grad —"]
        assert "vg-pending" in group(root, vid).get("class").split()
    assert caption_lines(root)[0] == "step 0/7 · inputs are set; every op is pending"


def test_step7_contributions_and_running_totals(G):
    root = parse(draw(G, 7).svg())
    assert node_texts(root, "v0") == ["a", "data -2.0000", "grad -6.0000 → -3.0000"]
    assert node_texts(root, "v1") == ["b", "data 3.0000", "grad -6.0000 → -8.0000"]
    assert texts(group(root, "e-v0-v2-0")) == ["3.0000 × 1.0000 = 3.0000"]
    assert texts(group(root, "e-v1-v2-1")) == ["-2.0000 × 1.0000 = -2.0000"]
    assert texts(group(root, "e-v0-v3-0")) == []
    assert "vg-active" in group(root, "v2").get("class").split()
    assert caption_lines(root)[:3] == [
        "step 7/7 · backward through u = a × b",
        "∂q/∂a += 3.0000 × 1.0000 = 3.0000  (-6.0000 → -3.0000)",
        "∂q/∂b += -2.0000 × 1.0000 = -2.0000  (-6.0000 → -8.0000)",
    ]


def test_basic_drawing_api(G):
    d = draw(G)
    assert isinstance(d, Drawing)
    assert d.svg() == d._repr_svg_() == d._repr_mimebundle_()["image/svg+xml"]
    assert d.dot().startswith("digraph vizgrad {")
    root = parse(d.svg())
    assert root.get("viewBox")
    assert root[0].tag == NS + "title"


def test_bad_options_are_clear(G):
    with pytest.raises(OptionError, match="step must be"):
        draw(G, 99)
    with pytest.raises(OptionError, match="rankdir"):
        draw(G, rankdir="XY")
    with pytest.raises(OptionError, match="theme"):
        draw(G, theme="neon").dot()
    with pytest.raises(GraphTooLargeError, match="max_nodes=5"):
        draw(G, max_nodes=4)
    with pytest.raises(RenderError, match="unknown format"):
        draw(G).save("out.jpg")

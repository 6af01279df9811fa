"""Graphs that several test modules build."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from vizgrad import Value


def build_fork(a: float = -2.0, b: float = 3.0,
               backward: bool = True) -> tuple[Value, Value, Value]:
    """The chapter's fork graph q = (a*b)*(a+b), labelled a, b, u, v, q: returns (q, a, b)."""
    va, vb = Value(a, label="a"), Value(b, label="b")
    u = va * vb
    u.label = "u"
    v = va + vb
    v.label = "v"
    q = u * v
    q.label = "q"
    if backward:
        q.backward()
    return q, va, vb


def svg_smallest_px(svg: str, column_px: float) -> float:
    """The smallest text of an SVG, in CSS px, shown in a column ``column_px`` wide and never
    enlarged: read from the SVG's own width and font sizes (pt)."""
    root = ET.fromstring(svg)
    width_pt = float(root.get("width").removesuffix("pt"))
    sizes = [float(el.get("font-size")) for el in root.iter() if el.get("font-size")]
    return min(sizes) * 4 / 3 * min(1.0, column_px / (width_pt * 4 / 3))

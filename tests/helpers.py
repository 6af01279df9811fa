"""Graphs that several test modules build."""

from __future__ import annotations

import math
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


def flatten_bezier(points, steps: int = 20) -> list:
    """A cubic Bezier spline (start, then three points per curve) as a polyline, computed
    here, not with the code under test."""
    out = [points[0]]
    for i in range(1, len(points) - 2, 3):
        p0, p1, p2, p3 = points[i - 1:i + 3]
        for k in range(1, steps + 1):
            t = k / steps
            u = 1 - t
            out.append(tuple(u ** 3 * a + 3 * u * u * t * b + 3 * u * t * t * c + t ** 3 * d
                             for a, b, c, d in zip(p0, p1, p2, p3)))
    return out


def distance_to_line(p, line) -> float:
    """The distance from point ``p`` to the polyline ``line``."""
    best = math.inf
    for a, b in zip(line, line[1:]):
        dx, dy = b[0] - a[0], b[1] - a[1]
        n = dx * dx + dy * dy
        t = 0.0 if n == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / n))
        best = min(best, math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy))
    return best

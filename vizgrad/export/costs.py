"""What each file of a render costs: bytes and seconds per picture, frame and value.

The per-node costs come from ``benchmarks/bench_costs.py`` (rounded up);
:func:`vizgrad.export.budget.estimate` adds them up for a whole render::

    >>> svg_bytes(5), dot_bytes(5)
    (12000, 1200)
    >>> frame_pixels(5, (72.0, 72.0))  # one inch square
    9604
"""

from __future__ import annotations

import math
from typing import Any

from ..core.labels import MAX_LABEL

__all__ = ["AREA_PER_VALUE", "FRAME_DPI", "FRAME_SIDE", "GIF_BYTES_PER_SIDE",
           "animated_svg_bytes", "animated_svg_seconds", "dot_bytes", "frame_pixels",
           "frame_seconds", "gif_frame_bytes", "group_boxes", "group_sizes", "png_frame_bytes",
           "svg_bytes", "svg_seconds", "text_size"]


def svg_bytes(n: int, boxes: int = 0) -> int:
    """Bytes of one step SVG of a graph with ``n`` values or boxes, ``boxes`` of them
    collapsed groups (a box's rows weigh about as much as another value)."""
    return 2_000 + 2_000 * (n + boxes)


def svg_seconds(n: int) -> float:
    """Seconds to lay out and write one step SVG."""
    return 0.02 + 1.4e-7 * n**2.6  # the layout grows much faster than the graph


def animated_svg_bytes(n: int, steps: int, boxes: int = 0) -> int:
    """Bytes of one animated SVG: about twice a step SVG, and a little per step."""
    return int(2.5 * svg_bytes(n, boxes)) + 500 * steps


def animated_svg_seconds(n: int, steps: int) -> float:
    """Seconds to write one animated SVG once the layout is done (the looks of every step)."""
    return steps * (0.001 + 0.0002 * n)


def dot_bytes(n: int) -> int:
    """Bytes of the DOT of a graph with ``n`` values (or boxes)."""
    return 300 + 180 * n


#: the resolution of an animation frame and its longest side, as
#: :mod:`vizgrad.write.raster.picture` draws it (``DEFAULT_DPI``, ``MAX_SIDE``)
FRAME_DPI = 97.5
FRAME_SIDE = 3840
#: a picture's area per value when its layout is not known, in pt² (measured: 44,000 to
#: 50,000 for the chapter's graphs drawn whole)
AREA_PER_VALUE = 50_000
#: GIF bytes per frame, per square root of its pixels: the first frame whole, the others
#: as the rectangle that changed, which grows with the picture's side (measured on the
#: gallery: 29 to 82); a picture of collapsed boxes, tables of numbers that recolour at
#: every step, costs twice as much (measured on the course net by neuron: 95 to 110)
GIF_BYTES_PER_SIDE = 50


def frame_pixels(n: int, size: tuple[float, float] | None = None) -> int:
    """Pixels of one animation frame of a picture of ``size`` points (width, height), or,
    without a layout, of ``n`` values.

    >>> frame_pixels(5, (72.0, 72.0)), frame_pixels(1, (7200.0, 72.0))  # 1 inch; 3,840 px wide
    (9604, 145920)
    """
    if size is None:
        side = math.sqrt(AREA_PER_VALUE * max(n, 1))
        size = (side, side)
    w, h = size
    dpi = min(FRAME_DPI, FRAME_SIDE / max(w, h, 1e-9) * 72)
    return max(1, round(w * dpi / 72)) * max(1, round(h * dpi / 72))


def frame_seconds(n: int, size: tuple[float, float] | None = None) -> float:
    """Seconds to draw one animation frame and encode it: the artists of ``n`` values, and
    the pixels (measured: 0.2 s for the course net by neuron, 2 Mpx; about 1 s drawn whole,
    394 values at 3,840 px)."""
    return 0.05 + 0.0003 * n + 5e-8 * frame_pixels(n, size)


def gif_frame_bytes(n: int, size: tuple[float, float] | None = None, boxes: int = 0) -> int:
    """GIF bytes per frame of a picture of ``size`` points (or of ``n`` values), ``boxes``
    of them collapsed groups."""
    per_side = GIF_BYTES_PER_SIDE * (2 if boxes else 1)
    return 400 + int(per_side * math.sqrt(frame_pixels(n, size)))


def png_frame_bytes(n: int) -> int:
    """Bytes of one PNG frame."""
    return 60_000 + 300 * n


def text_size(G: Any) -> int:
    """The characters of the graph's labels and names beyond the few a name usually has
    (each at most :data:`vizgrad.core.labels.MAX_LABEL` and an ellipsis once drawn)."""
    total = 0
    for key in ("label", "name"):
        for _, text in G.nodes(data=key):
            if text and len(text) > 8:
                total += min(len(text), MAX_LABEL + 1) * 4  # UTF-8, escaped, in tooltips too
    return total


def group_boxes(G: Any) -> int:
    """How many of the graph's nodes are collapsed groups (``kind="group"``)."""
    return sum(1 for _, kind in G.nodes(data="kind") if kind == "group")


def group_sizes(G: Any) -> tuple[int, ...]:
    """The member counts of the graph's collapsed groups, in order."""
    nodes = G.nodes
    return tuple(int(nodes[n].get("size") or 0) for n, kind in G.nodes(data="kind")
                 if kind == "group")

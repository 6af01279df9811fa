"""Monospace text as one filled path, built from cached glyph outlines.

Frames change many short numeric texts per step. Laying out and rasterising
them as matplotlib text costs about a millisecond each; with a monospace
font a string's layout is just ``i × advance``, so each character's outline
is computed once and a string becomes one compound path, drawn by Agg like
any shape (and written as a ``<path>`` in SVG)::

    >>> t = PathText(0, 0, "ab", size=10)
    >>> t.get_text(), round(t.width, 2)
    ('ab', 12.04)
    >>> t.set_text("abc"); round(t.width, 2)
    18.06
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from matplotlib.patches import PathPatch
from matplotlib.path import Path

__all__ = ["PathText", "FAMILY", "ADVANCE"]

FAMILY = "DejaVu Sans Mono"
#: advance width of every DejaVu Sans Mono glyph, in em
ADVANCE = 1233 / 2048
_CENTER = 0.36  # baseline to the middle of digits and capitals, in em
_ASCENT = 0.93


@cache
def _glyph(ch: str, bold: bool) -> tuple[np.ndarray, np.ndarray]:
    """Vertices (em units, baseline at y=0) and codes of one character."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextPath

    prop = FontProperties(family=FAMILY, weight="bold" if bold else "normal")
    p = TextPath((0, 0), ch, size=1, prop=prop)
    return np.asarray(p.vertices, float), np.asarray(p.codes, np.uint8)


def text_path(s: str, x: float, y: float, size: float, ha: str = "center",
              va: str = "center", linespacing: float = 1.2, bold: bool = False) -> Path:
    """The outline of ``s`` anchored at ``(x, y)``; ``size`` is the em in path units."""
    lines = s.split("\n")
    step = linespacing * size
    if va == "top":
        base = y - _ASCENT * size
    elif va == "bottom":
        base = y + (len(lines) - 1) * step + 0.24 * size
    else:
        base = y + (len(lines) - 1) * step / 2 - _CENTER * size
    verts, codes = [np.zeros((1, 2)) + (x, y)], [np.array([Path.MOVETO], np.uint8)]
    for i, line in enumerate(lines):
        width = len(line) * ADVANCE * size
        x0 = x - width / 2 if ha == "center" else (x - width if ha == "right" else x)
        for j, ch in enumerate(line):
            if ch == " ":
                continue
            v, c = _glyph(ch, bold)
            if len(v):
                verts.append(v * size + (x0 + j * ADVANCE * size, base - i * step))
                codes.append(c)
    return Path(np.concatenate(verts), np.concatenate(codes))


class PathText(PathPatch):
    """A PathPatch that behaves like a one-colour, unrotated monospace Text.

    ``set_text`` rebuilds the path; ``set_color`` sets the fill. Coordinates
    and ``size`` are in the units of the patch's transform. Snapping is off:
    it would round thin straight glyphs (``-``, ``—``) away.
    """

    def __init__(self, x: float, y: float, s: str = "", *, size: float, ha: str = "center",
                 va: str = "center", linespacing: float = 1.2, bold: bool = False,
                 color: Any = "black", **kwargs: Any) -> None:
        self._anchor = (x, y, size, ha, va, linespacing, bold)
        self._text = s
        super().__init__(text_path(s, *self._anchor[:2], size, ha, va, linespacing, bold),
                         facecolor=color, edgecolor="none", linewidth=0, snap=False, **kwargs)

    def get_window_extent(self, renderer: Any = None) -> Any:
        """The text's box in display pixels, without walking the glyph curves."""
        from matplotlib.transforms import Bbox

        x, y, size, ha, va, ls = self._anchor[:6]
        lines = self._text.count("\n") + 1
        left = self.left
        if va == "top":
            top = y
        elif va == "bottom":
            top = y + (lines - 1) * ls * size + 1.2 * size
        else:
            top = y + ((lines - 1) * ls * size + 1.2 * size) / 2
        bottom = top - (lines - 1) * ls * size - 1.2 * size
        corners = self.get_transform().transform([(left, bottom), (left + self.width, top)])
        return Bbox(corners)

    @property
    def width(self) -> float:
        """Width of the longest line, in path units."""
        return max(len(line) for line in self._text.split("\n")) * ADVANCE * self._anchor[2]

    @property
    def left(self) -> float:
        """The x where the longest line starts, in path units."""
        x, _, _, ha = self._anchor[:4]
        return x - self.width / 2 if ha == "center" else (x - self.width if ha == "right" else x)

    def get_text(self) -> str:
        """The string shown."""
        return self._text

    def set_text(self, s: str) -> None:
        """Show ``s`` (rebuilds the outline)."""
        if s != self._text:
            self._text = s
            x, y, size, ha, va, ls, bold = self._anchor
            self.set_path(text_path(s, x, y, size, ha, va, ls, bold))
            self.stale = True

    def set_color(self, c: Any) -> None:
        """The text colour (the path's fill)."""
        self.set_facecolor(c)

    def get_color(self) -> Any:
        """The text colour as RGBA."""
        return self.get_facecolor()

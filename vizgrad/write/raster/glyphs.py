"""Text as one filled path, from cached outlines: fast to redraw in every frame.

Laying out and rasterising a matplotlib Text costs a few milliseconds;
frames change many short texts per step, and the same strings come back
(numbers, words). :class:`PathText` draws a string as a compound path whose
outline (from matplotlib's own text-to-path, with the font fallback for CJK)
is computed once per string and weight, then scaled and placed. Anchors
follow SVG's ``text-anchor``: the advance widths the layout measured::

    >>> t = PathText(10, 20, "ab", size=10, anchor="end", family=("DejaVu Sans",))
    >>> t.get_text(), round(t.width, 2)
    ('ab', 12.48)
    >>> t.set_text("abc"); round(t.left, 2)
    -7.98
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
from matplotlib.patches import PathPatch
from matplotlib.path import Path

from ...style.metrics import width as advance

__all__ = ["PathText", "outline"]

_SHIFT = {"start": 0.0, "middle": 0.5, "end": 1.0}


def _props(family: tuple[str, ...], bold: bool) -> Any:
    from matplotlib.font_manager import FontProperties

    return FontProperties(family=list(family), weight="bold" if bold else "normal", size=1)


@lru_cache(maxsize=8192)
def outline(text: str, bold: bool, family: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Vertices (em units, baseline at y = 0, y up) and codes of ``text``'s glyphs."""
    from matplotlib.textpath import text_to_path

    verts, codes = text_to_path.get_text_path(_props(family, bold), text, ismath=False)
    v = np.asarray(verts, float).reshape(-1, 2) / text_to_path.FONT_SCALE
    return v, np.asarray(codes, np.uint8)


class PathText(PathPatch):
    """A PathPatch that behaves like a one-colour SVG ``<text>`` at a baseline point.

    ``x, y`` and ``size`` are in the units of the patch's transform (scene
    points, y down). ``set_text``, ``set_color`` and ``set_fontweight`` change
    what it shows. Snapping is off: it would round thin glyphs (``-``, ``—``) away.
    """

    def __init__(self, x: float, y: float, s: str = "", *, size: float, anchor: str = "start",
                 family: tuple[str, ...] = ("DejaVu Sans",), bold: bool = False,
                 **kwargs: Any) -> None:
        self._anchor = (x, y, size, _SHIFT[anchor])
        self._family = tuple(family)
        self._bold = bold
        self._text = ""
        self._box = (x, y, x, y)
        super().__init__(Path(np.zeros((1, 2)), [Path.MOVETO]), edgecolor="none", linewidth=0,
                         snap=False, **kwargs)
        self._rebuild(s)

    def _rebuild(self, s: str) -> None:
        self._text = s
        x, y, size, shift = self._anchor
        self.left = x - shift * self.width
        if not s.strip():
            self.set_path(Path(np.array([[x, y]]), [Path.MOVETO]))
            self._box = (x, y, x, y)
            return
        v, codes = outline(s, self._bold, self._family)
        pts = np.column_stack([self.left + v[:, 0] * size, y - v[:, 1] * size])
        self.set_path(Path(pts, codes))
        self._box = (*pts.min(0), *pts.max(0))
        self.stale = True

    @property
    def width(self) -> float:
        """The advance width of the text, in transform units."""
        return advance(self._text, self._anchor[2], self._bold)

    def get_window_extent(self, renderer: Any = None) -> Any:
        """The outline's box in display pixels (from its points, without walking curves)."""
        from matplotlib.transforms import Bbox

        x0, y0, x1, y1 = self._box
        pts = self.get_transform().transform([(x0, y0), (x1, y1)])
        return Bbox([pts.min(0), pts.max(0)])

    def get_text(self) -> str:
        return self._text

    def set_text(self, s: str) -> None:
        if s != self._text:
            self._rebuild(s)

    def get_fontweight(self) -> str:
        return "bold" if self._bold else "normal"

    def set_fontweight(self, weight: str) -> None:
        bold = weight == "bold"
        if bold != self._bold:
            self._bold = bold
            self._rebuild(self._text)

    def get_fontproperties(self) -> Any:
        """The font properties the outline is drawn with (families, weight)."""
        return _props(self._family, self._bold)

    def set_color(self, c: Any) -> None:
        self.set_facecolor(c)

    def get_color(self) -> Any:
        return self.get_facecolor()

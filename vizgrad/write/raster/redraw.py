"""Redraw only what changed: property tracking and clipped partial redraws on Agg.

Frames differ in a few boxes, labels and table cells. :class:`Redrawer`
remembers the last value of every property set through :meth:`Redrawer.set`;
:meth:`Redrawer.draw` repaints the background under the artists that changed
(their old and new extents) and draws every artist touching those boxes,
clipped to them, in z-order. The result matches a full draw to within a
level or two on a few antialiased pixels::

    >>> from matplotlib.figure import Figure
    >>> from matplotlib.backends.backend_agg import FigureCanvasAgg
    >>> fig = Figure(figsize=(2, 1), dpi=50)
    >>> canvas = FigureCanvasAgg(fig)
    >>> t = fig.text(0.1, 0.5, "a")
    >>> r = Redrawer(canvas, [t])
    >>> r.draw()                      # the first draw is a full one
    >>> r.set(t, text="b"); r.set(t, color="black")
    >>> sorted(r.dirty, key=id) == [t]
    True
    >>> r.draw(); r.dirty
    set()
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["Redrawer"]

Box = tuple[int, int, int, int]


class Redrawer:
    """Incremental drawing of ``artists`` (listed in the figure's draw order)."""

    def __init__(self, canvas: Any, artists: Sequence[Any], fixed: Sequence[Any] = (),
                 proxies: dict[Any, Any] | None = None) -> None:
        self.canvas = canvas
        self.artists = list(artists)
        #: artists whose shape never moves (only colours and widths change):
        #: their curve extents, slow to compute, are measured once
        self.fixed = set(fixed)
        #: artists whose extent is another's (e.g. lines clipped to a patch)
        self.proxies = proxies or {}
        self._bbox: dict[Any, Any] = {}
        self.props: dict[Any, dict[str, Any]] = {}
        self.dirty: set[Any] = set()
        self.extents: dict[Any, Box | None] = {}
        self.full = True

    def set(self, artist: Any, **props: Any) -> None:
        """Set only the properties that differ from last time; mark the artist dirty."""
        last = self.props.setdefault(artist, {})
        new = {k: v for k, v in props.items() if k not in last or last[k] != v}
        if new:
            artist.set(**new)
            last.update(new)
            self.dirty.add(artist)

    def invalidate(self) -> None:
        """Make the next :meth:`draw` a full one (e.g. to time a whole-figure draw)."""
        self.full = True

    def draw(self) -> None:
        """Bring the canvas up to date: in full the first time, then only what changed."""
        r = self.canvas.get_renderer()
        if self.full:
            self.canvas.draw()
            self.extents = {a: self._extent(a, r) for a in self.artists}
            self.full = False
        else:
            self._redraw(r)
        self.dirty.clear()

    def _extent(self, a: Any, r: Any) -> Box | None:
        """Integer pixel box an artist may touch (with antialiasing), or None."""
        from matplotlib.text import Text

        if not a.get_visible() or (hasattr(a, "get_text") and not a.get_text()):
            return None
        px = r.points_to_pixels(1.0)
        ink = float(a.get_fontsize()) * 0.15 if isinstance(a, Text) else max(
            np.ravel(a.get_linewidth()), default=0.0)
        pad = 3 + ink * px
        if a in self.fixed:
            if a not in self._bbox:
                self._bbox[a] = self.proxies.get(a, a).get_window_extent(r)
            b = self._bbox[a]
        else:
            b = a.get_window_extent(r)
        W, H = self.canvas.get_width_height()
        x0, y0 = max(int(math.floor(b.x0 - pad)), 0), max(int(math.floor(b.y0 - pad)), 0)
        x1, y1 = min(int(math.ceil(b.x1 + pad)), W), min(int(math.ceil(b.y1 + pad)), H)
        return (x0, y0, x1, y1) if x0 < x1 and y0 < y1 else None

    def _boxes(self, r: Any) -> list[list[int]]:
        """Old and new extents of the dirty artists, overlapping ones joined."""
        boxes = []
        for a in self.dirty:
            boxes += [self.extents.get(a), self._extent(a, r)]
            self.extents[a] = boxes[-1]
        merged: list[list[int]] = []
        for e in sorted(e for e in boxes if e is not None):
            for m in merged:  # join overlapping boxes so no artist is drawn twice
                if e[0] < m[2] and m[0] < e[2] and e[1] < m[3] and m[1] < e[3]:
                    m[:] = [min(m[0], e[0]), min(m[1], e[1]), max(m[2], e[2]), max(m[3], e[3])]
                    break
            else:
                merged.append(list(e))
        return merged

    def _redraw(self, r: Any) -> None:
        from matplotlib.transforms import Bbox

        fig = self.canvas.figure
        for x0, y0, x1, y1 in self._boxes(r):
            clip = Bbox.from_extents(x0, y0, x1, y1)
            touching = [a for a in self.artists if (e := self.extents[a]) is not None
                        and e[0] < x1 and x0 < e[2] and e[1] < y1 and y0 < e[3]]
            for a in [fig.patch, *touching]:  # the background first, then z-order
                box, on = a.get_clip_box(), a.get_clip_on()
                a.set_clip_box(Bbox.intersection(box, clip) if on and box is not None else clip)
                a.set_clip_on(True)
                if a.get_clip_box() is not None:
                    a.draw(r)
                a.set_clip_box(box)
                a.set_clip_on(on)

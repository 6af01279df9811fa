"""A scene drawn by matplotlib: every artist built once, each look applied as a diff.

:class:`Picture` turns each :class:`~vizgrad.scene.shapes.Shape` of a
:class:`~vizgrad.scene.scene.Scene` into one matplotlib artist (and a set
of hatch lines under each grad cell), drawn in the SVG writer's order with
its geometry, stroke widths, dashes, fonts and colours (texts as cached
outlines, :mod:`vizgrad.write.raster.glyphs`; real text in a PDF). :meth:`Picture.show`
changes only the properties a look changes; the Agg canvas then repaints
only the regions that changed (:mod:`vizgrad.write.raster.redraw`)::

    >>> from vizgrad import examples
    >>> from vizgrad.scene import scene_of
    >>> scene = scene_of(examples.graph("fork"))
    >>> pic = Picture(scene, dpi=72)
    >>> with rc():
    ...     pic.show(scene.look(7))
    ...     pic.image().size
    (717, 343)
    >>> pic.texts["t-v0-grad"].get_text(), pic.texts["t-v0-grad"].get_fontweight()
    ('−3', 'bold')
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ...exceptions import OptionError, RenderError
from .fonts import Fonts
from .glyphs import PathText
from .redraw import Redrawer
from ..svgout import _layer

if TYPE_CHECKING:
    from ...scene.scene import Scene

__all__ = ["DEFAULT_DPI", "MAX_SIDE", "Picture", "picture_bytes", "pixel_size", "rc"]

#: Frames' default resolution: a 960 pt wide picture becomes a 1300 px wide frame.
DEFAULT_DPI = 97.5
#: The longest side of a frame at the default resolution, in pixels (larger pictures
#: are drawn at a lower dpi); an explicit ``dpi`` or ``size`` may go up to ``LIMIT``.
MAX_SIDE = 3840
LIMIT = 16384
_KAPPA = 0.5522847498  # Bezier handle length of a quarter circle
_HATCH = 6.0  # the SVG pattern: lines 6 pt apart, 1.6 pt wide, at 45°
_RC: dict[str, Any] = {"lines.scale_dashes": False, "pdf.fonttype": 3, "pdf.compression": 6}


@contextmanager
def rc() -> Iterator[None]:
    """matplotlib's default settings plus ours, whatever the user's matplotlibrc says."""
    import matplotlib as mpl

    with mpl.rc_context():
        mpl.rcdefaults()
        params: Any = mpl.rcParams
        params.update(_RC)
        yield


def pixel_size(scene: Scene, dpi: float | None = None,
               size: tuple[int, int] | None = None) -> tuple[float, int, int]:
    """``(dpi, width, height)`` of a frame: the scene at ``dpi``, or fitted into ``size``.

    >>> from types import SimpleNamespace as NS
    >>> pixel_size(NS(width=960.0, height=540.0))
    (97.5, 1300, 731)
    >>> pixel_size(NS(width=960.0, height=540.0), size=(1920, 1080))
    (144.0, 1920, 1080)
    """
    W, H = scene.width, scene.height
    if size is not None:
        ok = (isinstance(size, (tuple, list)) and len(size) == 2
              and all(isinstance(v, int) and not isinstance(v, bool) and 16 <= v <= LIMIT
                      for v in size))
        if not ok:
            raise OptionError(f"size must be (width, height) in whole pixels from 16 to {LIMIT}, "
                              f"got {size!r}")
        if dpi is not None:
            raise OptionError("give size or dpi, not both: size fits the picture into "
                              "(width, height) pixels and sets the dpi itself")
        return min(size[0] / W, size[1] / H) * 72, int(size[0]), int(size[1])
    if dpi is None:
        dpi = min(DEFAULT_DPI, MAX_SIDE / max(W, H) * 72)
    elif isinstance(dpi, bool) or not isinstance(dpi, (int, float)) or not 10 <= dpi <= 1200:
        raise OptionError(f"dpi must be a number from 10 to 1200, got {dpi!r}")
    w, h = max(1, round(W * dpi / 72)), max(1, round(H * dpi / 72))
    if max(w, h) > LIMIT:
        raise OptionError(f"at dpi={dpi} this picture would be {w} × {h} pixels, more than "
                          f"{LIMIT} on a side; choose a smaller dpi or a size")
    return float(dpi), w, h


def _rounded(x: float, y: float, w: float, h: float, r: float) -> Any:
    """The path of an SVG ``<rect>`` with corner radius ``r`` (clamped as SVG does)."""
    from matplotlib.path import Path

    r = min(r, w / 2, h / 2)
    if r <= 0:
        return Path([(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)], closed=True)
    k = r * (1 - _KAPPA)
    M, L, C = Path.MOVETO, Path.LINETO, Path.CURVE4
    X, Y = x + w, y + h
    verts = [(x + r, y), (X - r, y), (X - k, y), (X, y + k), (X, y + r), (X, Y - r),
             (X, Y - k), (X - k, Y), (X - r, Y), (x + r, Y), (x + k, Y), (x, Y - k), (x, Y - r),
             (x, y + r), (x, y + k), (x + k, y), (x + r, y), (x + r, y)]
    codes = [M, L, C, C, C, L, C, C, C, L, C, C, C, L, C, C, C, Path.CLOSEPOLY]
    return Path(verts, codes)


def _hatch_lines(x: float, y: float, w: float, h: float) -> list[list[tuple[float, float]]]:
    """The SVG hatch pattern's lines over a rect: ``x + y = √2 (1 + 6i)``, 45° up-right."""
    s = math.sqrt(2)
    lo = math.floor(((x + y) / s - 1) / _HATCH) - 1
    hi = math.ceil(((x + w + y + h) / s - 1) / _HATCH) + 1
    out = []
    for i in range(lo, hi + 1):
        c = s * (1 + _HATCH * i)
        out.append([(c - y + 2, y - 2), (c - y - h - 2, y + h + 2)])
    return out


class Picture:
    """The artists of one scene on one figure; see the module doc.

    Args:
        scene: what to draw.
        dpi: pixels per inch (72 points); ``None`` picks :data:`DEFAULT_DPI`,
            lower for very large pictures.
        size: ``(width, height)`` in pixels to fit the picture into instead.
        font: a font file for characters DejaVu Sans lacks (CJK).
        vector: draw at exactly the scene's size in points (for PDF).
        real_text: matplotlib Text artists instead of cached outlines (default: ``vector``).
    """

    def __init__(self, scene: Scene, *, dpi: float | None = None,
                 size: tuple[int, int] | None = None, font: Any = None,
                 vector: bool = False, real_text: bool | None = None) -> None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.transforms import Affine2D

        self.scene = scene
        self.real_text = vector if real_text is None else real_text
        self.fonts = Fonts.find(scene, font)
        if vector:
            self.dpi, w, h = 72.0, scene.width, scene.height
            fig_w, fig_h = w / 72, h / 72
        else:
            self.dpi, w, h = pixel_size(scene, dpi, size)
            # a quarter pixel more, so that int() of the figure's pixel size is exact
            fig_w, fig_h = (w + 0.25) / self.dpi, (h + 0.25) / self.dpi
        self.pixels = (int(w), int(h))
        with rc():
            self.figure = fig = Figure(figsize=(fig_w, fig_h), dpi=self.dpi,
                                       facecolor=scene.theme.background)
            self.canvas = FigureCanvasAgg(fig)
            scale = self.dpi / 72
            ox = (w - scene.width * scale) / 2 / self.dpi
            top = (h - (h - scene.height * scale) / 2) / self.dpi
            self.transform = Affine2D().scale(1 / 72, -1 / 72).translate(ox, top) \
                + fig.dpi_scale_trans
            self._build()
        self.smallest_text_px = min(s.size for s in scene.shapes if s.kind == "text") * scale

    # -- building ------------------------------------------------------------------
    def _build(self) -> None:
        from matplotlib.collections import LineCollection
        from matplotlib.patches import Ellipse, PathPatch, Polygon
        from matplotlib.path import Path
        from matplotlib.text import Text

        th, T, fig = self.scene.theme, self.transform, self.figure
        self.artists: dict[str, Any] = {}
        self.texts: dict[str, Any] = {}
        self.hatches: dict[str, Any] = {}
        order: list[Any] = []
        a: Any
        family = list(self.fonts.families)
        ha = {"start": "left", "middle": "center", "end": "right"}
        for sh in sorted(self.scene.shapes, key=_layer):
            g = sh.geom
            if sh.kind == "text" and self.real_text:  # real text, selectable in a PDF
                a = Text(g[0], g[1], "", fontsize=sh.size, ha=ha[sh.anchor], va="baseline",
                         family=family, transform=T, parse_math=False)
                self.texts[sh.id] = a
            elif sh.kind == "text":  # cached outlines: fast to redraw per frame
                a = PathText(g[0], g[1], "", size=sh.size, anchor=sh.anchor,
                             family=tuple(family), transform=T)
                self.texts[sh.id] = a
            elif sh.kind == "rect":
                a = PathPatch(_rounded(*g), transform=T)
            elif sh.kind == "ellipse":
                a = Ellipse((g[0], g[1]), 2 * g[2], 2 * g[3], transform=T)
            elif sh.kind == "path":
                codes = [Path.MOVETO] + [Path.CURVE4] * (len(g) - 1)
                a = PathPatch(Path(g, codes), fill=False, transform=T)
            else:
                a = Polygon(g, closed=True, transform=T)
            self.artists[sh.id] = a
            order.append(a)
            if sh.cls == "vg-grad-cell":
                lines = LineCollection(_hatch_lines(*g[:4]), colors=th.hatch, linewidths=1.6,
                                       transform=T, visible=False)
                lines.set_clip_path(a)
                order.append(lines)
                self.hatches[sh.id] = lines
        for a in order:  # one zorder: the figure draws them in this order, as the SVG does
            a.set_zorder(1)
            fig.add_artist(a)
        texts = set(self.texts.values())
        self.redraw = Redrawer(self.canvas, order, fixed=[a for a in order if a not in texts],
                               proxies={h: self.artists[sid] for sid, h in self.hatches.items()})
        self.shown: dict[str, dict[str, str]] = {}
        self._kinds = {s.id: s.kind for s in self.scene.shapes}
        for sid in self.artists:
            self._apply(sid, {})

    # -- looks --------------------------------------------------------------------------
    def show(self, look: dict[str, dict[str, str]]) -> None:
        """Make the artists show ``look`` (only the shapes whose look changed are touched)."""
        shown = self.shown
        for sid, lk in look.items():
            if shown.get(sid) != lk and sid in self.artists:
                self._apply(sid, lk)
                shown[sid] = lk

    def _apply(self, sid: str, lk: dict[str, str]) -> None:
        a, kind, set_ = self.artists[sid], self._kinds[sid], self.redraw.set
        hidden = bool(lk.get("hidden"))
        if kind == "text":
            text = lk.get("text", "")
            self.fonts.check(text)
            set_(a, text=text, color=lk.get("fill", "#000"), visible=bool(text) and not hidden,
                 fontweight="bold" if lk.get("bold") else "normal")
            return
        stroke = lk.get("stroke", "")
        on = bool(stroke) and stroke != "none"
        dash = lk.get("dash", "") if on else ""
        style: Any = ((0, tuple(float(v) for v in dash.replace(",", " ").split())) if dash
                      else "solid")
        hatch = bool(lk.get("hatch"))
        if kind == "path":
            fill = "none"
        else:
            fill = self.scene.theme.background if hatch else lk.get("fill", "#000")
        set_(a, facecolor=fill, edgecolor=stroke if on else "none",
             linewidth=float(lk.get("sw") or 1) if on else 0.0, linestyle=style,
             visible=not hidden)
        if sid in self.hatches:
            set_(self.hatches[sid], visible=hatch and not hidden)

    # -- output ----------------------------------------------------------------------------
    def image(self) -> Any:
        """The current picture as an RGB PIL image (drawn incrementally)."""
        self.redraw.draw()
        return self.rgb()

    def rgb(self) -> Any:
        """The canvas as it was last drawn, as an RGB PIL image."""
        from PIL import Image

        w, h = self.canvas.get_width_height()
        rgba = Image.frombuffer("RGBA", (w, h), self.canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
        return rgba.convert("RGB")

    def png(self) -> bytes:
        """The current picture as PNG bytes (deterministic: no time, no software tag)."""
        buf = io.BytesIO()
        self.image().save(buf, format="PNG", dpi=(round(self.dpi), round(self.dpi)),
                          compress_level=6)
        return buf.getvalue()

    def pdf(self) -> bytes:
        """The current picture as a one-page PDF of the scene's size in points."""
        buf = io.BytesIO()
        self.figure.savefig(buf, format="pdf", dpi=72, facecolor=self.scene.theme.background,
                            metadata={"CreationDate": None, "ModDate": None,
                                      "Producer": "vizgrad", "Creator": "vizgrad"})
        return buf.getvalue()


def picture_bytes(scene: Scene, step: int | None, fmt: str, dpi: float | None = None) -> bytes:
    """PNG or PDF bytes of ``scene`` after ``step`` (``None``: final view); for Drawing.save.

    A PNG is drawn at ``dpi`` (default 144, lower for pictures wider than 8192
    pixels); a PDF is vector, the scene's size in points.
    """
    if fmt == "pdf":
        pic = Picture(scene, vector=True)
    elif fmt == "png":
        if dpi is None:
            dpi = min(144.0, 8192 / max(scene.width, scene.height) * 72)
        pic = Picture(scene, dpi=dpi)
    else:
        raise RenderError(f"picture_bytes writes png or pdf, not {fmt!r}")
    with rc():
        pic.show(scene.look(step))
        return pic.pdf() if fmt == "pdf" else pic.png()

"""Place the shapes of a :class:`~vizgrad.scene.scene.Scene` from its layout (once).

Each function takes what it places from: the picture's settings, the plan's fields it
reads and the layout's geometry.

Ids are stable and name what they draw: ``n-v0`` a box, ``t-v0-grad`` its
grad text, ``c-v0-grad`` its grad cell, ``o-v2`` an op circle,
``e-v0-v2-0`` the edge into slot 0 of ``v2``'s op, ``l-…`` its label,
``…-f`` / ``…-b`` its forward and backward arrowheads, ``cap-0`` the caption.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping

from .layout import geometry as gm
from . import ids
from ..style import text as tx
from .matrix import BIAS, Grid, Matrix, slot
from ..style.metrics import width
from .parts import kind as node_kind

if TYPE_CHECKING:
    from ..style.presets import Preset
    from .parts import Settings

__all__ = ["PHASES", "RAW", "ROW", "Shape", "badge_width", "baseline", "op_glyph",
           "place_caption", "place_legend", "place_nodes", "rnd"]

#: the phases a caption's badge names
PHASES = ("inputs", "forward", "seed", "backward", "final")

Point = tuple[float, float]
#: row labels and the phase badge, relative to their text (12 pt in the docs preset)
ROW = 0.86
#: the size of a name that is only an id (``v5``), relative to the font: footnote-sized
RAW = 0.75
_OPS = {"+": "+", "*": "×", "relu": "ReLU", "ReLU": "ReLU"}
_SUPER = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


@dataclass(frozen=True)
class Shape:
    """One thing drawn: ``kind`` is rect, ellipse, text, path or poly.

    ``geom`` is ``(x, y, w, h, rx)`` for a rect, ``(cx, cy, rx, ry)`` for an
    ellipse, ``(x, y)`` of the baseline for text, Bezier control points for a
    path (start, then three points per curve) and corner points for a poly.
    """

    id: str
    kind: str
    geom: tuple[Any, ...]
    cls: str
    size: float = 0.0
    bold: bool = False
    anchor: str = "start"


def op_glyph(op: str) -> str:
    """The text in an op circle: ``×``, ``+``, ``tanh``, ``x²``.

    >>> op_glyph("*"), op_glyph("**2"), op_glyph("**-1"), op_glyph("**0.5")
    ('×', 'x²', 'x⁻¹', 'x^0.5')
    """
    if op.startswith("**"):
        k = op[2:]
        if k.lstrip("-").isdigit():  # whole powers as superscripts
            return "x" + k.translate(_SUPER)
        return "x^" + k.replace("-", tx.MINUS)
    return _OPS.get(op, op)


def rnd(v: float) -> float:
    """A coordinate as written: to the hundredth of a point."""
    return round(v, 2)


def baseline(cy: float, size: float) -> float:
    """The baseline that centres digits and capitals of ``size`` on ``cy``."""
    return rnd(cy + 0.36 * size)


def badge_width(preset: Preset, word: Callable[..., str]) -> float:
    """The width of the phase badge: its widest word, in points."""
    c = preset.caption
    return max(width(word(f"phase.{w}"), c * ROW, True) for w in PHASES) + c


def place_caption(preset: Preset, bw: float, rows: int, x: float, y: float) -> list[Shape]:
    """The phase badge (``bw`` wide) and the caption's ``rows``, the block's top left at
    ``(x, y)``."""
    c = preset.caption
    line = c * 1.45
    out: list[Shape] = []
    add = out.append
    add(Shape(ids.badge(), "rect",
              (rnd(x), rnd(y + 0.1 * c), rnd(bw), rnd(line - 0.2 * c), rnd(line / 2)), "vg-badge"))
    add(Shape(ids.badge_text(), "text", (rnd(x + bw / 2), baseline(y + line / 2, c * ROW)),
              "vg-badge-text", c * ROW, True, "middle"))
    for i in range(rows):
        add(Shape(ids.caption(i), "text",
                  (rnd(x + bw + c * 0.6), baseline(y + line * (i + 0.5), c)),
                  "vg-caption" if i == 0 else "vg-rule", c, i == 0))
    return out


def place_legend(preset: Preset, x: float, y: float, lines: Any) -> list[Shape]:
    """A text row per legend line, the first one's top left at ``(x, y)``."""
    size = preset.legend
    return [Shape(ids.legend(i), "text", (rnd(x), baseline(y + size * 1.45 * (i + 0.5), size)),
                  "vg-legend", size) for i in range(len(lines))]


def _matrix(add: Any, preset: Preset, n: str, m: Matrix, g: Grid, x: float, y: float,
            w: float) -> None:
    """A layer's parameters (:mod:`vizgrad.scene.matrix`), the matrix's top left at
    ``(x, y)`` in a box ``w`` wide: its head line (column names, or its shape), one cell
    per parameter with its grad's text where printed, the neurons' names."""
    size = preset.font * ROW
    left = x + (w - g.width) / 2
    top, mid = y + g.head_h, baseline(y + g.head_h / 2, size)
    x0 = left + g.label_w
    bias_x = x0 + m.cols * g.cell_w + g.gap
    if g.printed:
        for i in range(m.cols):
            add(Shape(ids.text(n, f"mh{i}"), "text", (rnd(x0 + (i + 0.5) * g.cell_w), mid),
                      "vg-row-label", size, False, "middle"))
        if not m.inputs:
            add(Shape(ids.text(n, "mhb"), "text", (rnd(bias_x + g.cell_w / 2), mid),
                      "vg-row-label", size, False, "middle"))
        for row in range(m.rows):
            add(Shape(ids.text(n, f"mr{row}"), "text",
                      (rnd(left + 0.2 * preset.font),
                       baseline(top + (row + 0.5) * g.cell_h, size)), "vg-row-label", size))
    else:
        add(Shape(ids.text(n, "mh"), "text", (rnd(left), mid), "vg-row-label", size))
    inset = 0.5 if g.printed else 0.0 if g.compact else min(0.5, g.cell_w * 0.1)
    for c in m.cells:
        cx = bias_x if c.col == BIAS else x0 + c.col * g.cell_w
        cy = top + c.row * g.cell_h
        add(Shape(ids.cell(n, slot(c)), "rect", (rnd(cx + inset), rnd(cy + inset),
                  rnd(g.cell_w - 2 * inset), rnd(g.cell_h - 2 * inset), 0.0), "vg-grad-cell"))
        if g.printed:
            add(Shape(ids.text(n, slot(c)), "text", (rnd(cx + g.cell_w / 2),
                      baseline(cy + g.cell_h / 2, size)), "vg-grad", size, False, "middle"))
    if m.inputs and m.sample in m.neurons:  # the marked sample's row, outlined
        add(Shape(ids.cell(n, "sel"), "rect", (rnd(x0), rnd(top + m.neurons.index(m.sample)
                                                         * g.cell_h), rnd(m.cols * g.cell_w),
                                                rnd(g.cell_h), 0.0), "vg-grad-cell"))
    if g.foot_h:
        add(Shape(ids.text(n, "mf"), "text", (rnd(left), baseline(y + g.height - g.foot_h / 2,
                                                                  size)), "vg-row-label", size))



def _grad_cells(add: Any, n: str, key: str, count: int, box: tuple[float, ...], first: int,
                below: float, rest: float) -> int:
    """``count`` labelled grad cells of box ``n`` (ids ``{key}0`` …) in one column, or two
    from four on, from row ``first`` of the box (``box``: its left, width, top, row height
    and font size) and ``below`` points lower; the last row ``rest`` taller. Returns how
    many rows they take."""
    x, w, top, line, f = box
    cols = 2 if count >= 4 else 1
    cell_w = (w - 3) / cols
    rows = -(-count // cols)
    for i in range(count):
        row, col = divmod(i, cols)
        row_top = top + line * (first + row) + below
        h = line + (rest if row == rows - 1 else 0)
        x0 = x + 1.5 + col * cell_w
        add(Shape(ids.cell(n, f"{key}{i}"), "rect",
                  (rnd(x0), rnd(row_top), rnd(cell_w), rnd(h), 0.0), "vg-grad-cell"))
        base = baseline(row_top + line / 2, f)
        add(Shape(ids.text(n, f"{key}{i}l"), "text", (rnd(x0 + 0.6 * f - 1.5), base),
                  "vg-row-label", f * ROW))
        add(Shape(ids.text(n, f"{key}{i}"), "text", (rnd(x0 + cell_w - 0.6 * f + 1.5), base),
                  "vg-grad", f, False, "end"))
    return rows


def place_nodes(G: Any, order: Any, preset: Preset, params: Mapping[str, Any],
                inrows: Mapping[str, Any], matrices: Mapping[str, Any],
                ops: Mapping[str, Any], geo: gm.Geometry,
                dx: float, dy: float) -> list[Shape]:
    """Every box of ``order`` with its rows and cells (``params``, ``inrows``, ``matrices``: a
    group box's parameter and input rows, a layer box's matrix and its grid), and every op
    circle of ``ops``, moved by ``(dx, dy)``."""
    f = preset.font
    line = 1.3 * f
    out: list[Shape] = []
    add = out.append
    for n in order:
        cx, cy, w, h = geo.nodes[n]
        cx, cy = cx + dx, cy + dy
        x, y = cx - w / 2, cy - h / 2
        kind = node_kind(G, n)
        cls = f"vg-box vg-{kind}"
        if kind in ("const", "stub"):
            add(Shape(ids.box(n), "rect", (rnd(x), rnd(y), rnd(w), rnd(h), rnd(h / 2)), cls))
            add(Shape(ids.text(n, "name"), "text", (rnd(cx), baseline(cy, f * 0.9)), "vg-name",
                      f * 0.9, False, "middle"))
            continue
        top = y + 0.3 * f
        add(Shape(ids.box(n), "rect", (rnd(x), rnd(y), rnd(w), rnd(h), rnd(f * 0.3)), cls))
        if kind == "inputs" and n in matrices:  # a batch's inputs: a cell each
            add(Shape(ids.text(n, "name"), "text", (rnd(cx), baseline(top + line / 2, f)),
                      "vg-name", f, True, "middle"))
            add(Shape(ids.sep(n), "path", ((rnd(x), rnd(top + line)),) * 2
                      + ((rnd(x + w), rnd(top + line)),) * 2, "vg-rule-line"))
            _matrix(add, preset, n, *matrices[n], x, top + line + 0.15 * f, w)
            continue
        box_params = params.get(n, ())
        ins = inrows.get(n, ())
        rest = 0.3 * f - 1.5  # the last row's cell reaches the box's bottom
        matrix = matrices.get(n)
        last = not box_params and not ins and matrix is None
        add(Shape(ids.cell(n, "grad"), "rect", (rnd(x + 1.5), rnd(top + 2 * line), rnd(w - 3),
                                          rnd(line + (rest if last else 0)), 0.0), "vg-grad-cell"))
        add(Shape(ids.sep(n), "path",
                  ((rnd(x), rnd(top + line)),) * 2 + ((rnd(x + w), rnd(top + line)),) * 2,
                  "vg-rule-line"))
        if tx.raw_name(G, n):  # only an id (v5), a last resort: footnote-sized,
            raw = max(f * RAW, preset.legend)  # as small as the legend, no smaller
            add(Shape(ids.text(n, "name"), "text", (rnd(cx), baseline(top + line / 2, raw)),
                      "vg-name vg-raw", raw, False, "middle"))
        else:
            add(Shape(ids.text(n, "name"), "text", (rnd(cx), baseline(top + line / 2, f)),
                      "vg-name", f, True, "middle"))
        for row, key in ((1, "data"), (2, "grad")):
            base = baseline(top + line * (row + 0.5), f)
            add(Shape(ids.text(n, f"{key[0]}l"), "text", (rnd(x + 0.6 * f), base),
                      "vg-row-label", f * ROW))
            add(Shape(ids.text(n, key), "text", (rnd(x + w - 0.6 * f), base), f"vg-{key}", f, False,
                      "end"))
        # a group box's parameter grads, then what each box feeding this one got back from it
        rows = _grad_cells(add, n, "p", len(box_params), (x, w, top, line, f), 3, 0.0,
                           rest if not ins else 0)
        below = 0.0  # a layer's matrix, under its rows
        if matrix is not None:
            _matrix(add, preset, n, *matrix, x, top + line * 3, w)
            below = matrix[1].height + 0.3 * f
        _grad_cells(add, n, "i", len(ins), (x, w, top, line, f), 3 + rows, below, rest)
        if n in ops:
            ox, oy, ow, oh = geo.nodes[gm.op_id(n)]
            ox, oy = ox + dx, oy + dy
            add(Shape(ids.op(n), "ellipse", (rnd(ox), rnd(oy), rnd(ow / 2), rnd(oh / 2)), "vg-op"))
            glyph = op_glyph(str(G.nodes[n].get("op", "")))
            size = preset.op * (0.8 if len(glyph) > 1 else 1.0)
            add(Shape(ids.text(n, "op"), "text", (rnd(ox), baseline(oy, size)), "vg-op-glyph", size,
                      False, "middle"))
    return out

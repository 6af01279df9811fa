"""A static summary of a training for docs and slides: the loss curve with three steps
marked, and at each of them the net (its parameters' data on one scale for the whole run,
its grads on that step's own scale, the scale's end written) and, for 2-D inputs, the
prediction over the input plane.

It is 1,050 × 590 pt with no text under 16 pt, so it reads at 1,400 px (21 px) and on a
960×540 slide (14.6 pt)::

    >>> from vizgrad.core.nn import MLP
    >>> from vizgrad.training import train
    >>> net = MLP(2, [3, 1], seed=1)
    >>> t = train(lambda: (net([1.0, 2.0]) - 1) ** 2, steps=4, lr=0.1, model=net, detail=[])
    >>> svg = summary_svg(t)
    >>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="1050pt"')
    True
"""

from __future__ import annotations

import html
from typing import Any

from .data import TrainingData
from .page import plane
from ..i18n import catalogue, resolve

__all__ = ["FONT", "HEIGHT", "WIDTH", "marked_steps", "summary_svg", "colour"]

WIDTH, HEIGHT, FONT = 1050, 590, 16


def colour(v: float | None, top: float) -> str:
    """Blue for negative, white for 0, red for positive, saturated at ±``top``."""
    if v is None or v != v or top <= 0:
        return "#eeeeee"
    t = max(-1.0, min(1.0, v / top))
    a = abs(t)
    r = 255 if t > 0 else round(255 - 200 * a)
    b = 255 if t < 0 else round(255 - 200 * a)
    g = round(255 - 170 * a)
    return f"#{r:02x}{g:02x}{b:02x}"


def num(x: float) -> str:
    """A short number with a real minus sign."""
    text = f"{x:.3g}" if x == x else "NaN"
    return text.replace("-", "−")


def marked_steps(n: int) -> list[int]:
    """The three steps a summary shows: the first, the middle and the last."""
    return sorted({0, n // 2, max(n - 1, 0)})


def _text(x: float, y: float, s: str, size: int = FONT, anchor: str = "start",
          weight: str = "normal") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}">{html.escape(s)}</text>')


def _curve(t: TrainingData, ks: list[int], w: dict[str, str]) -> list[str]:
    x0, x1, y0, y1 = 80.0, 470.0, 90.0, 520.0
    losses = [v for v in t.run.losses if v == v]
    hi, lo = max(losses + [0.0]), min(losses + [0.0])
    hi = hi if hi > lo else lo + 1
    n = max(len(t.run.losses) - 1, 1)

    def xy(i: int, v: float) -> tuple[float, float]:
        return x0 + (x1 - x0) * i / n, y1 - (y1 - y0) * (v - lo) / (hi - lo)

    pts = " ".join("{:.1f},{:.1f}".format(*xy(i, v)) for i, v in enumerate(t.run.losses))
    out = [f'<line x1="{x0}" y1="{y1}" x2="{x1}" y2="{y1}" stroke="#888"/>',
           f'<line x1="{x0}" y1="{y0}" x2="{x0}" y2="{y1}" stroke="#888"/>',
           f'<polyline points="{pts}" fill="none" stroke="#1f5fa8" stroke-width="2.5" '
           'shape-rendering="geometricPrecision"/>',
           _text(x0 - 6, y0 + 6, num(hi), anchor="end"),
           _text(x0 - 6, y1 + 6, num(lo), anchor="end"),
           _text(x0, y1 + 28, "0"), _text(x1, y1 + 28, str(n), anchor="end"),
           _text((x0 + x1) / 2, y1 + 28, w["train.axis_step"], anchor="middle"),
           f'<g transform="rotate(-90 {x0 - 52:.1f} {(y0 + y1) / 2:.1f})">'
           + _text(x0 - 52, (y0 + y1) / 2, w["train.loss"], anchor="middle") + "</g>"]
    for k in ks:
        x, y = xy(k, t.run.losses[k])
        out += [f'<circle cx="{x:.1f}" cy="{y:.1f}" r="7" fill="#e67e22" stroke="#000" '
                'shape-rendering="geometricPrecision"/>',
                _text(x, y0 - 14, w["train.at"].format(k=k), anchor="middle" if 0 < k < n
                      else ("start" if k == 0 else "end"))]
    return out


def _cells(values: list[float | None], t: TrainingData, x: float, y: float, top: float,
           size: float) -> tuple[list[str], float]:
    out, i, right = [], 0, x
    for layer in t.net["layers"]:
        for r, neuron in enumerate(layer["neurons"]):
            for c, _ in enumerate(neuron["parameters"]):
                out.append(f'<rect x="{x + c * size:.1f}" y="{y + r * size:.1f}" '
                           f'width="{size:.1f}" height="{size:.1f}" '
                           f'fill="{colour(values[i], top)}"/>')
                i += 1
        wide = max(len(n["parameters"]) for n in layer["neurons"])
        x += wide * size + 4
        right = x
    return out, right


def summary_svg(t: TrainingData, lang: str | None = None) -> str:
    """The summary as SVG text (see the module docstring); the same record, the same bytes."""
    lang = resolve(lang)
    w = catalogue(lang)
    n = len(t.run)
    ks = marked_steps(n) if n else []
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}pt" height="{HEIGHT}pt" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" shape-rendering="crispEdges" '
           'font-family="DejaVu Sans, Noto Sans CJK SC, sans-serif">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#fff"/>']
    if not n:
        return "\n".join(out + [_text(20, 40, t.title), "</svg>"]) + "\n"
    title = w["train.summary"].format(name=t.title, first=num(t.run.losses[0]),
                                      last=num(t.run.losses[-1]), n=n, lr=t.lr)
    out.append(_text(20, 34, title, 20, weight="bold"))
    out += _curve(t, ks, w)
    top = max((abs(v) for row in t.run.data for v in row if v == v), default=1.0)
    wide = max(sum(max(len(nr["parameters"]) for nr in layer["neurons"])
                   for layer in t.net["layers"]), 1)
    tall = max(len(layer["neurons"]) for layer in t.net["layers"])
    grid = plane(t, 20)
    col_w = 180.0
    gaps = 4 * (len(t.net["layers"]) - 1)
    size = max(1.0, min(8.0, (col_w - 14 - gaps) / wide, 110 / tall))
    for j, k in enumerate(ks):
        x = 500 + j * col_w
        y = 70.0
        out.append(_text(x, y, w["train.at"].format(k=k), weight="bold"))
        y += 10
        if grid is not None:
            side = 7.5
            vals = grid["values"][k]
            m = grid["n"]
            out += [f'<rect x="{x + c * side:.1f}" y="{y + (m - 1 - r) * side:.1f}" '
                    f'width="{side + 0.4}" height="{side + 0.4}" '
                    f'fill="{colour(vals[r * m + c], 1.5)}"/>'
                    for r in range(m) for c in range(m)]
            if t.samples is not None:
                for (sx, sy), label in zip(*t.samples):
                    cx = x + (sx - grid["x0"]) / (grid["x1"] - grid["x0"]) * m * side
                    cy = y + m * side - (sy - grid["y0"]) / (grid["y1"] - grid["y0"]) * m * side
                    fill, ring = ("#6b0000", "#fff") if label > 0 else ("#fff", "#0b2a66")
                    out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="3.5" fill="{fill}" '
                               f'stroke="{ring}" stroke-width="1.5" '
                               'shape-rendering="geometricPrecision"/>')
            y += m * side + 10
        cells, _ = _cells(t.run.data[k], t, x, y, top, size)
        out += cells
        y += tall * size + 24
        out.append(_text(x, y, "data ±" + num(top)))
        y += 10
        gtop = max((abs(v) for v in t.run.grads[k] if v == v), default=0.0)
        cells, _ = _cells(t.run.grads[k], t, x, y, gtop, size)
        out += cells
        y += tall * size + 24
        out.append(_text(x, y, "grad ±" + num(gtop)))
    out.append(_text(20, HEIGHT - 12, w["train.colours"]))
    out.append("</svg>")
    return "\n".join(out) + "\n"

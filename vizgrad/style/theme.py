"""Colours for drawings: light and dark themes and the gradient palette.

Gradients are coloured with the ColorBrewer PuOr diverging scheme, which
stays readable with the common colour-vision deficiencies: orange for
negative, purple for positive, stronger for larger ``|grad|`` relative to a
scale. Zero is the plain node fill::

    >>> light = get("light")
    >>> grad_color(0.0, 1.0, light) == light.node_fill
    True
    >>> grad_color(-1.0, 1.0, light), grad_color(1.0, 1.0, light)
    ('#f2b080', '#ae9ecc')
    >>> grad_color(float("nan"), 1.0, light) == light.nan_fill
    True
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from ..exceptions import OptionError

__all__ = ["THEMES", "Theme", "contrast", "edge_color", "get", "grad_color", "mix", "robust_scale"]


@dataclass(frozen=True)
class Theme:
    """Every colour and font a drawing uses (``#rrggbb`` strings)."""

    name: str
    background: str
    text: str
    muted: str  # pending values, off-path nodes, constants
    border: str
    node_fill: str
    op_fill: str
    offpath_fill: str
    edge: str
    active: str  # the one highlight colour: the node acting in the current step
    negative: str  # text and edges for grad < 0 (4.5:1 on the background)
    positive: str  # text and edges for grad > 0
    nan_fill: str
    #: node fills move toward these (default: ``negative`` / ``positive``)
    fill_negative: str = ""
    fill_positive: str = ""
    #: the fill of a collapsed group's box
    group_fill: str = "#eef2f7"
    #: the lines of a "not reached" grad cell
    hatch: str = "#c4c4c4"
    #: a backward step whose code disagrees with its op's rule, a gradient that disagrees
    #: with its central difference: apart from the gradient colours and the highlight
    warning: str = "#c8102e"
    font: str = "Helvetica"
    #: how far a node fill moves toward the strong colour at |grad| = scale
    max_mix: float = 0.6


THEMES = {
    "light": Theme(
        name="light", background="#ffffff", text="#1a1a1a", muted="#6b6b6b",
        border="#4d4d4d", node_fill="#ffffff", op_fill="#f0f0f0", offpath_fill="#f5f5f5",
        edge="#6b6b6b", active="#0072b2", negative="#b35806", positive="#5e3c99",
        nan_fill="#d9d9d9", fill_negative="#e66101", fill_positive="#5e3c99", hatch="#c4c4c4",
        max_mix=0.5,
    ),
    "dark": Theme(
        name="dark", background="#1e1e1e", text="#ececec", muted="#ababab",
        border="#bdbdbd", node_fill="#2b2b2b", op_fill="#3a3a3a", offpath_fill="#262626",
        edge="#a0a0a0", active="#56b4e9", negative="#fdb863", positive="#b2abd2",
        nan_fill="#555555", fill_negative="#e66101", fill_positive="#8073ac", hatch="#555555",
        group_fill="#262d36", warning="#ff6b6b",
        max_mix=0.5,
    ),
}


def get(name: str | Theme) -> Theme:
    """The theme called ``name`` (``"light"`` or ``"dark"``); a Theme passes through."""
    if isinstance(name, Theme):
        return name
    if name not in THEMES:
        raise OptionError(f"unknown theme {name!r}; must be one of {sorted(THEMES)}")
    return THEMES[name]


@functools.lru_cache(maxsize=64)
def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def mix(a: str, b: str, t: float) -> str:
    """The colour ``t`` of the way from ``a`` to ``b`` (0 ≤ t ≤ 1).

    >>> mix("#000000", "#ffffff", 0.5)
    '#808080'
    """
    ra, ga, ba = _rgb(a)
    rb, gb, bb = _rgb(b)
    return "#%02x%02x%02x" % (round(ra + (rb - ra) * t), round(ga + (gb - ga) * t),
                              round(ba + (bb - ba) * t))


def _strength(value: float, scale: float) -> float:
    """0 for zero, 1 at ``|value| >= scale``; small values stay visible."""
    if value == 0:
        return 0.0
    if math.isinf(value) or not scale > 0 or not math.isfinite(scale):
        return 1.0
    ratio = min(abs(value) / scale, 1.0)
    return 0.25 + 0.75 * math.sqrt(ratio)


def grad_color(value: float | None, scale: float, theme: Theme | str = "light") -> str:
    """The node fill for a gradient: neutral at 0, orange below, purple above.

    ``scale`` is the ``|grad|`` that gets the strongest colour (use the largest
    one in the whole trace, so colours do not shift between steps).
    ``None`` (not reached) is the plain fill; nan is grey.
    """
    th = get(theme)
    if value is None:
        return th.node_fill
    if math.isnan(value):
        return th.nan_fill
    if value < 0:
        strong = th.fill_negative or th.negative
    else:
        strong = th.fill_positive or th.positive
    return mix(th.node_fill, strong, th.max_mix * _strength(value, scale))


def edge_color(value: float | None, theme: Theme | str = "light") -> str:
    """The strong palette colour for the sign of a contribution.

    >>> edge_color(-2.0), edge_color(0.5), edge_color(0.0)
    ('#b35806', '#5e3c99', '#6b6b6b')
    """
    th = get(theme)
    if value is None or math.isnan(value) or value == 0:
        return th.edge
    return th.negative if value < 0 else th.positive


def _luminance(color: str) -> float:
    def lin(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = _rgb(color)
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two colours (1 to 21).

    >>> round(contrast("#000000", "#ffffff"), 1), round(contrast("#b35806", "#ffffff"), 2)
    (21.0, 4.87)
    """
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def robust_scale(values: list[float]) -> float:
    """The |grad| that gets the full colour: the 80th percentile of the nonzero finite
    ``|values|``, to two significant digits, so one outlier does not wash out the rest.

    >>> robust_scale([0.1, -0.2, 0.3, 0.25, -23.9])
    0.3
    >>> robust_scale([]), robust_scale([0.0])
    (1.0, 1.0)
    """
    mags = sorted(abs(v) for v in values if v == v and v not in (0, float("inf"), float("-inf")))
    if not mags:
        return 1.0
    pick = mags[int(0.8 * (len(mags) - 1))]
    return float(f"{pick:.2g}")

"""Colours for drawings: light and dark themes and the gradient palette.

Gradients are coloured with the ColorBrewer PuOr diverging scheme, which
stays readable with the common colour-vision deficiencies: orange for
negative, purple for positive, stronger for larger ``|grad|`` relative to a
scale. Zero is the plain node fill::

    >>> light = get("light")
    >>> grad_color(0.0, 1.0, light) == light.node_fill
    True
    >>> grad_color(-1.0, 1.0, light), grad_color(1.0, 1.0, light)
    ('#f0a067', '#9e8ac2')
    >>> grad_color(float("nan"), 1.0, light) == light.nan_fill
    True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..exceptions import OptionError

__all__ = ["THEMES", "Theme", "edge_color", "get", "grad_color", "mix"]


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
    active: str  # the node acting in the current step
    negative: str  # strong end of the palette for grad < 0
    positive: str  # strong end of the palette for grad > 0
    nan_fill: str
    #: node fills move toward these (default: ``negative`` / ``positive``)
    fill_negative: str = ""
    fill_positive: str = ""
    font: str = "Helvetica"
    #: how far a node fill moves toward the strong colour at |grad| = scale
    max_mix: float = 0.6


THEMES = {
    "light": Theme(
        name="light", background="#ffffff", text="#1a1a1a", muted="#8c8c8c",
        border="#4d4d4d", node_fill="#ffffff", op_fill="#f0f0f0", offpath_fill="#f5f5f5",
        edge="#595959", active="#009e73", negative="#e66101", positive="#5e3c99",
        nan_fill="#d9d9d9",
    ),
    "dark": Theme(
        name="dark", background="#1e1e1e", text="#ececec", muted="#8a8a8a",
        border="#bdbdbd", node_fill="#2b2b2b", op_fill="#3a3a3a", offpath_fill="#262626",
        edge="#b0b0b0", active="#35d0a5", negative="#fdb863", positive="#b2abd2",
        nan_fill="#555555", fill_negative="#e66101", fill_positive="#8073ac", max_mix=0.6,
    ),
}


def get(name: str | Theme) -> Theme:
    """The theme called ``name`` (``"light"`` or ``"dark"``); a Theme passes through."""
    if isinstance(name, Theme):
        return name
    if name not in THEMES:
        raise OptionError(f"unknown theme {name!r}; must be one of {sorted(THEMES)}")
    return THEMES[name]


def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def mix(a: str, b: str, t: float) -> str:
    """The colour ``t`` of the way from ``a`` to ``b`` (0 ≤ t ≤ 1).

    >>> mix("#000000", "#ffffff", 0.5)
    '#808080'
    """
    ra, ga, ba = _rgb(a)
    rb, gb, bb = _rgb(b)
    return "#{:02x}{:02x}{:02x}".format(*(round(x + (y - x) * t) for x, y in
                                         ((ra, rb), (ga, gb), (ba, bb))))


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
    ('#e66101', '#5e3c99', '#595959')
    """
    th = get(theme)
    if value is None or math.isnan(value) or value == 0:
        return th.edge
    return th.negative if value < 0 else th.positive

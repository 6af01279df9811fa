"""One place that turns an option block into pictures, for docs and notebooks.

The Sphinx directive, the Markdown extension and the notebook display all
read the same options (an expression with ``values`` or an ``example``, a
``step``, ``player``, ``animated``, ``preset``, ``lang``, ``caption``, ...)
and produce the same outputs through this module::

    >>> spec = parse_options({"values": "a=-2, b=3", "step": "final"}, "(a*b)*(a+b)")
    >>> spec.values, spec.step
    ((('a', -2.0), ('b', 3.0)), 'final')
    >>> out = render(spec)
    >>> out.kind, out.text.startswith("<?xml"), out.alt
    ('svg', True, '(a*b)*(a+b) at a=-2, b=3, the final view')
    >>> parse_options({"values": "a=two"}, "a*2")
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.OptionError: values: 'a=two' is not a number; write values as a=-2, b=3

The drawing options (``preset``, ``theme``, ``collapse``, ...) are those of
:mod:`vizgrad.options`, read by :func:`vizgrad.options.from_text`; a step counts
the graph's own steps, and ``final`` is the final view, as everywhere.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import math
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from .html import (ERROR_STYLE, Rendered, error_html, figure_html, iframe_html, natural_width,
                          player_height)
from ..core.inputs import parse_values as read_values
from ..exceptions import OptionError
from ..options import OPTIONS as OPTION_HELP
from ..options import NO_STEP, Options, from_text, options_for, parse_step, resolve_step
from ..style.presets import Preset
from ..style.presets import get as get_preset

__all__ = ["OPTIONS", "FLAGS", "COLUMN", "Spec", "Rendered", "parse_options", "parse_values",
           "graph", "render", "kind", "alt_text", "digest", "figure_html", "iframe_html",
           "player_height", "column_preset", "natural_width", "error_html", "ERROR_STYLE"]

#: the drawing options a document may set, all read by :func:`vizgrad.options.from_text`
DRAWING = ("preset", "lang", "theme", "rankdir", "decimals", "trim", "legend", "collapse",
           "focus", "radius", "group_steps", "merge_constants")
#: every option a directive or fenced block accepts, with a short description
OPTIONS = {
    "values": "input values, as a=-2, b=3",
    "example": "a chapter example instead of an expression (vizgrad examples)",
    "step": "the step to show (a number, first, last or final: the final view); with player, "
            "the first step shown",
    "player": "an interactive step player instead of one picture",
    "animated": "one animated SVG of every step",
    "caption": "a caption under the picture",
    **{k: OPTION_HELP[k].help for k in DRAWING},
}
#: the width (CSS px) of the docs column a picture is drawn for, unless the site says
#: (Sphinx ``vizgrad_column_width``, the Markdown extension's ``column_width``): Alabaster's
#: body is 660 px wide at most; MkDocs' themes are wider
COLUMN = 640.0
#: options that are on or off; given without a value they are on
FLAGS = ("player", "animated")
_TRUE = {"", "true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True)
class Spec:
    """What to draw and how: hashable, so outputs can be cached and named by it."""

    expression: str | None = None
    example: str | None = None
    values: tuple[tuple[str, float], ...] = ()
    step: int | str | None = None
    player: bool = False
    animated: bool = False
    caption: str | None = None
    #: the drawing options set, as text, in :data:`DRAWING` order
    drawing: tuple[tuple[str, str], ...] = ()
    #: the width (CSS px) of the column the picture is shown in; None: no column
    column: float | None = None

    def options(self) -> Options:
        """The drawing options, checked, with the player's defaults for a player; the docs
        preset is fitted to :attr:`column`."""
        given = from_text(dict(self.drawing), "a vizgrad block")
        base = options_for("player" if self.player else "draw", None, {})
        opts = base.replace(**{k: getattr(given, k) for k, _ in self.drawing})
        if self.column is not None and opts.preset == "docs":
            opts = opts.replace(preset=column_preset(self.column))
        return opts


def column_preset(column: float) -> Preset:
    """The docs preset for a column ``column`` CSS px wide: text of 9 pt (12 px) or more
    there, so a picture that is too wide turns top to bottom when that reads better.

    >>> column_preset(640).fit
    (480.0, None, 9.0)
    """
    if not (math.isfinite(column) and column >= 200):
        raise OptionError(f"column width: {column!r} px is too narrow; give 200 px or more")
    docs = get_preset("docs")
    return dataclasses.replace(docs, fit=(column * 0.75, None, docs.fit[2] if docs.fit else 9.0))


def parse_values(text: str) -> tuple[tuple[str, float], ...]:
    """``"a=-2, b=3"`` as ``(("a", -2.0), ("b", 3.0))``.

    >>> parse_values("x = 1.5e3")
    (('x', 1500.0),)
    """
    try:  # the rule every entry shares (vizgrad.core.inputs)
        return tuple(read_values(text).items())
    except OptionError as err:
        raise OptionError(f"values: {err}") from None


def _flag(key: str, raw: str | None) -> bool:
    text = "" if raw is None else str(raw).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise OptionError(f"{key}: expected no value, true or false, got {raw!r}")


def parse_options(options: Mapping[str, str | None], expression: str | None = None,
                  column: float | None = None) -> Spec:
    """Check an option block (text values, as written in a document) and return a :class:`Spec`.

    ``expression`` is the directive's argument or the fenced block's expression; ``column``
    the width (CSS px) of the docs column it is shown in.
    """
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise OptionError(f"unknown option {', '.join(map(repr, unknown))}; "
                          f"the options are: {', '.join(OPTIONS)}")
    expression = (expression or "").strip() or None
    fields: dict[str, Any] = {"expression": expression}
    drawing: dict[str, str] = {}
    for key, raw in options.items():
        if key in FLAGS:
            fields[key] = _flag(key, raw)
            continue
        text = "" if raw is None else str(raw).strip()
        if not text:
            raise OptionError(f"{key}: needs a value ({OPTIONS[key]})")
        if key == "values":
            fields[key] = parse_values(text)
        elif key == "step":
            fields[key] = parse_step(text)
        elif key in DRAWING:
            drawing[key] = text
        else:
            fields[key] = text
    fields["drawing"] = tuple((k, drawing[k]) for k in DRAWING if k in drawing)
    fields["column"] = None if column is None else float(column)
    spec = Spec(**fields)
    if (spec.expression is None) == (spec.example is None):
        raise OptionError("give either an expression, such as (a*b)*(a+b) with values a=-2, b=3, "
                          "or an example name (example: fork), not both" if spec.expression
                          else "nothing to draw: give an expression, such as (a*b)*(a+b), "
                               "or an example name (example: fork)")
    if spec.player and spec.animated:
        raise OptionError("player and animated exclude each other: choose one")
    spec.options()  # every drawing option is checked now, not when drawing
    return spec


@functools.lru_cache(maxsize=64)
def graph(spec: Spec) -> Any:
    """The traced graph ``spec`` names: an expression after ``backward()``, or an example
    (not yet collapsed: steps count its own)."""
    from ..graph import examples
    from ..graph.expression import expression_graph

    values = dict(spec.values)
    if spec.example is not None:
        return examples.graph(spec.example, **values)
    return expression_graph(spec.expression or "", values)  # f, as the CLI and lab


def kind(spec: Spec) -> str:
    """What :func:`render` makes of ``spec``: ``svg``, ``animated`` or ``player``."""
    return "player" if spec.player else "animated" if spec.animated else "svg"


def alt_text(spec: Spec) -> str:
    """A text alternative: what is drawn, at which values and step (no layout runs).

    >>> alt_text(Spec(example="fork", step=3))
    'example fork, step 3 of 7'
    >>> alt_text(Spec(example="fork", animated=True))
    'example fork, animated: steps 0 to 7, then the final view'
    """
    G = graph(spec)
    o = spec.options()
    if o.collapse not in ("auto", None, False) or o.focus is not None:  # the view's steps
        from ..scene.prepare import prepare

        G = prepare(G, o, check_size=False).graph
    last = len(G.graph["steps"]) - 1
    step = resolve_step(spec.step, last, NO_STEP["player" if spec.player else "picture"])
    what = f"example {spec.example}" if spec.example is not None else str(spec.expression)
    if spec.values:
        what += " at " + ", ".join(f"{k}={v:g}" for k, v in spec.values)
    if spec.animated:
        return f"{what}, animated: steps 0 to {last}, then the final view"
    if step is None:
        return f"{what}, the final view" + ("" if G.graph.get("backward_ran", True)
                                            else f" (after the forward pass, step "
                                                 f"{G.graph['default_step']} of {last})")
    return f"{what}, step {step} of {last}"


@functools.lru_cache(maxsize=64)
def render(spec: Spec) -> Rendered:
    """The output ``spec`` asks for: one SVG, an animated SVG or a player page (cached)."""
    from ..player.page import player_html
    from ..write.svg import draw

    G = graph(spec)
    alt = alt_text(spec)
    if spec.player:
        page = player_html(G, spec.step, options=spec.options())
        return Rendered("player", page, alt, spec.caption)
    drawing = draw(G, spec.step, options=spec.options())
    if spec.animated:
        return Rendered("animated", drawing.animated_svg(), alt, spec.caption)
    return Rendered("svg", drawing.svg(), alt, spec.caption)


def digest(spec: Spec) -> str:
    """A short name for the output of ``spec`` with this vizgrad version (for file names).

    >>> digest(Spec(example="fork")) == digest(Spec(example="fork"))
    True
    """
    from .. import __version__

    key = repr((__version__, sorted(asdict(spec).items())))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]

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
    ('svg', True, '(a*b)*(a+b) at a=-2, b=3, step 7 of 7')
    >>> parse_options({"values": "a=two"}, "a*2")
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.OptionError: values: 'a=two' is not a number; write values as a=-2, b=3

Options a newer :func:`vizgrad.draw` accepts (``preset``, ``lang``) are
passed on only when the installed ``draw`` has them; otherwise they raise a
clear :class:`~vizgrad.exceptions.OptionError`.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import inspect
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any, cast

from .exceptions import OptionError

__all__ = ["OPTIONS", "FLAGS", "Spec", "Rendered", "parse_options", "parse_values", "graph",
           "render", "kind", "alt_text", "digest", "figure_html", "iframe_html", "player_height"]

#: every option a directive or fenced block accepts, with a short description
OPTIONS = {
    "values": "input values, as a=-2, b=3",
    "example": "a chapter example instead of an expression (vizgrad examples)",
    "step": "the step to show (a number, first or final); with player, the first step shown",
    "player": "an interactive step player instead of one picture",
    "animated": "one animated SVG of every step",
    "preset": "a picture preset: docs, slides or compact",
    "lang": "the language of captions: en or zh",
    "caption": "a caption under the picture",
    "theme": "light or dark",
    "rankdir": "LR (left to right) or TB (top to bottom)",
    "decimals": "digits after the decimal point",
    "collapse": "draw each group as one box: auto, none, neuron, layer or a group depth",
}
#: options that are on or off; given without a value they are on
FLAGS = ("player", "animated")
_TRUE = {"", "true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}
_NEWER = ("preset", "lang")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Spec:
    """What to draw and how: hashable, so outputs can be cached and named by it."""

    expression: str | None = None
    example: str | None = None
    values: tuple[tuple[str, float], ...] = ()
    step: int | str | None = None
    player: bool = False
    animated: bool = False
    preset: str | None = None
    lang: str | None = None
    caption: str | None = None
    theme: str | None = None
    rankdir: str | None = None
    decimals: int | None = None
    collapse: str | int | bool | None = None


@dataclass(frozen=True)
class Rendered:
    """One output: ``kind`` is ``svg``, ``animated`` (both SVG text) or ``player`` (a page)."""

    kind: str
    text: str
    alt: str
    caption: str | None

    @property
    def suffix(self) -> str:
        """The file suffix of :attr:`text`."""
        return ".html" if self.kind == "player" else ".svg"


def parse_values(text: str) -> tuple[tuple[str, float], ...]:
    """``"a=-2, b=3"`` as ``(("a", -2.0), ("b", 3.0))``.

    >>> parse_values("x = 1.5e3")
    (('x', 1500.0),)
    """
    out: dict[str, float] = {}
    for part in (p.strip() for p in text.replace(";", ",").split(",")):
        if not part:
            continue
        key, eq, raw = (s.strip() for s in part.partition("="))
        if not eq or not _NAME.fullmatch(key):
            raise OptionError(f"values: {part!r} is not name=number; write values as a=-2, b=3")
        if key in out:
            raise OptionError(f"values: {key!r} is given twice")
        try:
            number = float(raw)
        except ValueError:
            raise OptionError(f"values: {part!r} is not a number; "
                              "write values as a=-2, b=3") from None
        if not math.isfinite(number):
            raise OptionError(f"values: {part!r} must be a finite number")
        out[key] = number
    return tuple(out.items())


def _flag(key: str, raw: str | None) -> bool:
    text = "" if raw is None else str(raw).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise OptionError(f"{key}: expected no value, true or false, got {raw!r}")


def _level(raw: str) -> str | int | bool:
    """A collapse level as written: ``neuron``, ``layer``, ``auto``, ``none`` or a depth."""
    text = raw.strip().lower()
    if text in ("neuron", "layer", "auto"):
        return text
    if text in ("none", "off", "false", "no"):
        return False
    if text.isdigit() and int(text) >= 1:
        return int(text)
    raise OptionError(f"collapse: expected auto, none, neuron, layer or a group depth, "
                      f"got {raw!r}")


def _step(raw: str) -> int | str:
    text = raw.strip().lower()
    if text in ("final", "last", "first"):
        return "final" if text == "last" else text
    if text.isdigit():
        return int(text)
    raise OptionError(f"step: expected a step number, first or final, got {raw!r}")


def parse_options(options: Mapping[str, str | None], expression: str | None = None) -> Spec:
    """Check an option block (text values, as written in a document) and return a :class:`Spec`.

    ``expression`` is the directive's argument or the fenced block's expression.
    """
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise OptionError(f"unknown option {', '.join(map(repr, unknown))}; "
                          f"the options are: {', '.join(OPTIONS)}")
    expression = (expression or "").strip() or None
    fields: dict[str, Any] = {"expression": expression}
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
            fields[key] = _step(text)
        elif key == "decimals":
            if not text.isdigit():
                raise OptionError(f"decimals: expected a whole number from 0 to 12, got {text!r}")
            fields[key] = int(text)
        elif key == "collapse":
            fields[key] = _level(text)
        else:
            fields[key] = text
    spec = Spec(**fields)
    if (spec.expression is None) == (spec.example is None):
        raise OptionError("give either an expression, such as (a*b)*(a+b) with values a=-2, b=3, "
                          "or an example name (example: fork), not both" if spec.expression
                          else "nothing to draw: give an expression, such as (a*b)*(a+b), "
                               "or an example name (example: fork)")
    if spec.player and spec.animated:
        raise OptionError("player and animated exclude each other: choose one")
    _check_supported(spec)
    return spec


def _check_supported(spec: Spec) -> None:
    """Refuse drawing options the renderers would refuse, now rather than when drawing."""
    from .render.scene import RANKDIRS
    from .render.theme import get as get_theme

    if spec.theme is not None:
        get_theme(spec.theme)
    if spec.rankdir is not None and spec.rankdir not in RANKDIRS:
        raise OptionError(f"rankdir must be one of {', '.join(RANKDIRS)}, got {spec.rankdir!r}")
    if spec.decimals is not None and spec.decimals > 12:
        raise OptionError(f"decimals must be a whole number from 0 to 12, got {spec.decimals}")
    if spec.player:
        _kwargs(spec, _player_params(), "the player")
    else:
        _kwargs(spec, _draw_params(), "a picture")
    if spec.animated and not _has_animated_svg():
        raise OptionError("animated: this version of vizgrad cannot write animated SVG; "
                          "use player for an interactive step player, or upgrade vizgrad")


@functools.cache
def _has_animated_svg() -> bool:
    from .render.svg import Drawing

    return hasattr(Drawing, "animated_svg")


@functools.lru_cache(maxsize=64)
def graph(spec: Spec) -> Any:
    """The traced graph ``spec`` names (an expression after ``backward()``, or an example),
    collapsed as ``spec`` asks."""
    from . import examples
    from .graph import to_networkx
    from .tracing import trace

    values = dict(spec.values)
    if spec.example is not None:
        G = examples.graph(spec.example, **values)
    else:
        from .expr import parse

        root = parse(spec.expression or "", **values)
        root.backward()
        G = to_networkx(trace(root))
    if spec.collapse is not None:  # steps then count the collapsed graph's
        from .render.svg import shrink

        G, _ = shrink(G, collapse=spec.collapse)
    return G


def _accepts(fn: Callable[..., Any]) -> frozenset[str]:
    return frozenset(inspect.signature(fn).parameters)


@functools.cache
def _draw_params() -> frozenset[str]:
    from .render.svg import draw

    return _accepts(draw)


@functools.cache
def _player_params() -> frozenset[str]:
    from .render.html import player_html

    return _accepts(player_html)


def _kwargs(spec: Spec, accepted: frozenset[str], what: str) -> dict[str, Any]:
    out = {k: v for k, v in (("theme", spec.theme), ("rankdir", spec.rankdir),
                             ("decimals", spec.decimals)) if v is not None}
    for key in _NEWER:
        value = getattr(spec, key)
        if value is None:
            continue
        if key not in accepted:
            raise OptionError(f"{key}: this version of vizgrad cannot set a {key} for {what}; "
                              f"leave the {key} option out or upgrade vizgrad")
        out[key] = value
    return out


def _resolve_step(spec: Spec, G: Any) -> int | None:
    last = len(G.graph["steps"]) - 1
    if spec.step is None:
        return None
    if spec.step == "final":
        return last
    if spec.step == "first":
        return 0
    if not isinstance(spec.step, int) or not 0 <= spec.step <= last:
        raise OptionError(f"step: this graph has steps 0 to {last} (or first, final), "
                          f"got {spec.step!r}")
    return spec.step


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
    step = _resolve_step(spec, G)
    last = len(G.graph["steps"]) - 1
    if step is None:
        step = 0 if spec.player else int(G.graph["default_step"])
    what = f"example {spec.example}" if spec.example is not None else str(spec.expression)
    if spec.values:
        what += " at " + ", ".join(f"{k}={v:g}" for k, v in spec.values)
    if spec.animated:
        return f"{what}, animated: steps 0 to {last}, then the final view"
    return f"{what}, step {step} of {last}"


@functools.lru_cache(maxsize=64)
def render(spec: Spec) -> Rendered:
    """The output ``spec`` asks for: one SVG, an animated SVG or a player page (cached)."""
    from .render.html import player_html
    from .render.svg import draw

    G = graph(spec)
    step = _resolve_step(spec, G)
    alt = alt_text(spec)
    if spec.player:
        page = player_html(G, start=step or 0, **_kwargs(spec, _player_params(), "the player"))
        return Rendered("player", page, alt, spec.caption)
    drawing = draw(G, step, **_kwargs(spec, _draw_params(), "a picture"))
    if spec.animated:
        animated = cast(Any, drawing).animated_svg()  # a newer Drawing has it
        return Rendered("animated", animated, alt, spec.caption)
    return Rendered("svg", drawing.svg(), alt, spec.caption)


def digest(spec: Spec) -> str:
    """A short name for the output of ``spec`` with this vizgrad version (for file names).

    >>> digest(Spec(example="fork")) == digest(Spec(example="fork"))
    True
    """
    from . import __version__

    key = repr((__version__, sorted(asdict(spec).items()), sorted(_draw_params())))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]


_SVG_HEIGHT = re.compile(r'<svg\b[^>]*?\sheight="([0-9.]+)(pt|px)?"')


def player_height(page: str) -> int:
    """An iframe height (CSS px) that shows a player page's tallest picture and its table.

    >>> player_height('<svg width="10pt" height="150pt"><tr data-node="v0">')
    629
    """
    tallest = 0.0
    for number, unit in _SVG_HEIGHT.findall(page):
        tallest = max(tallest, float(number) * (4 / 3 if unit != "px" else 1.0))
    rows = page.count("<tr data-node=")
    sections = max(1, page.count('class="step'))
    return int(min(1600, max(320, tallest + 29 * rows / sections + 400)))


def iframe_html(page: str, title: str, *, src: str | None = None) -> str:
    """An ``<iframe>`` that holds a player page: inline (``srcdoc``) or from ``src``.

    The frame is sandboxed with scripts only: its page keeps its own ids, styles,
    keys and Content-Security-Policy, so several players on one page never meet.
    Its box starts at :func:`player_height` and the reader can drag it taller.
    """
    e = html.escape
    where = f'src="{e(src)}"' if src is not None else f'srcdoc="{e(page)}"'
    return (f'<div class="vizgrad-frame" style="resize:vertical;overflow:hidden;'
            f'height:{player_height(page)}px;border:1px solid #d1d9e0;border-radius:6px">'
            f'<iframe class="vizgrad-player" {where} sandbox="allow-scripts" '
            f'title="{e(title)}" loading="lazy" '
            f'style="display:block;width:100%;height:100%;border:0"></iframe></div>')


def figure_html(out: Rendered, *, src: str | None = None) -> str:
    """The HTML a document shows for ``out``: a ``<figure>`` with an optional caption.

    Without ``src`` it is self-contained (the SVG as a data: URL, the player
    inline); with ``src`` it points at the file written there.
    """
    e = html.escape
    if out.kind == "player":
        body = iframe_html(out.text, f"step player: {out.alt}", src=src)
    else:
        if src is None:
            src = "data:image/svg+xml;base64," + base64.b64encode(out.text.encode("utf-8")).decode()
        body = f'<img src="{e(src)}" alt="{e(out.alt)}" style="max-width:100%;height:auto">'
    cap = f"<figcaption>{e(out.caption)}</figcaption>" if out.caption else ""
    return f'<figure class="vizgrad vizgrad-{out.kind}">{body}{cap}</figure>'

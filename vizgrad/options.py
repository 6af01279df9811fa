"""Every drawing option, once: its default, its check, its help text, and what "final" means.

:class:`Options` is the one model that :func:`vizgrad.draw`, :func:`vizgrad.player_html`,
:func:`vizgrad.frames`, :func:`vizgrad.animate`, :func:`vizgrad.show`, the
command line, the Sphinx and Markdown embeds and the lab read. It is frozen and
checked when made, so an :class:`Options` is always valid::

    >>> o = Options(preset="slides", collapse="none")
    >>> o.preset, o.collapse, o.decimals
    ('slides', False, None)
    >>> Options(decimals=13)
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.OptionError: decimals must be a whole number from 0 to 12, got 13
    >>> o.replace(theme="dark").theme
    'dark'

Text, as written on a command line or in a document, is read by :func:`from_text`:

    >>> from_text({"collapse": "neuron", "radius": "1", "caption": "off"})
    Options(caption=False, collapse='neuron', radius=1)

A step is a whole number, ``"final"`` (the final view: every contribution on its edge,
every grad final), ``"first"`` (step 0) or ``"last"`` (the last step); :func:`resolve_step`
is the one place that reads it. ``None`` means the entry point's own default.

This module is the front door; the parts live in :mod:`vizgrad._options`: the table of
every option and its check (``table``), what a step means (``steps``) and the ranges of the
numbers that bound a run (``ranges``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from ._options.ranges import DEFAULT_H, NUMBER_RANGES, number_in_range
from ._options.steps import FINAL, NO_STEP, StepArg, parse_step, resolve_step
from ._options.table import (BACKENDS, DEFAULT_MAX_NODES, DEFAULT_TIMEOUT, ENTRY_DEFAULTS,
                             OPTIONS, Option)
from .exceptions import OptionError
from .style.presets import Preset
from .style.theme import Theme

__all__ = ["BACKENDS", "DEFAULT_H", "DEFAULT_MAX_NODES", "DEFAULT_TIMEOUT", "ENTRY_DEFAULTS",
           "FINAL", "OPTIONS", "NO_STEP", "NUMBER_RANGES", "Option", "Options", "number_in_range",
           "StepArg", "from_text", "options_for", "parse_step", "resolve_step"]


@dataclass(frozen=True, repr=False)
class Options:
    """Every drawing option, checked; see :data:`OPTIONS` for what each one means."""

    preset: str | Preset = "docs"
    theme: str | Theme = "light"
    rankdir: str | None = None
    decimals: int | None = None
    trim: bool | None = None
    lang: str | None = None
    caption: bool = True
    legend: bool = True
    backend: str | None = None
    timeout: float = DEFAULT_TIMEOUT
    max_nodes: int = DEFAULT_MAX_NODES
    collapse: Any = "auto"
    focus: str | None = None
    radius: int = 2
    group_steps: str = "merge"
    merge_constants: Any = None
    model: Any = None
    sample: int | str = 0

    def __post_init__(self) -> None:
        for f in fields(self):
            object.__setattr__(self, f.name, OPTIONS[f.name].check(getattr(self, f.name)))

    def __repr__(self) -> str:
        changed = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                   if getattr(self, f.name) != OPTIONS[f.name].default]
        return f"Options({', '.join(changed)})"

    def replace(self, **changes: Any) -> Options:
        """These options with ``changes``; an unknown name is an :class:`OptionError`."""
        _known(changes, "Options")
        return replace(self, **changes)

    def scene(self) -> dict[str, Any]:
        """What a scene takes: the look and the layout."""
        return {k: getattr(self, k) for k in ("preset", "theme", "rankdir", "decimals", "trim",
                                              "lang", "caption", "legend", "backend", "timeout")}


def _known(given: Mapping[str, Any], where: str) -> None:
    unknown = sorted(set(given) - set(OPTIONS))
    if unknown:
        raise OptionError(f"{where} has no option {unknown[0]!r}; the options are: "
                          f"{', '.join(OPTIONS)}")


def options_for(entry: str, options: Options | None, overrides: Mapping[str, Any]) -> Options:
    """The options an entry point (``"draw"``, ``"player"``, ...) works with: ``options``,
    or its defaults (:data:`ENTRY_DEFAULTS`), with ``overrides`` on top.

    >>> options_for("player", None, {"theme": "dark"})
    Options(theme='dark', collapse=False)
    >>> options_for("draw", None, {"colour": "red"})
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.OptionError: draw() has no option 'colour'; the options are: preset, ...
    """
    _known(overrides, f"{entry}()")
    if options is not None and not isinstance(options, Options):
        raise OptionError(f"options must be a vizgrad.options.Options, got {options!r}")
    base = options if options is not None else Options(**ENTRY_DEFAULTS.get(entry, {}))
    return replace(base, **overrides) if overrides else base


_TRUE, _FALSE = {"true", "yes", "on", "1"}, {"false", "no", "off", "0"}


def _read(name: str, raw: str) -> Any:
    """One option's value from text (``"2"`` → 2, ``"off"`` → False, ``"3"`` → depth 3)."""
    text = raw.strip()
    low = text.lower()
    if name in ("caption", "legend", "trim"):
        if low in _TRUE | _FALSE:
            return low in _TRUE
        raise OptionError(f"{name}: expected true or false, got {raw!r}")
    if name in ("decimals", "radius", "max_nodes") or (name in ("collapse", "merge_constants",
                                                                "sample") and low.isdigit()):
        if not low.isdigit():
            raise OptionError(f"{name}: expected a whole number, got {raw!r}")
        return int(low)
    if name == "timeout":
        try:
            return float(text)
        except ValueError:
            raise OptionError(f"timeout: expected a number of seconds, got {raw!r}") from None
    if name in ("collapse", "merge_constants", "preset", "theme", "group_steps", "lang",
                "backend", "sample"):
        return low
    if name == "rankdir":
        return text.upper()
    return text


def from_text(given: Mapping[str, str], where: str = "the options") -> Options:
    """:class:`Options` from text values, as a command line or a document writes them."""
    _known(given, where)
    if "model" in given:
        raise OptionError("model names a Python object; it cannot be given as text")
    return Options(**{k: _read(k, v) for k, v in given.items()})


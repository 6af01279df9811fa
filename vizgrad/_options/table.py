"""Every drawing option's row: its name, default, check, help text and command-line flag.

:data:`OPTIONS` is the table the model :class:`vizgrad.options.Options`, ``--help``, the
docs, the embeds and the lab read; each check turns a value into its checked form or raises
:class:`~vizgrad.exceptions.OptionError`::

    >>> OPTIONS["collapse"].check("none"), OPTIONS["rankdir"].choices
    (False, ('LR', 'TB'))
    >>> OPTIONS["radius"].check(-1)
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.OptionError: radius must be a whole number ≥ 0, got -1
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..graph.samples import check as _sample
from ..graph.collapse import AUTO_NODES, LEVELS
from ..exceptions import OptionError
from ..i18n import languages
from ..style.presets import PRESETS, Preset
from ..style.theme import THEMES, Theme

__all__ = ["BACKENDS", "DEFAULT_MAX_NODES", "DEFAULT_TIMEOUT", "ENTRY_DEFAULTS", "OPTIONS",
           "Option"]

#: the layout programs: the embedded Graphviz (WebAssembly) or the system's ``dot``
BACKENDS = ("embedded", "system")
#: Seconds a single layout may run before :class:`~vizgrad.exceptions.LayoutTimeoutError`.
DEFAULT_TIMEOUT = 60.0

#: Value nodes a drawing accepts unless ``max_nodes`` is raised.
DEFAULT_MAX_NODES = 2000


def _choice(name: str, choices: tuple[Any, ...], kind: type | None = None) -> Callable[[Any], Any]:
    def check(v: Any) -> Any:
        if (kind is not None and isinstance(v, kind)) or v in choices:
            return v
        raise OptionError(f"{name} must be one of {', '.join(map(str, choices))}, got {v!r}")
    return check


def _maybe(check: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda v: None if v is None else check(v)


def _bool(name: str) -> Callable[[Any], bool]:
    def check(v: Any) -> bool:
        if not isinstance(v, bool):
            raise OptionError(f"{name} must be True or False, got {v!r}")
        return v
    return check


def _whole(name: str, low: int, high: int | None = None) -> Callable[[Any], int]:
    room = f"from {low} to {high}" if high is not None else f"≥ {low}"

    def check(v: Any) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or v < low or (high is not None
                                                                           and v > high):
            raise OptionError(f"{name} must be a whole number {room}, got {v!r}")
        return v
    return check


def _seconds(v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v < math.inf:
        raise OptionError(f"timeout must be a positive number of seconds, got {v!r}")
    return float(v)


def _level(v: Any) -> str | int | bool:
    """``"auto"``, a level name, a group depth ≥ 1, or False (``None``/``"none"``: never)."""
    if v is None or v is False or v in ("none", "off"):
        return False
    if isinstance(v, str) and (v == "auto" or v in LEVELS):
        return v
    if isinstance(v, int) and not isinstance(v, bool) and v >= 1:
        return v
    raise OptionError(f"collapse must be auto, none, {', '.join(LEVELS)} or a group depth ≥ 1, "
                      f"got {v!r}")


def _constants(v: Any) -> str | int | bool | None:
    """``None`` (the default): a net's inputs once per sample and feature; False: keep
    every wrapped copy apart; True (``"layer"``) or a level: merge every wrapped number."""
    if v is None:
        return None
    if v is False or v in ("none", "off"):
        return False
    level = "layer" if v is True else _level(v) if v != "auto" else None
    if level is None:
        raise OptionError(f"merge_constants must be True, a level ({', '.join(LEVELS)}) or a "
                          f"group depth ≥ 1, got {v!r}")
    return level


def _node(v: Any) -> str:
    if not isinstance(v, str) or not v:
        raise OptionError(f"focus must be a node id such as 'v12', got {v!r}")
    return v



@dataclass(frozen=True)
class Option:
    """One option: its name, default, help text (for ``--help`` and the docs) and check."""

    name: str
    default: Any
    help: str
    check: Callable[[Any], Any]
    metavar: str = ""
    #: the CLI flag, if the command line offers it
    cli: str | None = None
    #: what the default means, where ``default`` alone does not say it
    means: str | None = None

    @property
    def choices(self) -> tuple[str, ...]:
        """The words this option takes, as ``metavar`` lists them (``()`` for other options)."""
        return tuple(self.metavar.split("|")) if "|" in self.metavar else ()


#: every drawing option, in the order of the docs and ``--help``
OPTIONS: dict[str, Option] = {o.name: o for o in (
    Option("preset", "docs", "Sizes for where the picture goes: docs, slides (text of 14 pt or "
           "more on a 960 pt slide) or compact.", _choice("preset", tuple(PRESETS), Preset),
           "|".join(PRESETS), "--preset"),
    Option("theme", "light", "Colours: light or dark.", _choice("theme", tuple(THEMES), Theme),
           "|".join(THEMES), "--theme"),
    Option("rankdir", None, "Layout direction: LR (left to right) or TB (top to bottom).",
           _maybe(_choice("rankdir", ("LR", "TB"))), "LR|TB", "--rankdir",
           "LR, except slides that fit better TB"),
    Option("decimals", None, "Digits after the decimal point.",
           _maybe(_whole("decimals", 0, 12)), "0..12", "--decimals",
           "the preset's: docs 4, slides 2"),
    Option("trim", None, "Drop trailing zeros.",
           _maybe(_bool("trim")), means="the preset's: on"),
    Option("lang", None, "Language of the words: en or zh.",
           _maybe(_choice("lang", languages())), "|".join(languages()), "--lang",
           "$VIZGRAD_LANG, else en"),
    Option("caption", True, "Show the step caption and the chain rule.", _bool("caption")),
    Option("legend", True, "Explain the edge labels and colours under the picture.",
           _bool("legend")),
    Option("backend", None, "The Graphviz layout: embedded or system.",
           _maybe(_choice("backend", BACKENDS)),
           "|".join(BACKENDS), "--backend", "$VIZGRAD_LAYOUT, else embedded"),
    Option("timeout", DEFAULT_TIMEOUT, "Seconds the Graphviz layouts of one drawing may run "
           "in all (one that tries several to fit keeps the best so far).", _seconds,
           "SECONDS", "--timeout"),
    Option("max_nodes", DEFAULT_MAX_NODES, "Draw a graph with more values than this collapsed "
           "(with collapse none: refuse it).", _whole("max_nodes", 1), "N", "--max-nodes"),
    Option("collapse", "auto", "Draw each group as one box: auto, none, neuron, layer or a "
           "group depth.", _level, "LEVEL", "--collapse",
           f"auto: a grouped graph past {AUTO_NODES} values, any graph past max_nodes"),
    Option("focus", None, "Draw only the values near this node id (such as v12); the rest as "
           "'… N more'.", _maybe(_node), "NODE", "--focus"),
    Option("radius", 2, "How many edges from focus to draw.", _whole("radius", 0), "N",
           "--radius"),
    Option("group_steps", "merge", "A collapsed box's backward pass: merge (one step) or "
           "inside (a step per value inside).", _choice("group_steps", ("merge", "inside")),
           "merge|inside", "--group-steps"),
    Option("merge_constants", None, "The numbers micrograd wraps in every neuron: by default "
           "a net's inputs are drawn once per sample and feature (x[s][i]); True or a level "
           "merges every wrapped number per layer (or level); False keeps every copy.",
           _constants),
    Option("model", None, "The micrograd-style net the graph came from: its parameters are "
           "named L0.N2.w1 and each neuron becomes a group. On the command line, the name of "
           "a net in MODEL.py.", lambda v: v, "NAME", "--model",
           "the net FUNC returns beside the loss (return loss, model), else the one net of "
           "the module whose parameters are in the graph; draw() does not guess"),
    Option("sample", 0, "Of a net run on a batch, the sample (forward pass) whose values the "
           "collapsed boxes show, or all for their sum; grads are always the totals.",
           _sample, "N|all", "--sample", "0: the first sample"),
)}

#: the defaults an entry point changes, on purpose (everything else is the same everywhere)
ENTRY_DEFAULTS: dict[str, dict[str, Any]] = {
    # the player opens groups itself on a page it collapsed; it draws every value unless asked
    "player": {"collapse": False},
    "show": {"collapse": False},  # vizgrad.show is the player in a notebook
    # the lab draws a small graph whole, in the language each request names, left to right
    "lab": {"collapse": False, "lang": "en", "rankdir": "LR"},
}

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
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from .graph.samples import check as _sample
from .graph.collapse import AUTO_NODES, LEVELS
from .exceptions import OptionError
from .i18n import languages
from .style.presets import PRESETS, Preset
from .style.theme import THEMES, Theme

__all__ = ["BACKENDS", "DEFAULT_H", "DEFAULT_MAX_NODES", "DEFAULT_TIMEOUT", "ENTRY_DEFAULTS",
           "FINAL", "OPTIONS", "NO_STEP", "NUMBER_RANGES", "Option", "Options", "number_in_range",
           "StepArg", "from_text", "options_for", "parse_step", "resolve_step"]

#: the layout programs: the embedded Graphviz (WebAssembly) or the system's ``dot``
BACKENDS = ("embedded", "system")
#: Seconds a single layout may run before :class:`~vizgrad.exceptions.LayoutTimeoutError`.
DEFAULT_TIMEOUT = 60.0

#: Value nodes a drawing accepts unless ``max_nodes`` is raised.
DEFAULT_MAX_NODES = 2000
#: the step that means the final view
FINAL = "final"
#: what a caller may pass as a step: a number, ``"final"``, ``"first"``, ``"last"`` or None
StepArg = int | str | None
_WORDS = {"first", "last", FINAL}
#: what a step left out means, per medium (the table "No step given" in docs/drawing.md): a
#: picture shows the final view, the step player opens at step 0, the lab answers the last step
NO_STEP: dict[str, StepArg] = {"picture": FINAL, "player": "first", "lab": "last"}


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


def parse_step(raw: Any) -> StepArg:
    """A step as written (``"7"``, ``"final"``, ``"first"``, ``"last"``) in its typed form.

    >>> parse_step("7"), parse_step(" Final "), parse_step(None)
    (7, 'final', None)
    """
    if raw is None or (isinstance(raw, int) and not isinstance(raw, bool)):
        return raw
    text = str(raw).strip().lower()
    if text in _WORDS:
        return text
    if text.isdigit():
        return int(text)
    raise OptionError(f"step must be a step number, first, last or final, got {raw!r}")


def resolve_step(step: StepArg, last: int, default: StepArg = None) -> int | None:
    """The step to show, as a number, or ``None`` for the final view.

    ``None`` gives ``default``, read as a step (:data:`NO_STEP` says each medium's: pictures
    the final view, the player step 0, the lab the last step).

    >>> resolve_step("final", 7), resolve_step("last", 7), resolve_step(None, 7, 0)
    (None, 7, 0)
    >>> resolve_step(None, 7, NO_STEP["lab"]), resolve_step(None, 7, NO_STEP["picture"])
    (7, None)
    >>> resolve_step(8, 7)  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.OptionError: step must be a whole number from 0 to 7, first, last or final
        for this graph, got 8
    """
    step = parse_step(step) if isinstance(step, str) else step
    if step is None:
        if default is None:
            return None
        return resolve_step(default, last)
    if step == FINAL:
        return None
    if step == "first":
        return 0
    if step == "last":
        return last
    if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= last:
        raise OptionError(f"step must be a whole number from 0 to {last}, first, last or final "
                          f"for this graph, got {step!r}")
    return step


#: the gradcheck's step when none is given (the command line's ``--h``, the lab's ``"h"``)
DEFAULT_H = 1e-6
#: the one rule for the numbers that bound or tune a run, on every entry (the command line,
#: the lab): ``name -> (lowest, highest, whether the lowest itself is refused)``
NUMBER_RANGES: dict[str, tuple[float, float, bool]] = {
    "h": (1e-12, 1.0, False),
    "tol": (0.0, 1e6, False),
    "max_seconds": (0.0, 86_400.0, True),
    "max_bytes": (1.0, 1e15, False),
    "build_seconds": (0.0, 86_400.0, True),
    "build_memory": (1e6, 1e15, False),
}


def number_in_range(name: str, value: Any, shown: str | None = None) -> float:
    """``value`` as a float if it is a number in the range :data:`NUMBER_RANGES` gives
    ``name``; NaN, infinities and numbers outside it raise :class:`OptionError` naming the
    range (``shown``: how the caller spells the option, e.g. ``--h``).

    >>> number_in_range("h", 1e-6)
    1e-06
    >>> number_in_range("h", 1e-320, "--h")
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.OptionError: --h must be a number from 1e-12 to 1, got 1e-320
    >>> number_in_range("max_seconds", float("nan"), "--max-seconds")
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.OptionError: --max-seconds must be a number above 0 up to 86400, got nan
    """
    low, high, open_low = NUMBER_RANGES[name]
    try:
        x = float(value) if not isinstance(value, bool) else math.nan
    except (TypeError, ValueError, OverflowError):
        x = math.nan
    if not (low < x <= high if open_low else low <= x <= high):
        bound = f"above {low:g} up to {high:g}" if open_low else f"from {low:g} to {high:g}"
        raise OptionError(f"{shown or name} must be a number {bound}, got {value!r}")
    return x

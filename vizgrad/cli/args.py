"""How the ``vizgrad`` command reads its arguments, and turns vizgrad's errors into click's.

Each reader is a click callback: a bad value becomes a usage error (exit 2) that says
what was wrong and what to write instead. :func:`drawing_options` adds a flag for every
drawing option of :data:`vizgrad.options.OPTIONS`, so the command line and the API
share one table::

    >>> parse_sets(None, None, ("a=-2", "b = 3"))
    {'a': -2.0, 'b': 3.0}
"""

from __future__ import annotations

import warnings
from contextlib import contextmanager
from typing import Any, Callable, Iterator

import click

from ..exceptions import (
    ExpressionError,
    GraphFormatError,
    LabelCutWarning,
    LayoutTimeoutError,
    ModelLoadError,
    OptionError,
    UnknownExampleError,
    VizgradError,
)
from ..core.inputs import parse_values
from ..options import OPTIONS, from_text, number_in_range

__all__ = ["OptionType", "build_limits", "drawing_options", "errors", "notes", "parse_format",
           "parse_sets", "parse_size", "ranged", "read_option"]


@contextmanager
def errors(hints: dict[type, str | None] | None = None) -> Iterator[None]:
    """Turn vizgrad errors into click errors: usage mistakes exit 2, failures exit 1."""
    hints = hints or {}
    try:
        yield
    except (UnknownExampleError, ExpressionError, OptionError, ModelLoadError,
            GraphFormatError) as err:
        hint = next((h for cls, h in hints.items() if isinstance(err, cls)), None)
        if isinstance(err, ExpressionError) and err.values:
            hint = "'--set'"  # the expression is fine; a value is outside its domain
        raise click.BadParameter(str(err), param_hint=hint) from None
    except LayoutTimeoutError as err:
        raise click.ClickException(f"{err} (on the command line: --timeout SECONDS)") from None
    except VizgradError as err:
        raise click.ClickException(str(err)) from None
    except OSError as err:
        where = f" {err.filename}" if err.filename else ""
        raise click.ClickException(f"cannot write{where}: {err.strerror or err}") from None


@contextmanager
def notes() -> Iterator[None]:
    """Say on stderr, one ``note:`` line each, what was changed to keep the output bounded
    (a label cut at :data:`vizgrad.core.labels.MAX_LABEL` characters), not as a warning."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always", LabelCutWarning)
        try:
            yield
        finally:
            for w in seen:
                if issubclass(w.category, LabelCutWarning):
                    click.echo(f"note: {w.message}", err=True)
                else:
                    warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)


def parse_sets(ctx: click.Context, param: click.Parameter,
               items: tuple[str, ...]) -> dict[str, float]:
    """``--set NAME=NUMBER`` (repeated, or ``a=-2,b=3``), by the rule every entry shares
    (:func:`vizgrad.core.inputs.parse_values`)."""
    try:
        return parse_values(items)
    except OptionError as err:
        raise click.BadParameter(str(err)) from None


def parse_format(ctx: click.Context, param: click.Parameter,
                 text: str | None) -> tuple[str, ...] | None:
    if text is None:
        return None
    from ..export.batch import parse_formats

    try:
        return parse_formats(text)
    except OptionError as err:
        raise click.BadParameter(str(err)) from None


def parse_size(ctx: click.Context, param: click.Parameter, text: str | None) -> int | None:
    from ..export.budget import parse_bytes

    try:
        size = None if text is None else parse_bytes(text)
        if size is not None:
            number_in_range(param.name or "max_bytes", size, f"{param.opts[0]} ({text})")
        return size
    except OptionError as err:
        raise click.BadParameter(str(err)) from None


def ranged(name: str) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """A click callback: the number checked by the one rule of
    :func:`vizgrad.options.number_in_range` (NaN, infinities, out of range: exit 2)."""

    def check(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        return read_option(lambda v: number_in_range(name, v, param.opts[0]), value)

    return check


def read_option(read: Callable[[Any], Any], value: Any) -> Any:
    """``read(value)``, with an :class:`OptionError` as click's usage error."""
    try:
        return None if value is None else read(value)
    except OptionError as err:
        raise click.BadParameter(str(err)) from None


def _net_name(ctx: click.Context, param: click.Parameter, text: str | None) -> str | None:
    """``--model NAME``: a module attribute of the model file (read by :mod:`.model_file`)."""
    if text is not None and not text.strip().isidentifier():
        raise click.BadParameter(f"{text!r} is not a name; give the name of the net in your "
                                 "model file, e.g. --model n")
    return None if text is None else text.strip()


#: what the command line adds to an option's default (see :data:`vizgrad.options.OPTIONS`)
_CLI_DEFAULTS = {
    "lang": "the full gallery: every language",
    "backend": "the full gallery always embedded, so it is the same on every machine",
    "collapse": "the mlp example by neuron",
}


class OptionType(click.ParamType):
    """A drawing option's flag: the text is read by :func:`vizgrad.options.from_text`, the one
    reader and check every entry shares, and a bad value is click's usage error (exit 2).

    >>> OptionType(OPTIONS["collapse"]).convert("2", None, None)
    2
    """

    def __init__(self, option: Any) -> None:
        self.option = option
        self.name = option.name

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        if not isinstance(value, str):
            return value
        try:
            return getattr(from_text({self.option.name: value}), self.option.name)
        except OptionError as err:
            self.fail(str(err), param, ctx)


def drawing_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """Add a click option for every drawing option that has a flag, from the one table."""
    for o in reversed([o for o in OPTIONS.values() if o.cli]):
        shown = "; ".join(str(t) for t in (o.means or o.default, _CLI_DEFAULTS.get(o.name))
                          if t is not None) or None
        help_text = o.help + ("" if shown is None else f" [default: {shown}]")
        if o.name == "model":  # a name in the model file, read by .model_file
            f = click.option(o.cli, o.name, metavar=o.metavar, default=None, callback=_net_name,
                             help=help_text)(f)
        else:
            f = click.option(o.cli, o.name, metavar=o.metavar, default=None, type=OptionType(o),
                             help=help_text)(f)
    return f


def build_limits(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--build-seconds`` and ``--build-memory``: the bounds of a model file's own code."""
    f = click.option("--build-memory", callback=parse_size, metavar="SIZE",
                     help="Stop a model file's code (its import, build(), its Values' "
                          "_backward) once the process holds more than this resident, "
                          "e.g. 8G [default: 4G].")(f)
    return click.option("--build-seconds", type=float, callback=ranged("build_seconds"),
                        metavar="SECONDS",
                        help="Stop a model file's code after this long [default: 60, or "
                             "--max-seconds if smaller].")(f)

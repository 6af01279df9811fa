"""The drawing options a lab request may give, read from JSON: each one's JSON type, and the
answer when the options model, or one of the lab's bounds on top, refuses it.

Every value goes through the one options model (:data:`vizgrad.options.OPTIONS`); the lab
adds its own bounds (:data:`BOUNDS`) for a shared server::

    >>> [drawing_option("collapse", raw) for raw in (True, "off", 9)]
    ['auto', False, 9]
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..exceptions import OptionError
from ..options import OPTIONS
from ._json_body import ApiError, bad_type, choice_error

__all__ = ["BOUNDS", "COLLAPSE_LEVELS", "DRAWING_FIELDS", "MAX_DEPTH", "MAX_RADIUS",
           "drawing_option", "whole"]

#: the words ``collapse`` takes (besides a group depth and ``false``)
COLLAPSE_LEVELS = ("auto", "none", "layer", "neuron")
#: the lab's own bounds, on top of the options model's checks, for a shared server (the
#: table "Bounds" in docs/lab.md): the deepest group level and the widest focus a request may
#: ask for
MAX_DEPTH = 9
MAX_RADIUS = 20
#: the bounds on drawing options, applied to a value the options model accepted
BOUNDS: dict[str, Callable[[Any], bool]] = {
    "collapse": lambda v: isinstance(v, bool) or not isinstance(v, int) or v <= MAX_DEPTH,
    "radius": lambda v: v <= MAX_RADIUS,
}


def _word(name: str) -> _Field:
    """An option that is one of its words (``theme``, ``rankdir``, ``lang``, ``group_steps``)."""
    words = OPTIONS[name].choices
    return _Field(lambda x: isinstance(x, str), f"one of {', '.join(words)}",
                  lambda raw: choice_error(name, raw, words))


def whole(x: Any) -> bool:
    """A JSON whole number (``true`` is not one)."""
    return isinstance(x, int) and not isinstance(x, bool)


@dataclass(frozen=True)
class _Field:
    """How the lab reads a drawing option from JSON: the JSON type its values have (another
    type is 422 ``invalid_type``, saying what it must be), and the answer when the options
    model, or a bound on top, refuses a value of that type."""

    kind: Callable[[Any], bool]
    want: str
    refused: Callable[[Any], ApiError] | None = None


_FIELDS: dict[str, _Field] = {
    "theme": _word("theme"),
    "rankdir": _word("rankdir"),
    "lang": _word("lang"),
    "caption": _Field(lambda x: isinstance(x, bool), "true or false"),
    "collapse": _Field(lambda x: True, "", lambda raw: ApiError(
        422, "invalid_choice", f"collapse {json.dumps(raw)[:40]} is not supported; choose one "
        f"of: {', '.join(COLLAPSE_LEVELS)}, a group depth from 1 to {MAX_DEPTH}, or false",
        field="collapse", choices=[*COLLAPSE_LEVELS, False])),
    "focus": _Field(lambda x: isinstance(x, str),
                    'a node id such as "v3" (see the trace\'s nodes)'),
    "radius": _Field(whole, "a whole number of edges", lambda raw: ApiError(
        422, "out_of_range", f"radius {raw} is outside [0, {MAX_RADIUS}]; give a number of "
        f"edges from 0 to {MAX_RADIUS}", field="radius", minimum=0, maximum=MAX_RADIUS)),
    "group_steps": _word("group_steps"),
    "sample": _Field(lambda x: whole(x) or x == "all",
                     'a sample number (0 is the first) or "all"', lambda raw: ApiError(
        422, "out_of_range", f'sample {raw} is negative; samples start at 0 (or give "all")',
        field="sample")),
}
#: the fields that are options of the options model, in the order they are checked (the
#: others are the lab's own: expression, example, values, step, format, h, expand)
DRAWING_FIELDS = tuple(_FIELDS)


def drawing_option(name: str, raw: Any) -> Any:
    """``raw`` (a JSON value, not null) as the options model reads option ``name``, with the
    lab's bound on top; 422 with the field when refused. ``collapse: true`` is the lab's older
    form of ``"auto"`` (a documented alias).

    >>> [drawing_option("collapse", raw) for raw in (True, "off", 9)]
    ['auto', False, 9]
    >>> for raw in ("2", 21):
    ...     try:
    ...         drawing_option("radius", raw)
    ...     except ApiError as err:
    ...         print(err.error, err.extra["field"])
    invalid_type radius
    out_of_range radius
    """
    rule = _FIELDS[name]
    value = (raw and "auto") if name == "collapse" and isinstance(raw, bool) else raw
    try:
        checked = OPTIONS[name].check(value)
        if name not in BOUNDS or BOUNDS[name](checked):
            return checked
    except OptionError:
        pass
    if rule.refused is None or not rule.kind(raw):
        raise bad_type(name, rule.want, raw)
    raise rule.refused(raw)

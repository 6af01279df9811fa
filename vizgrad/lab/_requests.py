"""Reading and checking the lab's JSON requests; every problem becomes an :class:`ApiError`.

Every drawing option a request gives is checked by the one options model
(:data:`vizgrad.options.OPTIONS`), and the lab's own bounds (:data:`BOUNDS`, a shared
server's) apply on top (:mod:`vizgrad.lab._drawing_fields`; the body and its errors:
:mod:`vizgrad.lab._json_body`); the request's options are an :class:`~vizgrad.options.Options`
with the lab's defaults (:data:`vizgrad.options.ENTRY_DEFAULTS`)::

    >>> limits = Limits()
    >>> q = parse_query({"example": "fork", "values": {"a": 1, "b": 2}}, limits, TRACE_FIELDS)
    >>> q.example, q.values, q.options
    ('fork', {'a': 1.0, 'b': 2.0}, Options(rankdir='LR', lang='en', collapse=False))
    >>> try:
    ...     parse_query({"example": "fork", "values": {"a": 25}}, limits, TRACE_FIELDS)
    ... except ApiError as err:
    ...     print(err.status, err.error, err.detail)  # doctest: +NORMALIZE_WHITESPACE
    422 out_of_range values.a = 25 is outside [-20, 20]; enter a number from -20 to 20
        (values are never clamped)
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from ..core.inputs import check_name
from ..exceptions import OptionError
from ..options import DEFAULT_H, OPTIONS, Options, number_in_range, options_for
from ._drawing_fields import (BOUNDS, COLLAPSE_LEVELS, DRAWING_FIELDS, MAX_DEPTH, MAX_RADIUS,
                              drawing_option, whole)
from ._json_body import ApiError, bad_type, choice_error, decode_json, json_number
from ._limits import ENV_PREFIX, H_RANGE, Limits

__all__ = [
    "ApiError",
    "Limits",
    "Query",
    "parse_query",
    "decode_json",
    "TRACE_FIELDS",
    "RENDER_FIELDS",
    "GRADCHECK_FIELDS",
    "GRAPH_FIELDS",
    "SCENE_FIELDS",
    "DRAWING_FIELDS",
    "BOUNDS",
    "MAX_DEPTH",
    "MAX_RADIUS",
    "MAX_EXPAND",
    "THEMES",
    "FORMATS",
    "RANKDIRS",
    "H_RANGE",
    "ENV_PREFIX",
]

THEMES = OPTIONS["theme"].choices
FORMATS = ("svg", "dot")
RANKDIRS = OPTIONS["rankdir"].choices

SOURCE_FIELDS = ("expression", "example", "values", "lang")
#: how a large graph is drawn (see vizgrad.graph.collapse); the numeric check ignores them
GRAPH_FIELDS = ("collapse", "focus", "radius", "group_steps", "expand", "sample")
TRACE_FIELDS = (*SOURCE_FIELDS, *GRAPH_FIELDS)
RENDER_FIELDS = (*TRACE_FIELDS, "step", "theme", "format", "rankdir", "caption")
#: a scene holds every step and is JSON: no "step", no "format"
SCENE_FIELDS = (*TRACE_FIELDS, "theme", "rankdir", "caption")
GRADCHECK_FIELDS = (*SOURCE_FIELDS, "h")
#: the lab's own bound, on top of the options model's checks, for a shared server (the
#: table "Bounds" in docs/lab.md): the most groups a request may open (the deepest group
#: level and the widest focus: :mod:`vizgrad.lab._drawing_fields`)
MAX_EXPAND = 50


@dataclass(frozen=True)
class Query:
    """A checked request: a graph source (expression or example), the lab's own fields and
    the drawing options (the options model's, with the lab's defaults).

    ``step`` None is the lab's "no step given" (:data:`vizgrad.options.NO_STEP`).
    """

    expression: str | None = None
    example: str | None = None
    values: dict[str, float] = field(default_factory=dict)
    step: int | None = None
    format: str = "svg"
    h: float = DEFAULT_H
    expand: tuple[str, ...] = ()
    options: Options = field(default_factory=lambda: options_for("lab", None, {}))

def _show(x: float) -> str:
    return str(int(x)) if x.is_integer() and abs(x) < 1e15 else repr(x)


def _values(raw: Any, limits: Limits) -> dict[str, float]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise bad_type("values", 'an object of numbers such as {"a": -2, "b": 3}', raw)
    lo, hi = -limits.value_limit, limits.value_limit
    out: dict[str, float] = {}
    for key, x in raw.items():
        name = f"values.{key}"
        try:  # the rule every entry shares (vizgrad.core.inputs)
            check_name(key)
        except OptionError:
            raise ApiError(422, "invalid_name",
                           f"{json.dumps(key)} cannot be a variable name; "
                           "use names like a, b or x1 (as Python writes them)",
                           field=name) from None
        value = json_number(name, x)
        if not lo <= value <= hi:  # the lab's own bound, on top (values are never clamped)
            shown = _show(value) if math.isfinite(value) else str(value)
            raise ApiError(422, "out_of_range",
                           f"{name} = {shown} is outside [{_show(lo)}, {_show(hi)}]; "
                           f"enter a number from {_show(lo)} to {_show(hi)} "
                           "(values are never clamped)",
                           field=name, minimum=lo, maximum=hi)
        out[key] = value
    return out


def parse_query(data: Any, limits: Limits, allowed: tuple[str, ...]) -> Query:
    """Check a decoded JSON body against the fields one endpoint accepts."""
    if not isinstance(data, dict):
        raise bad_type("the request body", "a JSON object", data)
    unknown = sorted(k for k in data if k not in allowed)
    if unknown:
        raise ApiError(422, "unknown_field",
                       f"unknown field {json.dumps(unknown[0])[:60]}; this endpoint accepts: "
                       f"{', '.join(allowed)}", field=unknown[0])
    expression, example = data.get("expression"), data.get("example")
    if (expression is None) == (example is None):
        raise ApiError(422, "missing_source" if expression is None else "ambiguous_source",
                       'give exactly one of "expression" (such as "(a*b)*(a+b)") or '
                       '"example" (see GET /api/examples)', field="expression")
    if expression is not None:
        if not isinstance(expression, str):
            raise bad_type("expression", "a string", expression)
        if len(expression) > limits.max_expression_length:  # the lab's bound
            raise ApiError(422, "expression_too_long",
                           f"the expression has {len(expression)} characters; the limit is "
                           f"{limits.max_expression_length}", field="expression",
                           limit=limits.max_expression_length)
    if example is not None and not isinstance(example, str):
        raise bad_type("example", "a string (see GET /api/examples)", example)
    own: dict[str, Any] = {}
    if data.get("step") is not None:  # its range is the graph's (_service.check_step)
        if not whole(data["step"]):
            raise bad_type("step", "a whole number (0 is the first step)", data["step"])
        own["step"] = data["step"]
    if data.get("format") is not None:
        if not isinstance(data["format"], str):
            raise bad_type("format", f"one of {', '.join(FORMATS)}", data["format"])
        if data["format"] not in FORMATS:
            raise choice_error("format", data["format"], FORMATS)
        own["format"] = data["format"]
    if data.get("h") is not None:
        h = json_number("h", data["h"])
        try:  # the command line's rule for --h: NaN, infinities, out of range
            own["h"] = number_in_range("h", h)
        except OptionError:
            raise ApiError(422, "out_of_range",
                           f"h = {data['h']!r} is outside [{H_RANGE[0]:g}, {H_RANGE[1]:g}]; "
                           "try 1e-2, 1e-4, 1e-6 or 1e-8", field="h") from None
    given = {k: drawing_option(k, data[k]) for k in DRAWING_FIELDS if data.get(k) is not None}
    if data.get("expand") is not None:
        own["expand"] = _expand(data["expand"], given.get("collapse"))
    return Query(expression=expression, example=example,
                 values=_values(data.get("values"), limits),
                 options=options_for("lab", None, given), **own)


def _expand(paths: Any, collapse: Any) -> tuple[str, ...]:
    """The group paths to leave open (at most :data:`MAX_EXPAND`, a bound of the lab)."""
    if (not isinstance(paths, list) or len(paths) > MAX_EXPAND
            or not all(isinstance(p, str) and p for p in paths)):
        raise bad_type("expand", f"a list of at most {MAX_EXPAND} group paths such as "
                        '["L0/N1"]', paths)
    if paths and collapse in (None, False):
        raise ApiError(422, "invalid_choice", "expand opens groups of a collapsed graph; "
                       'give "collapse" too (such as "neuron")', field="expand")
    return tuple(dict.fromkeys(paths))

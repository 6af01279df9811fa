"""Reading and checking the lab's JSON requests; every problem becomes an :class:`ApiError`.

Every drawing option a request gives is checked by the one options model
(:data:`vizgrad.options.OPTIONS`), and the lab's own bounds (:data:`BOUNDS`, a shared
server's) apply on top; the request's options are an :class:`~vizgrad.options.Options`
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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..core.inputs import check_name
from ..exceptions import OptionError
from ..options import DEFAULT_H, OPTIONS, Options, number_in_range, options_for
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
COLLAPSE_LEVELS = ("auto", "none", "layer", "neuron")
#: the lab's own bounds, on top of the options model's checks, for a shared server (the
#: table "Bounds" in docs/lab.md): the deepest group level and the widest focus a request may
#: ask for, and the most groups it may open
MAX_DEPTH = 9
MAX_RADIUS = 20
MAX_EXPAND = 50
#: the bounds on drawing options, applied to a value the options model accepted
BOUNDS: dict[str, Callable[[Any], bool]] = {
    "collapse": lambda v: isinstance(v, bool) or not isinstance(v, int) or v <= MAX_DEPTH,
    "radius": lambda v: v <= MAX_RADIUS,
}


class ApiError(Exception):
    """An HTTP error answer: status, a short machine code, a sentence for people, extras."""

    def __init__(self, status: int, error: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.error = error
        self.detail = detail
        self.extra = extra

    def body(self) -> dict[str, Any]:
        """The JSON body: ``{"error", "detail", ...extras}``."""
        return {"error": self.error, "detail": self.detail, **self.extra}


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


def _reject_constant(name: str) -> float:
    raise ApiError(400, "malformed_json",
                   f"{name} is not valid JSON; send finite numbers only")


def decode_json(body: bytes) -> Any:
    """Parse a request body; malformed JSON or NaN/Infinity → 400.

    >>> decode_json(b'{"a": 1}')
    {'a': 1}
    >>> try:
    ...     decode_json(b'{"a": 1')
    ... except ApiError as err:
    ...     print(err.status, err.error)
    400 malformed_json
    """
    if not body.strip():
        raise ApiError(400, "malformed_json",
                       'the request body is empty; send a JSON object such as {"example": "fork"}')
    try:
        # strictly UTF-8 (RFC 8259): no byte-order mark, no UTF-16/32 guessing
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is None or text.startswith("\ufeff"):
        raise ApiError(400, "malformed_json",
                       "the request body is not UTF-8 text (without a byte-order mark)")
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as err:
        raise ApiError(400, "malformed_json",
                       f"the request body is not valid JSON: {err.msg} at line {err.lineno} "
                       f"column {err.colno}", line=err.lineno, column=err.colno) from None
    except RecursionError:
        raise ApiError(400, "malformed_json", "the request body is nested too deeply") from None
    except ValueError as err:  # an integer literal longer than Python converts
        raise ApiError(400, "malformed_json",
                       f"the request body has a number JSON cannot carry here: {err}; "
                       "send numbers with at most a few digits") from None


def _type_name(x: Any) -> str:
    if x is None:
        return "null"
    return {bool: "boolean", str: "string", list: "array", dict: "object",
            int: "number", float: "number"}.get(type(x), type(x).__name__)


def _bad_type(name: str, want: str, got: Any) -> ApiError:
    shown = json.dumps(got)[:60] if isinstance(got, (str, int, float, bool)) or got is None else ""
    return ApiError(422, "invalid_type",
                    f"{name} must be {want}, got {_type_name(got)} {shown}".rstrip(),
                    field=name)


def _number(name: str, x: Any) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise _bad_type(name, "a number", x)
    try:
        value = float(x)
    except OverflowError:
        value = math.inf if x > 0 else -math.inf
    return value


def _show(x: float) -> str:
    return str(int(x)) if x.is_integer() and abs(x) < 1e15 else repr(x)


def _values(raw: Any, limits: Limits) -> dict[str, float]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise _bad_type("values", 'an object of numbers such as {"a": -2, "b": 3}', raw)
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
        value = _number(name, x)
        if not lo <= value <= hi:  # the lab's own bound, on top (values are never clamped)
            shown = _show(value) if math.isfinite(value) else str(value)
            raise ApiError(422, "out_of_range",
                           f"{name} = {shown} is outside [{_show(lo)}, {_show(hi)}]; "
                           f"enter a number from {_show(lo)} to {_show(hi)} "
                           "(values are never clamped)",
                           field=name, minimum=lo, maximum=hi)
        out[key] = value
    return out


def _choice(name: str, raw: Any, choices: tuple[Any, ...]) -> ApiError:
    return ApiError(422, "invalid_choice",
                    f"{name} {json.dumps(raw)[:40]} is not supported; choose one of: "
                    f"{', '.join(map(str, choices))}", field=name, choices=list(choices))


def _word(name: str) -> _Field:
    """An option that is one of its words (``theme``, ``rankdir``, ``lang``, ``group_steps``)."""
    words = OPTIONS[name].choices
    return _Field(lambda x: isinstance(x, str), f"one of {', '.join(words)}",
                  lambda raw: _choice(name, raw, words))


def _whole(x: Any) -> bool:
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
    "radius": _Field(_whole, "a whole number of edges", lambda raw: ApiError(
        422, "out_of_range", f"radius {raw} is outside [0, {MAX_RADIUS}]; give a number of "
        f"edges from 0 to {MAX_RADIUS}", field="radius", minimum=0, maximum=MAX_RADIUS)),
    "group_steps": _word("group_steps"),
    "sample": _Field(lambda x: _whole(x) or x == "all",
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
        raise _bad_type(name, rule.want, raw)
    raise rule.refused(raw)


def parse_query(data: Any, limits: Limits, allowed: tuple[str, ...]) -> Query:
    """Check a decoded JSON body against the fields one endpoint accepts."""
    if not isinstance(data, dict):
        raise _bad_type("the request body", "a JSON object", data)
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
            raise _bad_type("expression", "a string", expression)
        if len(expression) > limits.max_expression_length:  # the lab's bound
            raise ApiError(422, "expression_too_long",
                           f"the expression has {len(expression)} characters; the limit is "
                           f"{limits.max_expression_length}", field="expression",
                           limit=limits.max_expression_length)
    if example is not None and not isinstance(example, str):
        raise _bad_type("example", "a string (see GET /api/examples)", example)
    own: dict[str, Any] = {}
    if data.get("step") is not None:  # its range is the graph's (_service.check_step)
        if not _whole(data["step"]):
            raise _bad_type("step", "a whole number (0 is the first step)", data["step"])
        own["step"] = data["step"]
    if data.get("format") is not None:
        if not isinstance(data["format"], str):
            raise _bad_type("format", f"one of {', '.join(FORMATS)}", data["format"])
        if data["format"] not in FORMATS:
            raise _choice("format", data["format"], FORMATS)
        own["format"] = data["format"]
    if data.get("h") is not None:
        h = _number("h", data["h"])
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
        raise _bad_type("expand", f"a list of at most {MAX_EXPAND} group paths such as "
                        '["L0/N1"]', paths)
    if paths and collapse in (None, False):
        raise ApiError(422, "invalid_choice", "expand opens groups of a collapsed graph; "
                       'give "collapse" too (such as "neuron")', field="expand")
    return tuple(dict.fromkeys(paths))

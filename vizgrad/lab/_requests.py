"""Reading and checking the lab's JSON requests; every problem becomes an :class:`ApiError`.

    >>> limits = Limits()
    >>> q = parse_query({"example": "fork", "values": {"a": 1, "b": 2}}, limits, TRACE_FIELDS)
    >>> q.example, q.values
    ('fork', {'a': 1.0, 'b': 2.0})
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
from ..i18n import languages
from ..exceptions import OptionError
from ..options import OPTIONS, number_in_range, options_for
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
    "THEMES",
    "FORMATS",
    "RANKDIRS",
    "H_RANGE",
    "ENV_PREFIX",
]

#: the lab's drawing defaults and choices, from the one options model
_DEFAULT = options_for("lab", None, {})
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
GROUP_STEPS = OPTIONS["group_steps"].choices
#: the lab's own bounds, on top of the options model's checks (a shared server): the deepest
#: group level and the widest focus a request may ask for
MAX_DEPTH = 9
MAX_RADIUS = 20
#: the most groups one request may open
MAX_EXPAND = 50


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
    """A checked request: a graph source (expression or example) and options."""

    expression: str | None = None
    example: str | None = None
    values: dict[str, float] = field(default_factory=dict)
    step: int | None = None
    theme: str = str(_DEFAULT.theme)
    format: str = "svg"
    rankdir: str = str(_DEFAULT.rankdir)
    caption: bool = _DEFAULT.caption
    h: float = 1e-6
    lang: str = str(_DEFAULT.lang)
    collapse: str | int | bool = _DEFAULT.collapse
    focus: str | None = _DEFAULT.focus
    radius: int = _DEFAULT.radius
    group_steps: str = _DEFAULT.group_steps
    expand: tuple[str, ...] = ()
    #: of a net run on a batch, the sample whose values collapsed boxes show, or "all"
    sample: int | str = _DEFAULT.sample


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


def _choice(name: str, raw: Any, choices: tuple[str, ...]) -> str:
    if not isinstance(raw, str):
        raise _bad_type(name, f"one of {', '.join(choices)}", raw)
    if raw not in choices:
        raise ApiError(422, "invalid_choice",
                       f"{name} {json.dumps(raw)[:40]} is not supported; choose one of: "
                       f"{', '.join(choices)}", field=name, choices=list(choices))
    return raw


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
        if len(expression) > limits.max_expression_length:
            raise ApiError(422, "expression_too_long",
                           f"the expression has {len(expression)} characters; the limit is "
                           f"{limits.max_expression_length}", field="expression",
                           limit=limits.max_expression_length)
    if example is not None and not isinstance(example, str):
        raise _bad_type("example", "a string (see GET /api/examples)", example)
    opts: dict[str, Any] = {}
    if data.get("step") is not None:
        step = data["step"]
        if isinstance(step, bool) or not isinstance(step, int):
            raise _bad_type("step", "a whole number (0 is the first step)", step)
        if step < 0:
            raise ApiError(422, "out_of_range", f"step {step} is negative; steps start at 0",
                           field="step")
        opts["step"] = step
    for key, choices in (("theme", THEMES), ("format", FORMATS), ("rankdir", RANKDIRS)):
        if data.get(key) is not None:
            opts[key] = _choice(key, data[key], choices)
    if data.get("lang") is not None:
        opts["lang"] = _choice("lang", data["lang"], languages())
    if data.get("caption") is not None:
        if not isinstance(data["caption"], bool):
            raise _bad_type("caption", "true or false", data["caption"])
        opts["caption"] = data["caption"]
    if data.get("h") is not None:
        h = _number("h", data["h"])
        try:  # the command line's rule for --h: NaN, infinities, out of range
            opts["h"] = number_in_range("h", h)
        except OptionError:
            raise ApiError(422, "out_of_range",
                           f"h = {data['h']!r} is outside [{H_RANGE[0]:g}, {H_RANGE[1]:g}]; "
                           "try 1e-2, 1e-4, 1e-6 or 1e-8", field="h") from None
    opts.update(_graph_options(data))
    return Query(expression=expression, example=example,
                 values=_values(data.get("values"), limits), **opts)


def _checked(name: str, value: Any) -> Any:
    """``value`` as the options model checks it (:data:`vizgrad.options.OPTIONS`), or None
    if it refuses it (the caller answers 422 with the field)."""
    try:
        return OPTIONS[name].check(value)
    except OptionError:
        return None


def _graph_options(data: dict[str, Any]) -> dict[str, Any]:
    """``collapse``, ``focus``, ``radius``, ``group_steps``, ``expand`` and ``sample``,
    checked (422 with the field).

    >>> _graph_options({"collapse": "neuron", "radius": 1, "sample": "all"})
    {'collapse': 'neuron', 'radius': 1, 'sample': 'all'}
    """
    opts: dict[str, Any] = {}
    level = data.get("collapse")
    if level is not None:
        # true is the lab's older form of "auto" (a documented alias); the rest is the
        # options model's check, with the lab's depth bound on top
        checked = _checked("collapse", level and "auto" if isinstance(level, bool) else level)
        if checked is None or (isinstance(checked, int) and not isinstance(checked, bool)
                               and checked > MAX_DEPTH):
            raise ApiError(422, "invalid_choice",
                           f"collapse {json.dumps(level)[:40]} is not supported; choose one of: "
                           f"{', '.join(COLLAPSE_LEVELS)}, a group depth from 1 to {MAX_DEPTH}, "
                           "or false", field="collapse", choices=[*COLLAPSE_LEVELS, False])
        opts["collapse"] = checked
    if data.get("focus") is not None:
        node = data["focus"]
        if not isinstance(node, str) or not node:
            raise _bad_type("focus", "a node id such as \"v3\" (see the trace's nodes)", node)
        opts["focus"] = node
    if data.get("radius") is not None:
        radius = data["radius"]
        if isinstance(radius, bool) or not isinstance(radius, int):
            raise _bad_type("radius", "a whole number of edges", radius)
        if _checked("radius", radius) is None or radius > MAX_RADIUS:
            raise ApiError(422, "out_of_range", f"radius {radius} is outside [0, {MAX_RADIUS}]; "
                           f"give a number of edges from 0 to {MAX_RADIUS}", field="radius",
                           minimum=0, maximum=MAX_RADIUS)
        opts["radius"] = radius
    if data.get("group_steps") is not None:
        opts["group_steps"] = _choice("group_steps", data["group_steps"], GROUP_STEPS)
    if data.get("sample") is not None:
        sample = data["sample"]
        if sample != "all" and (isinstance(sample, bool) or not isinstance(sample, int)):
            raise _bad_type("sample", 'a sample number (0 is the first) or "all"', sample)
        if _checked("sample", sample) is None:  # the options model's check: ≥ 0 or "all"
            raise ApiError(422, "out_of_range", f"sample {sample} is negative; samples start "
                           'at 0 (or give "all")', field="sample")
        opts["sample"] = sample
    if data.get("expand") is not None:
        paths = data["expand"]
        if (not isinstance(paths, list) or len(paths) > MAX_EXPAND
                or not all(isinstance(p, str) and p for p in paths)):
            raise _bad_type("expand", f"a list of at most {MAX_EXPAND} group paths such as "
                            '["L0/N1"]', paths)
        if paths and opts.get("collapse") in (None, False):
            raise ApiError(422, "invalid_choice", "expand opens groups of a collapsed graph; "
                           'give "collapse" too (such as "neuron")', field="expand")
        opts["expand"] = tuple(dict.fromkeys(paths))
    return opts

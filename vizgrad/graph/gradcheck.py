"""Gradient checks by central differences, independent of backpropagation.

    >>> from vizgrad import Value
    >>> a, b = Value(-2.0, label="a"), Value(3.0, label="b")
    >>> rows = gradcheck((a * b) * (a + b), h=1e-6)
    >>> [(r["input"], r["backprop"], f"{r['error']:.4e}") for r in rows]
    [('a', -3.0, '4.1933e-10'), ('b', -8.0, '1.1182e-09')]

The graph is re-evaluated from its recorded ops (``+ * **k exp log tanh
relu``), so the check works on vizgrad and micrograd Values, on a
:class:`~vizgrad.tracing.recorder.Trace` and on a graph loaded from JSON. A graph
of :mod:`vizgrad.graph.collapse` is refused: its boxes stand for values whose ops
it does not hold (check the graph it was collapsed from). A graph holding
inf or nan is refused too (:class:`~vizgrad.exceptions.NumericOverflowError`):
both sides of the comparison are meaningless there.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from ..exceptions import DomainError, GraphFormatError, NumericOverflowError
from ..tracing.recorder import Trace, trace

__all__ = ["gradcheck", "evaluate", "overflowed"]

_UNARY: dict[str, Callable[[float], float]] = {
    "exp": math.exp,
    "log": math.log,
    "tanh": math.tanh,
    "relu": lambda x: x if x > 0 else 0.0,
    "ReLU": lambda x: x if x > 0 else 0.0,
}
_BOXES = ("group", "stub")


def _arity(op: str, n: int) -> str | None:
    """Why ``op`` cannot be re-evaluated with ``n`` operands, or None if it can."""
    if op == "+":
        return None if n >= 2 else "'+' takes two operands or more"
    if op == "*":
        return None if n == 2 else "'*' takes two operands"
    if op.startswith("**"):
        try:
            float(op[2:])
        except ValueError:
            return f"the exponent {op[2:]!r} of {op!r} is not a number"
        return None if n == 1 else f"{op!r} takes one operand"
    if op in _UNARY:
        return None if n == 1 else f"{op!r} takes one operand"
    return "gradcheck knows + * **k exp log tanh relu"


def _forward(op: str, args: list[float]) -> float:
    try:
        if op == "+":
            y = math.fsum(args) if len(args) > 2 else args[0] + args[1]
        elif op == "*":
            y = args[0] * args[1]
        elif op.startswith("**"):
            y = args[0] ** float(op[2:])
        else:
            y = _UNARY[op](args[0])
    except OverflowError:
        y = math.inf
    if math.isinf(y) and all(map(math.isfinite, args)):
        shown = (f"{op}({args[0]!r})" if op in _UNARY else f"{args[0]!r} ** {op[2:]}"
                 if op.startswith("**") else f" {op} ".join(map(repr, args)))
        raise NumericOverflowError(f"{shown} overflows a float")
    return float(y)


def evaluate(t: Trace, overrides: dict[str, float]) -> float:
    """Recompute the root's value from the trace's ops, with some leaves changed."""
    values: dict[str, float] = {}
    for n in t.nodes:
        if n["parents"]:
            values[n["id"]] = _forward(n["op"], [values[p] for p in n["parents"]])
        else:
            values[n["id"]] = overrides.get(n["id"], n["data"])
        if n["id"] == t.root:
            break
    return values[t.root]


def _as_trace(x: Any) -> Trace:
    if isinstance(x, Trace):
        return x
    if hasattr(x, "graph") and hasattr(x, "nodes"):
        from .convert import as_graph, graph_to_trace

        return graph_to_trace(as_graph(x))  # a graph not made by vizgrad is refused clearly
    return trace(x)


def overflowed(G: Any) -> str:
    """The first values or grads of the graph that are inf or nan, as text ('' if none)."""
    from ..style.text import formula, name

    found = []
    for n, attrs in sorted(G.nodes(data=True), key=lambda item: item[1].get("order", 0)):
        for key, what in (("data", formula(G, n)), ("grad", f"the grad of {name(G, n)}")):
            v = attrs.get(key)
            if isinstance(v, float) and not math.isfinite(v):
                found.append(f"{what} is {v}")
    return "; ".join(found[:3]) + ("; …" if len(found) > 3 else "")


def _checkable(t: Trace) -> None:
    """Refuse a graph whose root cannot be re-evaluated from its own nodes."""
    boxes = [n for n in t.nodes if n["kind"] in _BOXES]
    if boxes:
        what = "focused" if boxes[0]["kind"] == "stub" else "collapsed"
        raise GraphFormatError(
            f"this graph is {what}: its box {boxes[0]['label'] or boxes[0]['id']!r} stands for "
            f"values whose ops it does not hold, so gradcheck cannot re-evaluate it; check "
            "the graph it was made from (vizgrad check mlp, or gradcheck before collapse)")
    for n in t.nodes:
        why = _arity(n["op"], len(n["parents"])) if n["parents"] else None
        if why:
            raise GraphFormatError(f"cannot re-evaluate node {n['id']!r} (op {n['op']!r} with "
                                   f"{len(n['parents'])} operands): {why}")
    bad = [n for n in t.nodes if not all(
        isinstance(v, (int, float)) and math.isfinite(v) for v in
        (n["data"], 0.0 if n["grad"] is None else n["grad"]))]
    if bad:
        from .convert import to_networkx

        raise NumericOverflowError(
            f"the graph overflowed: {overflowed(to_networkx(t))}; backprop and the central "
            "differences are meaningless there. Use smaller inputs")


def _nudged(t: Trace, node: str, x: float) -> bool:
    """True when the graph can be evaluated one float either side of ``x``."""
    try:
        for side in (math.inf, -math.inf):
            evaluate(t, {node: math.nextafter(x, side)})
    except (ValueError, OverflowError, ZeroDivisionError):
        return False
    return True


def _difference(t: Trace, n: dict[str, Any], h: float) -> float:
    x, name = n["data"], n["label"] or n["id"]
    try:
        return (evaluate(t, {n["id"]: x + h}) - evaluate(t, {n["id"]: x - h})) / (2 * h)
    except (ValueError, OverflowError, ZeroDivisionError) as err:
        cls = NumericOverflowError if isinstance(err, OverflowError) else DomainError
        advice = ("use a smaller h" if _nudged(t, n["id"], x) else
                  f"no step helps: it fails however close to {name} = {x!r} the step is")
        raise cls(f"the central difference at {name} = {x!r} ± {h:g} cannot be taken ({err}); "
                  + advice) from None


def gradcheck(x: Any, h: float = 1e-6) -> list[dict[str, Any]]:
    """Compare backprop with ``(f(x+h) - f(x-h)) / 2h`` for every input leaf.

    Args:
        x: a Value, a Trace or a graph from :func:`vizgrad.to_networkx`.
        h: the step, a finite number > 0.

    Returns:
        One dict per input (constants excluded), in topological order, with
        keys ``input`` (label or id), ``id``, ``backprop``, ``numeric``, ``error``.
    """
    if isinstance(h, bool) or not isinstance(h, (int, float)) or not (math.isfinite(h) and h > 0):
        raise DomainError(f"h must be a finite number > 0, got {h!r}; try 1e-6")
    t = _as_trace(x)
    _checkable(t)
    rows = []
    for n in t.nodes:
        if not n["parents"] and n["kind"] != "const":
            numeric = _difference(t, n, h)
            backprop = 0.0 if n["grad"] is None else float(n["grad"])
            rows.append({"input": n["label"] or n["id"], "id": n["id"], "backprop": backprop,
                         "numeric": numeric, "error": abs(numeric - backprop)})
        if n["id"] == t.root:
            break
    return rows

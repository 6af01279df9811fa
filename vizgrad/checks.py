"""Gradient checks by central differences, independent of backpropagation.

    >>> from vizgrad import Value
    >>> a, b = Value(-2.0, label="a"), Value(3.0, label="b")
    >>> rows = gradcheck((a * b) * (a + b), h=1e-6)
    >>> [(r["input"], r["backprop"], f"{r['error']:.4e}") for r in rows]
    [('a', -3.0, '4.1933e-10'), ('b', -8.0, '1.1182e-09')]

The graph is re-evaluated from its recorded ops (``+ * **k exp log tanh
relu``), so the check works on vizgrad and micrograd Values, on a
:class:`~vizgrad.tracing.Trace` and on a graph loaded from JSON.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from .exceptions import DomainError, GraphFormatError, VizgradError
from .tracing import Trace, trace

__all__ = ["gradcheck", "evaluate"]

_UNARY: dict[str, Callable[[float], float]] = {
    "exp": math.exp,
    "log": math.log,
    "tanh": math.tanh,
    "relu": lambda x: x if x > 0 else 0.0,
    "ReLU": lambda x: x if x > 0 else 0.0,
}


def _forward(op: str, args: list[float]) -> float:
    if op == "+":
        return math.fsum(args) if len(args) > 2 else args[0] + args[1]
    if op == "*":
        return args[0] * args[1]
    if op.startswith("**"):
        return args[0] ** float(op[2:])
    if op in _UNARY:
        return _UNARY[op](args[0])
    raise GraphFormatError(f"cannot re-evaluate op {op!r}: gradcheck knows + * **k exp log tanh relu")


def evaluate(t: Trace, overrides: dict[str, float]) -> float:
    """Recompute the root's value from the trace's ops, with some leaves changed."""
    values: dict[str, float] = {}
    root_order = t.node(t.root)["order"]
    for n in t.nodes[: root_order + 1]:
        if n["parents"]:
            values[n["id"]] = _forward(n["op"], [values[p] for p in n["parents"]])
        else:
            values[n["id"]] = overrides.get(n["id"], n["data"])
    return values[t.root]


def _as_trace(x: Any) -> Trace:
    if isinstance(x, Trace):
        return x
    if hasattr(x, "graph") and hasattr(x, "nodes"):
        from .graph import as_graph, graph_to_trace

        return graph_to_trace(as_graph(x))  # a graph not made by vizgrad is refused clearly
    return trace(x)


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
    root_order = t.node(t.root)["order"]
    rows = []
    for n in t.nodes[: root_order + 1]:
        if n["parents"] or n["kind"] == "const":
            continue
        try:
            plus = evaluate(t, {n["id"]: n["data"] + h})
            minus = evaluate(t, {n["id"]: n["data"] - h})
        except (ValueError, OverflowError, ZeroDivisionError) as err:
            if isinstance(err, VizgradError):
                raise
            raise DomainError(
                f"the function is not defined at {n['label'] or n['id']} ± {h:g} ({err}); "
                "use a smaller h"
            ) from None
        numeric = (plus - minus) / (2 * h)
        backprop = 0.0 if n["grad"] is None else float(n["grad"])
        rows.append({"input": n["label"] or n["id"], "id": n["id"], "backprop": backprop,
                     "numeric": numeric, "error": abs(numeric - backprop)})
    return rows

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
from ..tracing.rules import check_contribution

__all__ = ["FINAL_CHECK_INPUTS", "FINAL_CHECK_VALUES", "GRAD_TOLERANCE", "evaluate",
           "final_check", "gradcheck", "op_disagreements", "overflowed"]

_UNARY: dict[str, Callable[[float], float]] = {
    "exp": math.exp,
    "log": math.log,
    "tanh": math.tanh,
    "relu": lambda x: x if x > 0 else 0.0,
    "ReLU": lambda x: x if x > 0 else 0.0,
}
_BOXES = ("group", "stub")
#: a gradient disagrees with its central difference when they differ by more than this
#: times max(1, |central difference|)
GRAD_TOLERANCE = 1e-4


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
    return _Program(t).run(overrides)


class _Program:
    """The trace's ops up to the root as index lists, evaluated once; a nudged leaf then
    recomputes only the values downstream of it (the same ops on the same operands, so the
    same floats as recomputing everything, in a fraction of the time on a big net)."""

    def __init__(self, t: Trace) -> None:
        ix: dict[str, int] = {}
        self.ops: list[str] = []
        self.parents: list[list[int]] = []
        self.data: list[Any] = []
        for n in t.nodes:
            ix[n["id"]] = len(self.ops)
            self.ops.append(n["op"])
            self.parents.append([ix[p] for p in n["parents"]])
            self.data.append(n["data"])
            if n["id"] == t.root:
                break
        self.ix = ix
        self.children: list[list[int]] = [[] for _ in self.ops]
        for i, ps in enumerate(self.parents):
            for p in set(ps):
                self.children[p].append(i)
        self.base: list[float] | None = None

    def _compute(self, values: list[Any], at: Any) -> float:
        for i in at:
            ps = self.parents[i]
            if ps:
                values[i] = _forward(self.ops[i], [values[p] for p in ps])
        return float(values[-1])

    def run(self, overrides: dict[str, float]) -> float:
        """The root's value with the leaves ``overrides`` names set to its values."""
        values = list(self.data)
        for node, x in overrides.items():
            values[self.ix[node]] = x
        return self._compute(values, range(len(values)))

    def nudged(self, node: str, x: float) -> float:
        """:meth:`run` with one leaf changed, recomputing only what depends on it."""
        if self.base is None:
            self.base = list(self.data)
            self._compute(self.base, range(len(self.base)))
        start = self.ix[node]
        seen, stack = {start}, [start]
        while stack:
            for c in self.children[stack.pop()]:
                if c not in seen:
                    seen.add(c)
                    stack.append(c)
        values = list(self.base)
        values[start] = x
        return self._compute(values, sorted(seen))


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
            who = n.get("name") or n.get("label")  # named as the pictures name it
            raise GraphFormatError(
                f"cannot re-evaluate {who + ', ' if who else ''}node {n['id']!r} (op "
                f"{n['op']!r} with {len(n['parents'])} operand"
                f"{'' if len(n['parents']) == 1 else 's'}): {why}")
    bad = [n for n in t.nodes if not all(
        isinstance(v, (int, float)) and math.isfinite(v) for v in
        (n["data"], 0.0 if n["grad"] is None else n["grad"]))]
    if bad:
        from .convert import to_networkx

        raise NumericOverflowError(
            f"the graph overflowed: {overflowed(to_networkx(t))}; backprop and the central "
            "differences are meaningless there. Use smaller inputs")


def _nudged(prog: _Program, node: str, x: float) -> bool:
    """True when the graph can be evaluated one float either side of ``x``."""
    try:
        for side in (math.inf, -math.inf):
            prog.nudged(node, math.nextafter(x, side))
    except (ValueError, OverflowError, ZeroDivisionError):
        return False
    return True


def _difference(prog: _Program, n: dict[str, Any], h: float) -> float:
    x, name = n["data"], n["label"] or n["id"]
    try:
        return (prog.nudged(n["id"], x + h) - prog.nudged(n["id"], x - h)) / (2 * h)
    except (ValueError, OverflowError, ZeroDivisionError) as err:
        cls = NumericOverflowError if isinstance(err, OverflowError) else DomainError
        advice = ("use a smaller h" if _nudged(prog, n["id"], x) else
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
    prog = _Program(t)
    rows = []
    for n in t.nodes:
        if not n["parents"] and n["kind"] != "const":
            numeric = _difference(prog, n, h)
            backprop = 0.0 if n["grad"] is None else float(n["grad"])
            rows.append({"input": n["label"] or n["id"], "id": n["id"], "backprop": backprop,
                         "numeric": numeric, "error": abs(numeric - backprop)})
        if n["id"] == t.root:
            break
    return rows


def op_disagreements(G: Any) -> list[dict[str, Any]]:
    """Every backward step whose observed local derivative disagrees with its op's rule, in
    the order of the steps: the op's output (``node``, named as the pictures name it), its
    ``op``, its ``inputs`` (name and value), the ``target`` whose grad it sent, and the local
    derivative ``observed``, the ``rule``'s and the ``central`` difference's (see
    :func:`vizgrad.tracing.rules.verdict`). Empty for vizgrad's own Values, whose local
    derivatives are recorded, and for correct code.

    >>> from vizgrad import Value, to_networkx
    >>> op_disagreements(to_networkx(Value(2.0, label="x").log()))
    []
    """
    from ..style.text import name

    rows = []
    for step in G.graph.get("steps", ()):
        for c in step.get("contributions", ()):
            v = check_contribution(G, c) if c.get("observed") else None
            if v is None or v.agrees:
                continue
            src = c["source"]
            ins = [e[0] for e in sorted(G.in_edges(src, keys=True), key=lambda e: e[2])]
            rows.append({"node": name(G, src), "id": src, "op": str(G.nodes[src].get("op", "")),
                         "inputs": [(name(G, u), float(G.nodes[u]["data"])) for u in ins],
                         "target": name(G, c["target"]), "observed": v.observed,
                         "rule": v.rule, "central": v.central, "step": step["index"]})
    return rows


#: the final view checks a graph's input gradients against central differences only up to
#: this many inputs and values (each input costs two evaluations of the whole graph)
FINAL_CHECK_INPUTS = 32
FINAL_CHECK_VALUES = 500


def final_check(G: Any) -> dict[str, Any] | None:
    """The final view's check of every input gradient against its central difference.

    ``{"status": "agree", "largest": error}``, or ``{"status": "disagree", "wrong": [(id,
    backprop, numeric), …], "overwrote": bool}`` (``overwrote``: some closure assigned, ``=``,
    instead of adding), or ``{"status": "not_checked", "op": op}`` (an op whose forward
    vizgrad does not know; ``op`` is ``None`` when the graph is over
    :data:`FINAL_CHECK_INPUTS` inputs or :data:`FINAL_CHECK_VALUES` values; ``"folded":
    True`` for a collapsed or focused graph, whose boxes hold no ops to re-evaluate: check
    the graph it came from); ``None`` for a graph without ``backward()``.

    >>> from vizgrad import examples
    >>> [(n, b, round(x, 6)) for n, b, x in final_check(examples.graph("overwrite-bug"))["wrong"]]
    [('v0', 1.0, 2.0)]
    >>> final_check(examples.graph("fork"))["status"]
    'agree'
    """
    if not G.graph.get("backward_ran", True):
        return None
    nodes = G.nodes
    folded = {"status": "not_checked", "op": None, "folded": True}
    if G.graph.get("collapsed") or G.graph.get("focus"):
        return folded  # check the graph it came from
    if len(G) > FINAL_CHECK_VALUES:  # first: a large graph costs nothing more
        return {"status": "not_checked", "op": None}
    if any(nodes[n].get("kind") in _BOXES for n in G):
        return folded
    inputs = sum(1 for n in G if not G.in_degree(n) and nodes[n].get("kind") != "const")
    if inputs > FINAL_CHECK_INPUTS:
        return {"status": "not_checked", "op": None}
    for n in sorted(G, key=lambda n: nodes[n].get("order", 0)):
        count = G.in_degree(n)
        if count and _arity(str(nodes[n].get("op", "")), count):
            return {"status": "not_checked", "op": str(nodes[n].get("op", ""))}
    try:
        rows = gradcheck(G, h=1e-6)
    except (DomainError, NumericOverflowError, GraphFormatError):
        return {"status": "not_checked", "op": None}
    wrong = [(r["id"], r["backprop"], r["numeric"]) for r in rows
             if not r["error"] <= GRAD_TOLERANCE * max(1.0, abs(r["numeric"]))]
    if not wrong:
        return {"status": "agree", "largest": max((r["error"] for r in rows), default=0.0)}
    overwrote = any(c.get("overwrote") for s in G.graph["steps"]
                    for c in s.get("contributions", ()))
    return {"status": "disagree", "wrong": wrong, "overwrote": overwrote}

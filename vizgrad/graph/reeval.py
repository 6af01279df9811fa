"""A trace's ops re-evaluated with a leaf nudged, and the kinks such a nudge crosses.

:class:`Program` holds the ops up to the root as index lists; :meth:`Program.nudged` moves one
leaf and recomputes only what depends on it. :meth:`Program.difference` is the central
difference of :func:`vizgrad.graph.gradcheck.gradcheck`, and it says when the nudge ±h
crosses a point where an op has no derivative (``relu`` at 0: its slope is 0 on one side and
1 on the other), where a central difference cannot check backprop::

    >>> from vizgrad import Value
    >>> from vizgrad.tracing.recorder import trace
    >>> b = Value(0.0, label="b")
    >>> t = trace((b + 0.0).relu())
    >>> d = Program(t).difference("v0", 1e-6)
    >>> round(d.numeric, 9), [(k.name, k.value) for k in d.kinks], d.branch
    (0.5, [('relu(b + 0)', 0.0)], 0.0)

With the relu kept on the side its rule takes at 0 (slope 0), the difference is 0, as
backprop's is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

from ..exceptions import NumericOverflowError

__all__ = ["KINKED", "UNARY", "Difference", "Kink", "Program", "arity", "evaluate", "forward"]

UNARY: dict[str, Callable[[float], float]] = {
    "exp": math.exp,
    "log": math.log,
    "tanh": math.tanh,
    "relu": lambda x: x if x > 0 else 0.0,
    "ReLU": lambda x: x if x > 0 else 0.0,
}
#: the ops without a derivative at one point of their input (relu's slope is 0 below 0 and
#: 1 above): a nudge that crosses it cannot check backprop there
KINKED = {"relu": 0.0, "ReLU": 0.0}


def arity(op: str, n: int) -> str | None:
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
    if op in UNARY:
        return None if n == 1 else f"{op!r} takes one operand"
    return "gradcheck knows + * **k exp log tanh relu"


def forward(op: str, args: list[float]) -> float:
    """``op`` of ``args``; an overflow of finite operands is refused."""
    try:
        if op == "+":
            y = math.fsum(args) if len(args) > 2 else args[0] + args[1]
        elif op == "*":
            y = args[0] * args[1]
        elif op.startswith("**"):
            y = args[0] ** float(op[2:])
        else:
            y = UNARY[op](args[0])
    except OverflowError:
        y = math.inf
    if math.isinf(y) and all(map(math.isfinite, args)):
        shown = (f"{op}({args[0]!r})" if op in UNARY else f"{args[0]!r} ** {op[2:]}"
                 if op.startswith("**") else f" {op} ".join(map(repr, args)))
        raise NumericOverflowError(f"{shown} overflows a float")
    return float(y)


def evaluate(t: Any, overrides: dict[str, float]) -> float:
    """Recompute the root's value from the trace's ops, with some leaves changed."""
    return Program(t).run(overrides)


@dataclass(frozen=True)
class Kink:
    """An op whose input the nudge moved across its kink: the op's output (``id``,
    ``name`` as the pictures name it), its ``op`` and its input's ``value`` unnudged."""

    id: str
    name: str
    op: str
    value: float


@dataclass(frozen=True)
class Difference:
    """A central difference (``numeric``), the kinks its nudge crossed, and then
    ``branch``: the difference with each of those ops kept on the side its rule takes at the
    unnudged input (relu's slope there: 1 above 0, else 0), as backprop does (``None``
    without kinks)."""

    numeric: float
    kinks: tuple[Kink, ...] = ()
    branch: float | None = None


class Program:
    """The trace's ops up to the root as index lists, evaluated once; a nudged leaf then
    recomputes only the values downstream of it (the same ops on the same operands, so the
    same floats as recomputing everything, in a fraction of the time on a big net)."""

    def __init__(self, t: Any) -> None:
        ix: dict[str, int] = {}
        self.ops: list[str] = []
        self.parents: list[list[int]] = []
        self.data: list[Any] = []
        self.ids: list[str] = []
        self.names: list[str] = []
        for n in t.nodes:
            ix[n["id"]] = len(self.ops)
            self.ops.append(n["op"])
            self.parents.append([ix[p] for p in n["parents"]])
            self.data.append(n["data"])
            self.ids.append(n["id"])
            self.names.append(n["label"] or n.get("name") or n["id"])
            if n["id"] == t.root:
                break
        self.ix = ix
        self.children: list[list[int]] = [[] for _ in self.ops]
        for i, ps in enumerate(self.parents):
            for p in set(ps):
                self.children[p].append(i)
        self.base: list[float] | None = None

    def _compute(self, values: list[Any], at: Any, kept: dict[int, bool] | None = None) -> float:
        for i in at:
            ps = self.parents[i]
            if kept and i in kept:  # a kinked op on the side its rule takes
                values[i] = values[ps[0]] if kept[i] else 0.0
            elif ps:
                values[i] = forward(self.ops[i], [values[p] for p in ps])
        return float(values[-1])

    def run(self, overrides: dict[str, float]) -> float:
        """The root's value with the leaves ``overrides`` names set to its values."""
        values = list(self.data)
        for node, x in overrides.items():
            values[self.ix[node]] = x
        return self._compute(values, range(len(values)))

    def _downstream(self, node: str) -> list[int]:
        start = self.ix[node]
        seen, stack = {start}, [start]
        while stack:
            for c in self.children[stack.pop()]:
                if c not in seen:
                    seen.add(c)
                    stack.append(c)
        return sorted(seen)

    def _values(self, node: str, x: float, at: list[int],
                kept: dict[int, bool] | None = None) -> list[float]:
        if self.base is None:
            self.base = list(self.data)
            self._compute(self.base, range(len(self.base)))
        values = list(self.base)
        values[self.ix[node]] = x
        self._compute(values, at, kept)
        return values

    def nudged(self, node: str, x: float) -> float:
        """:meth:`run` with one leaf changed, recomputing only what depends on it."""
        return self._values(node, x, self._downstream(node))[-1]

    def difference(self, node: str, h: float) -> Difference:
        """``(f(x+h) − f(x−h)) / 2h`` at the leaf ``node``, and the kinks between."""
        at = self._downstream(node)
        x = self.data[self.ix[node]]
        up, down = self._values(node, x + h, at), self._values(node, x - h, at)
        numeric = (up[-1] - down[-1]) / (2 * h)
        base = self.base or []
        kinks = [i for i in at if self.ops[i] in KINKED and self.parents[i]
                 and _crosses(KINKED[self.ops[i]],
                              [v[self.parents[i][0]] for v in (down, base, up)])]
        if not kinks:
            return Difference(numeric)
        kept = {i: base[self.parents[i][0]] > KINKED[self.ops[i]] for i in kinks}
        branch = (self._values(node, x + h, at, kept)[-1]
                  - self._values(node, x - h, at, kept)[-1]) / (2 * h)
        return Difference(numeric, tuple(
            Kink(self.ids[i], self.names[i], self.ops[i], float(base[self.parents[i][0]]))
            for i in kinks), branch)


def _crosses(at: float, inputs: list[float]) -> bool:
    """True when the inputs lie on both sides of the kink ``at`` (relu: above it, or not)."""
    return len({u > at for u in inputs}) == 2

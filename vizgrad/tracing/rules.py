"""The ops' rules, and the check of a local derivative that a backward step was observed to use.

vizgrad records its own Values' local derivatives; for any other ``_backward`` (micrograd's,
or a student's own op) it can only observe what the code did: the contribution divided by
the grad received. :func:`verdict` compares that number with the op's rule at the op's
inputs and with a central difference of that op alone (one op, two evaluations: cheap
however large the graph). A Value that fills several slots of one op (``x*x``, ``a+a``) is
compared with the sum of its slots' rules, so correct code is never flagged::

    >>> verdict("log", [2.0], 0.6931471805599453, [0], 1 / 0.6931471805599453).agrees
    False
    >>> v = verdict("log", [2.0], 0.6931471805599453, [0], 0.5)
    >>> v.agrees, v.rule, round(v.central, 6)
    (True, 0.5, 0.5)
    >>> verdict("*", [2.0, 2.0], 4.0, [0, 1], 4.0).agrees  # x*x: x + x
    True
    >>> verdict("sin", [1.0], 0.84, [0], 0.54) is None  # a rule vizgrad does not know
    True
"""

from __future__ import annotations

import math
from typing import Any, Callable, NamedTuple

__all__ = ["KNOWN", "RULE_TOLERANCE", "Verdict", "check_contribution", "close", "forward", "knows",
           "local", "verdict"]

#: the relative (and absolute, near 0) tolerance between the observed local derivative and
#: the rule: a correct closure differs only by rounding
RULE_TOLERANCE = 1e-6
#: the ops whose forward and rule vizgrad knows (``**k`` for any number k)
KNOWN = ("+", "*", "-", "/", "**k", "exp", "log", "tanh", "relu", "ReLU")

_UNARY: dict[str, Callable[[float], float]] = {
    "exp": math.exp, "log": math.log, "tanh": math.tanh,
    "relu": lambda x: x if x > 0 else 0.0, "ReLU": lambda x: x if x > 0 else 0.0,
}


class Verdict(NamedTuple):
    """The check of one observed local derivative: what the code used, the rule's value at
    the op's inputs, a central difference of the op alone, and whether they agree."""

    observed: float
    rule: float
    central: float | None
    agrees: bool


def _power(op: str) -> float | None:
    try:
        return float(op[2:]) if op.startswith("**") else None
    except ValueError:
        return None


def knows(op: str, n: int) -> bool:
    """True when vizgrad knows ``op``'s forward and rule with ``n`` operands.

    >>> knows("+", 2), knows("**3", 1), knows("sin", 1), knows("*", 3)
    (True, True, False, False)
    """
    if op in _UNARY or _power(op) is not None:
        return n == 1
    return op in ("+", "*", "-", "/") and n == 2 or op == "+" and n > 2


def forward(op: str, xs: list[float]) -> float:
    """The op's value at ``xs`` (for a known op; errors of the maths propagate).

    >>> forward("**2", [3.0]), forward("/", [1.0, 4.0]), forward("relu", [-1.0])
    (9.0, 0.25, 0.0)
    """
    if op == "+":
        return math.fsum(xs) if len(xs) > 2 else xs[0] + xs[1]
    if op == "*":
        return xs[0] * xs[1]
    if op == "-":
        return xs[0] - xs[1]
    if op == "/":
        return xs[0] / xs[1]
    k = _power(op)
    if k is not None:
        return float(xs[0] ** k)
    return _UNARY[op](xs[0])


def local(op: str, xs: list[float], out: float, slot: int) -> float:
    """The rule's local derivative of ``op`` for operand ``slot`` at ``xs`` (value ``out``).

    >>> local("tanh", [0.5], math.tanh(0.5), 0) == 1 - math.tanh(0.5) ** 2
    True
    >>> local("*", [2.0, 3.0], 6.0, 1), local("**3", [2.0], 8.0, 0), local("/", [1.0, 2.0], .5, 1)
    (2.0, 12.0, -0.25)
    """
    x = xs[slot]
    if op == "+":
        return 1.0
    if op == "*":
        return xs[1 - slot]
    if op == "-":
        return 1.0 if slot == 0 else -1.0
    if op == "/":
        return 1.0 / xs[1] if slot == 0 else -xs[0] / xs[1] ** 2
    if op == "exp":
        return out
    if op == "log":
        return 1.0 / x
    if op == "tanh":
        return 1.0 - out * out
    if op in ("relu", "ReLU"):
        return 1.0 if x > 0 else 0.0
    k = _power(op)
    if k is None:
        raise KeyError(op)
    return 0.0 if k == 0 else k * x ** (k - 1)


def _central(op: str, xs: list[float], slots: list[int]) -> float | None:
    """A central difference of the op alone, moving every slot the Value fills together."""
    h = 1e-6 * max(1.0, max(abs(xs[s]) for s in slots))
    try:
        up = [x + h if i in slots else x for i, x in enumerate(xs)]
        down = [x - h if i in slots else x for i, x in enumerate(xs)]
        return (forward(op, up) - forward(op, down)) / (2 * h)
    except (ValueError, OverflowError, ZeroDivisionError):
        return None


def close(a: float, b: float) -> bool:
    """Equal up to :data:`RULE_TOLERANCE` (relative, or absolute near 0).

    >>> close(1.0, 1.0 + 1e-12), close(0.5, 1.4427)
    (True, False)
    """
    return math.isclose(a, b, rel_tol=RULE_TOLERANCE, abs_tol=RULE_TOLERANCE)


def verdict(op: str, xs: list[float], out: float, slots: list[int],
            observed: float | None) -> Verdict | None:
    """The check of an observed local derivative of the Value in ``slots`` of ``op``; None
    when the op or its rule is unknown here, or nothing was observed (a grad received of 0).
    """
    if observed is None or not knows(op, len(xs)) or not slots:
        return None
    try:
        rule = math.fsum(local(op, xs, out, s) for s in slots)
    except (ValueError, OverflowError, ZeroDivisionError):
        return None
    if not (math.isfinite(rule) and math.isfinite(observed)):
        return None
    return Verdict(observed, rule, _central(op, xs, slots), close(observed, rule))


def check_contribution(G: Any, c: dict[str, Any]) -> Verdict | None:
    """The :func:`verdict` of an observed contribution ``c`` of graph ``G`` (a networkx graph
    of :func:`vizgrad.to_networkx` or loaded from JSON); None for one that was not observed.
    """
    if not c.get("observed"):
        return None
    src = c["source"]
    edges = sorted(G.in_edges(src, keys=True), key=lambda e: e[2])
    nodes = [G.nodes[src], *(G.nodes[e[0]] for e in edges)]
    if any(a.get("data") is None or a.get("kind") in ("group", "stub") or a.get("members")
           for a in nodes):  # a box's number is not the value its op read: nothing to check
        return None
    xs = [float(G.nodes[e[0]]["data"]) for e in edges]
    slots = [i for i, e in enumerate(edges) if e[0] == c["target"]]
    return verdict(str(G.nodes[src].get("op", "")), xs, float(G.nodes[src]["data"]), slots,
                   c.get("local"))


"""Graphs that several test modules build."""

from __future__ import annotations

from vizgrad import Value


def build_fork(a: float = -2.0, b: float = 3.0, backward: bool = True) -> tuple[Value, Value, Value]:
    """The chapter's fork graph q = (a*b)*(a+b), labelled a, b, u, v, q: returns (q, a, b)."""
    va, vb = Value(a, label="a"), Value(b, label="b")
    u = va * vb
    u.label = "u"
    v = va + vb
    v.label = "v"
    q = u * v
    q.label = "q"
    if backward:
        q.backward()
    return q, va, vb

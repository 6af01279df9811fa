"""The chapter's scalar autograd engine: :class:`Value`.

A ``Value`` keeps its ``data``, its ``grad``, its ``parents`` in operand
order, the ``op`` that made it and a ``_backward`` closure that *adds* the
output's gradient, times the local derivative, to every input::

    >>> a, b = Value(-2.0, label="a"), Value(3.0, label="b")
    >>> q = (a * b) * (a + b)
    >>> q.backward()
    >>> q.data, a.grad, b.grad
    (-6.0, -3.0, -8.0)

This module imports nothing outside the standard library.
"""

from __future__ import annotations

import math
from typing import Callable, Iterable

from . import display as _display
from .floats import as_float as _as_float
from .floats import overflowed as _overflowed
from .groups import current_group as _current_group
from .groups import group
from ..exceptions import DomainError, NumericOverflowError, OperandTypeError

__all__ = ["Value", "add_with_overwrite_bug", "group", "topological_order"]

def _noop() -> None:
    """The backward function of a leaf: nothing flows further back."""


class Value:
    """A scalar that remembers how it was computed.

    Args:
        data: the forward value (any real number; stored as ``float``).
        children: the operands, in order (``a + a`` keeps both).
        op: the name of the operation that made this value (``''`` for a leaf).
        label: an optional name used by drawings and traces.

    Example:
        >>> x = Value(3.0, label="x")
        >>> y = x + x + x * x
        >>> y.backward(); x.grad
        8.0
    """

    __slots__ = ("data", "grad", "parents", "op", "label", "group", "_backward", "_local")

    #: True for numbers wrapped by an operation (the 2 in ``a + 2``).
    is_const = False
    #: True when the backward closure overwrites (``=``) instead of adding.
    overwrites = False

    def __init__(
        self,
        data: float,
        children: Iterable[Value] = (),
        op: str = "",
        label: str | None = None,
    ) -> None:
        self.data = _as_float(data, "Value()")
        self.grad = 0.0
        self.parents: tuple[Value, ...] = tuple(children)
        self.op = op
        self.label = label
        #: the :func:`group` path this Value was created in, or None
        self.group: str | None = _current_group()
        self._backward: Callable[[], None] = _noop
        #: local derivative d(self)/d(parent) per operand slot
        self._local: tuple[float, ...] = ()

    # -- micrograd compatibility (read-only) --------------------------------
    @property
    def _prev(self) -> set[Value]:
        """The parents as a set, as ``micrograd.engine.Value._prev``."""
        return set(self.parents)

    @property
    def _op(self) -> str:
        """The op name, as ``micrograd.engine.Value._op``."""
        return self.op

    def __repr__(self) -> str:
        name = f"label={self.label!r}, " if self.label else ""
        return f"Value({name}data={self.data!r}, grad={self.grad!r})"

    def _repr_mimebundle_(self, include: object = None,
                          exclude: object = None) -> dict[str, str] | None:
        """After ``backward()``, notebooks show a small graph as a step player
        (vizgrad.embed.notebook)."""
        return _display.bundle("value", self)

    # -- building the graph ---------------------------------------------------
    @staticmethod
    def wrap(x: Value | float, op: str = "Value") -> Value:
        """Return ``x`` if it is a Value, else a constant Value holding it."""
        if isinstance(x, Value):
            return x
        return _Const(_as_float(x, f"operand of {op!r}"))

    def __add__(self, other: Value | float) -> Value:
        other = self.wrap(other, "+")
        y = self.data + other.data
        if y - y != 0.0:  # inf or nan: an overflow unless an operand was one already
            _overflowed(y, self.data, other.data, "+")
        out = Value(y, (self, other), "+")
        out._local = (1.0, 1.0)

        def _backward() -> None:
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other: Value | float) -> Value:
        other = self.wrap(other, "*")
        a, b = self.data, other.data  # captured: later edits of .data do not matter
        y = a * b
        if y - y != 0.0:
            _overflowed(y, a, b, "*")
        out = Value(y, (self, other), "*")
        out._local = (b, a)

        def _backward() -> None:
            self.grad += b * out.grad
            other.grad += a * out.grad

        out._backward = _backward
        return out

    def __pow__(self, k: float) -> Value:
        if isinstance(k, Value):
            raise OperandTypeError(
                "x ** y: the exponent must be a constant int or float, not a Value; "
                "write exp(y * log(x)) for a variable exponent"
            )
        k = _as_float(k, "exponent of '**'")
        x = self.data
        if x < 0 and not k.is_integer():
            raise DomainError(f"({x!r}) ** {k!r}: a negative base needs an integer exponent")
        if x == 0 and k < 0:
            raise DomainError(f"({x!r}) ** {k!r}: zero cannot be raised to a negative power")
        if x == 0 and 0 < k < 1:
            raise DomainError(f"({x!r}) ** {k!r}: the derivative is infinite at zero")
        try:
            y = x**k
            d = k * x ** (k - 1) if k != 0 else 0.0  # 0.0 ** -1 would raise
            if math.isfinite(x) and not (math.isfinite(y) and math.isfinite(d)):
                raise OverflowError
        except OverflowError:
            raise NumericOverflowError(
                f"({x!r}) ** {k!r} overflows a float (the largest is about 1.8e308); "
                "scale the input down") from None
        short = f"{k:g}"  # "**2", but never a rounded exponent: gradcheck re-reads it
        out = Value(y, (self,), f"**{short if float(short) == k else repr(k)}")
        out._local = (d,)

        def _backward() -> None:
            self.grad += d * out.grad

        out._backward = _backward
        return out

    def exp(self) -> Value:
        """``e ** self``; raises NumericOverflowError past about 709.78."""
        x = self.data
        try:
            y = math.exp(x)
        except OverflowError:
            raise NumericOverflowError(
                f"exp({x!r}) overflows a float (the largest input is about 709.78); "
                "scale the input down"
            ) from None
        out = Value(y, (self,), "exp")
        out._local = (y,)

        def _backward() -> None:
            self.grad += y * out.grad

        out._backward = _backward
        return out

    def log(self) -> Value:
        """Natural logarithm; defined for ``x > 0``."""
        x = self.data
        if not x > 0:
            raise DomainError(
                f"log({x!r}): log is only defined for x > 0; shift or clip the input first")
        out = Value(math.log(x), (self,), "log")
        out._local = (1.0 / x,)

        def _backward() -> None:
            self.grad += out.grad / x

        out._backward = _backward
        return out

    def tanh(self) -> Value:
        """``math.tanh``, stable for large inputs; the local derivative is 1 - y²."""
        y = math.tanh(self.data)
        d = 1.0 - y * y
        out = Value(y, (self,), "tanh")
        out._local = (d,)

        def _backward() -> None:
            self.grad += d * out.grad

        out._backward = _backward
        return out

    def relu(self) -> Value:
        """``max(0, x)``; the gradient at exactly 0 is 0."""
        d = 1.0 if self.data > 0 else 0.0
        out = Value(self.data if self.data > 0 else 0.0, (self,), "relu")
        out._local = (d,)

        def _backward() -> None:
            self.grad += d * out.grad

        out._backward = _backward
        return out

    # -- composite operations (the chapter's rewrites) ---------------------------
    def __neg__(self) -> Value:
        return self * -1

    def __sub__(self, other: Value | float) -> Value:
        if isinstance(other, Value):
            return self + (-other)
        return self + -_as_float(other, "operand of '-'")

    def __truediv__(self, other: Value | float) -> Value:
        x = other.data if isinstance(other, Value) else _as_float(other, "operand of '/'")
        if x == 0:
            raise DomainError(
                f"({self.data!r}) / {x!r}: division by zero; the divisor must not be 0")
        if isinstance(other, Value):
            return self * other**-1
        return self * (1.0 / x)

    def __radd__(self, other: float) -> Value:
        return self + other

    def __rmul__(self, other: float) -> Value:
        return self * other

    def __rsub__(self, other: float) -> Value:
        return self.wrap(other, "-") + (-self)

    def __rtruediv__(self, other: float) -> Value:
        return self.wrap(other, "/") * self**-1

    # -- the backward pass ---------------------------------------------------
    def backward(self) -> None:
        """Zero every reachable grad, seed this one with 1, run the closures in reverse.

        Unlike micrograd and PyTorch, which *accumulate* into ``grad`` across
        calls, this resets the graph first (chapter 2.3): calling it twice gives
        the same gradients, so two calls cannot be used to sum gradients over
        batches. The sort is iterative, so a chain of a million nodes works.

        >>> x = Value(3.0)
        >>> y = x + x + x * x
        >>> y.backward(); y.backward(); x.grad
        8.0
        """
        order = topological_order(self, zero_grads=True)
        self.grad = 1.0
        for v in reversed(order):
            v._backward()


class _Const(Value):
    """A number wrapped by an operation; drawn compactly."""

    __slots__ = ()
    is_const = True


class _OverwritingAdd(Value):
    """The result of :func:`add_with_overwrite_bug`."""

    __slots__ = ()
    overwrites = True


def add_with_overwrite_bug(x: Value, y: Value | float) -> Value:
    """``x + y`` whose backward *assigns* (``=``) instead of adding (``+=``).

    The chapter's counter-example (2.2, 2.5): with ``b = a + a`` the second
    assignment overwrites the first, so ``a.grad`` ends at 1 instead of 2.

    >>> a = Value(3.0, label="a")
    >>> b = add_with_overwrite_bug(a, a)
    >>> b.backward(); a.grad
    1.0
    """
    y = Value.wrap(y, "+")
    total = x.data + y.data
    _overflowed(total, x.data, y.data, "+")
    out = _OverwritingAdd(total, (x, y), "+")
    out._local = (1.0, 1.0)

    def _backward() -> None:
        x.grad = out.grad  # the bug: = where += belongs
        y.grad = out.grad

    out._backward = _backward
    return out


def topological_order(root: Value, zero_grads: bool = False) -> list[Value]:
    """Every node reachable from ``root``, each after its parents (iterative DFS).

    Parents are visited in operand order, as in the chapter's recursive
    ``visit`` (2.3), without its recursion limit. ``zero_grads`` sets each
    node's grad to 0 as it is placed (what ``backward()`` needs, in one pass).

    >>> a = Value(1.0, label="a")
    >>> [v.label or v.op for v in topological_order(a * 2 + a)]
    ['a', '', '*', '+']
    """
    order: list[Value] = []
    seen = {root}
    stack = [(root, iter(root.parents))]
    push, pop, add, place = stack.append, stack.pop, seen.add, order.append
    while stack:
        node, parents = stack[-1]
        for p in parents:
            if p not in seen:
                add(p)
                push((p, iter(p.parents)))
                break
        else:
            pop()
            place(node)
            if zero_grads:
                node.grad = 0.0
    return order

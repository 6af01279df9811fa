"""Floats for :mod:`vizgrad.core.value`: operands made floats, and the one overflow rule.

An operation whose operands are finite and whose result is not raises
:class:`~vizgrad.exceptions.NumericOverflowError` naming the operation::

    >>> overflowed(1e200 * 1e200, 1e200, 1e200, "*")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.NumericOverflowError: (1e+200) * (1e+200) overflows a float
        (the largest is about 1.8e308); scale the inputs down

Standard library only, as the engine.
"""

from __future__ import annotations

import math
from numbers import Real

from ..exceptions import NumericOverflowError, OperandTypeError

__all__ = ["as_float", "overflowed"]


def as_float(x: object, where: str) -> float:
    """``x`` as a float; a non-number or an int past a float is refused, naming ``where``."""
    if isinstance(x, bool) or not isinstance(x, Real):
        raise OperandTypeError(
            f"{where}: expected a number or a Value, got {type(x).__name__} {x!r}; "
            "convert it with float() first"
        )
    try:
        return float(x)
    except OverflowError:  # an int beyond about 1.8e308
        digits = len(str(abs(x))) if abs(x).bit_length() < 14000 else "thousands of"
        raise NumericOverflowError(
            f"{where}: {type(x).__name__} with {digits} digits is too large for a float "
            "(the largest is about 1.8e308); scale it down"
        ) from None


def overflowed(y: float, a: float, b: float, op: str) -> None:
    """Refuse a sum or product of finite numbers that is beyond a float (``y`` is inf)."""
    if math.isfinite(a) and math.isfinite(b) and not math.isfinite(y):
        raise NumericOverflowError(
            f"({a!r}) {op} ({b!r}) overflows a float (the largest is about 1.8e308); "
            "scale the inputs down")

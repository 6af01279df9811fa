"""The learning rate of a training run: a number, or an expression in the step ``k``.

An expression is read by the safe parser :func:`vizgrad.core.expr.parse` (never ``eval``),
so ``"1 - 0.9*k/100"`` decays the rate as micrograd's demo does::

    >>> rates("0.05", 3)
    [0.05, 0.05, 0.05]
    >>> rates("1 - 0.9*k/100", 3)
    [1.0, 0.991, 0.982]
    >>> rates("-1", 2)
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.TrainingError: --lr -1 is -1 at step k = 0; a learning rate must be \
a number ≥ 0, e.g. 0.05 or "1 - 0.9*k/100"
"""

from __future__ import annotations

import math
from numbers import Real

from ..core.expr import parse
from ..exceptions import ExpressionError, TrainingError, VizgradError

__all__ = ["rates"]

_HINT = 'a learning rate must be a number ≥ 0, e.g. 0.05 or "1 - 0.9*k/100"'


def _one(text: str, k: int) -> float:
    try:
        value = parse(text, k=k).data
    except ExpressionError as err:
        raise TrainingError(f"--lr {text!r} cannot be read: {err.reason}; {_HINT}") from None
    except VizgradError as err:  # a domain error at this k, e.g. log(k) at k = 0
        raise TrainingError(f"--lr {text!r} fails at step k = {k}: {err}; {_HINT}") from None
    return float(value)


def rates(lr: float | str, steps: int) -> list[float]:
    """The learning rate of each step ``k = 0 … steps - 1``, checked: finite and ≥ 0.

    Raises :class:`~vizgrad.exceptions.TrainingError` naming the first bad step.
    """
    if isinstance(lr, bool) or not isinstance(lr, (Real, str)):
        raise TrainingError(f"lr must be a number or an expression in k, got {lr!r}; {_HINT}")
    if isinstance(lr, str):
        text = lr.strip()
        if not text:
            raise TrainingError(f"--lr is empty; {_HINT}")
        try:
            number: float | None = float(text)
        except ValueError:
            number = None
        out = [number] * steps if number is not None else [_one(text, k) for k in range(steps)]
    else:
        text, out = repr(lr), [float(lr)] * steps
    for k, value in enumerate(out):
        if value is None or not math.isfinite(value) or value < 0:
            shown = f"{value:g}" if value is not None else text
            raise TrainingError(f"--lr {text} is {shown} at step k = {k}; {_HINT}")
    return [float(v) for v in out if v is not None]

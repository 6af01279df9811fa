"""The numbers that bound or tune a run, one rule for every entry (the command line, the lab).

:data:`NUMBER_RANGES` gives each its range and :func:`number_in_range` checks a value
against it; :data:`DEFAULT_H` is the gradcheck's step when none is given.
"""

from __future__ import annotations

import math
from typing import Any

from ..exceptions import OptionError

__all__ = ["DEFAULT_H", "NUMBER_RANGES", "number_in_range"]

#: the gradcheck's step when none is given (the command line's ``--h``, the lab's ``"h"``)
DEFAULT_H = 1e-6
#: the one rule for the numbers that bound or tune a run, on every entry (the command line,
#: the lab): ``name -> (lowest, highest, whether the lowest itself is refused)``
NUMBER_RANGES: dict[str, tuple[float, float, bool]] = {
    "h": (1e-12, 1.0, False),
    "tol": (0.0, 1e6, False),
    "max_seconds": (0.0, 86_400.0, True),
    "max_bytes": (1.0, 1e15, False),
    "build_seconds": (0.0, 86_400.0, True),
    "build_memory": (1e6, 1e15, False),
}


def number_in_range(name: str, value: Any, shown: str | None = None) -> float:
    """``value`` as a float if it is a number in the range :data:`NUMBER_RANGES` gives
    ``name``; NaN, infinities and numbers outside it raise :class:`OptionError` naming the
    range (``shown``: how the caller spells the option, e.g. ``--h``).

    >>> number_in_range("h", 1e-6)
    1e-06
    >>> number_in_range("h", 1e-320, "--h")
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.OptionError: --h must be a number from 1e-12 to 1, got 1e-320
    >>> number_in_range("max_seconds", float("nan"), "--max-seconds")
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.OptionError: --max-seconds must be a number above 0 up to 86400, got nan
    """
    low, high, open_low = NUMBER_RANGES[name]
    try:
        x = float(value) if not isinstance(value, bool) else math.nan
    except (TypeError, ValueError, OverflowError):
        x = math.nan
    if not (low < x <= high if open_low else low <= x <= high):
        bound = f"above {low:g} up to {high:g}" if open_low else f"from {low:g} to {high:g}"
        raise OptionError(f"{shown or name} must be a number {bound}, got {value!r}")
    return x

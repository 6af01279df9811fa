"""JSON without nan and infinities: they are written as the strings "nan", "inf", "-inf".

    >>> jsonable([float("nan"), -float("inf"), 1.5])
    ['nan', '-inf', 1.5]
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["jsonable", "strict_json"]


def strict_json(x: Any, indent: int | None = None) -> str:
    """``json.dumps`` with nan and infinities written as strings (see :func:`jsonable`).

    Most graphs hold none, so the plain encoder runs first; only when it meets
    one is the whole value copied through :func:`jsonable`.

    >>> strict_json({"a": [1.0, float("inf")]})
    '{"a": [1.0, "inf"]}'
    """
    try:
        return json.dumps(x, indent=indent, ensure_ascii=False, allow_nan=False)
    except ValueError:
        return json.dumps(jsonable(x), indent=indent, ensure_ascii=False, allow_nan=False)


def jsonable(x: Any) -> Any:
    """Replace non-finite floats by the strings 'nan', 'inf', '-inf' (JSON has none)."""
    if isinstance(x, float) and not math.isfinite(x):
        return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")
    if isinstance(x, dict):
        return {k: jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    return x

"""The longest text a value's label, name or op may have in a picture: :data:`MAX_LABEL`.

A longer label is cut to its first :data:`MAX_LABEL` characters and an ellipsis, and a
:class:`~vizgrad.exceptions.LabelCutWarning` says so, where a graph is traced
(:func:`vizgrad.trace`, so :func:`vizgrad.draw` and the command line) and where a graph JSON
is loaded (:func:`vizgrad.from_json`). So what a file asks to show cannot make a picture,
its layout or the files written from it grow without bound: a 10⁶-character label made a
five-value graph write tens of megabytes. Expressions refuse longer names outright::

    >>> cut("a" * 300)[-3:], len(cut("a" * 300)), cut("short")
    ('aa…', 201, 'short')
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable

from ..exceptions import LabelCutWarning

__all__ = ["ELLIPSIS", "MAX_LABEL", "cut", "cut_all"]

#: characters a label, a name or an op keeps; a longer one is cut and ends in ELLIPSIS
MAX_LABEL = 200
ELLIPSIS = "…"


def cut(text: str) -> str:
    """``text`` itself, or its first :data:`MAX_LABEL` characters and an ellipsis."""
    return text if len(text) <= MAX_LABEL else text[:MAX_LABEL] + ELLIPSIS


def cut_all(texts: list[str], what: str, ids: Iterable[str]) -> list[str]:
    """``texts`` with every one longer than :data:`MAX_LABEL` cut, and one
    :class:`LabelCutWarning` naming the first value and how many were cut (``what``:
    ``"label"``, ``"name"``, ``"op"``; ``ids``: the values' ids, in the same order)."""
    long = [i for i, t in enumerate(texts) if len(t) > MAX_LABEL]
    if not long:
        return texts
    first_id = next(x for i, x in enumerate(ids) if i == long[0])
    more = f" and {len(long) - 1} more" if len(long) > 1 else ""
    warnings.warn(LabelCutWarning(
        f"the {what} of {first_id}{more} has {len(texts[long[0]]):,} characters; drawn cut "
        f"to its first {MAX_LABEL} and an ellipsis"), stacklevel=3)
    out = list(texts)
    for i in long:
        out[i] = cut(out[i])
    return out

"""Input values as people write them (``a=-2, b=3``): the one reader for every entry.

The command line's ``--set a=-2``, the Sphinx directive's and the Markdown fence's
``values: a=-2, b=3`` and the names in the lab's JSON ``"values": {"a": -2}`` all go
through :func:`check_name`, and text through :func:`parse_values`. The rule, once:

- a name is a Python identifier written as Python reads it (NFKC form: ``ａ`` is ``a``,
  so write ``a``), as the expression parser (:func:`vizgrad.core.expr.parse`) takes it;
- a value is a finite number (``-2``, ``1.5e3``; not ``inf`` or ``nan``);
- pairs are ``name=number``, apart by commas or semicolons, or given one by one;
- a name given twice is refused, whatever its values.

A bound that only one entry has (the lab's ``value_limit`` for a shared server) is checked
there, on top of this rule.

    >>> parse_values(["a=-2, b = 3", "x=1.5e3"])
    {'a': -2.0, 'b': 3.0, 'x': 1500.0}
    >>> parse_values(["a=1", "a=2"])
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.OptionError: 'a' is given twice (1 and 2); keep one
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable

from ..exceptions import OptionError

__all__ = ["check_name", "check_number", "parse_values"]


def check_name(name: str, written: str | None = None) -> str:
    """``name`` if it can be a variable's name, else an :class:`OptionError`; ``written`` is
    the text it came from, for the message."""
    where = f"{written!r}: " if written is not None else ""
    if not isinstance(name, str) or not name.isidentifier():
        pair = f"{written!r} is not name=number: " if written is not None else ""
        raise OptionError(f"{pair}{name!r} is not a variable name (use e.g. a, x1, w_2)")
    normal = unicodedata.normalize("NFKC", name)
    if normal != name:
        raise OptionError(f"{where}Python reads the name {name!r} as {normal!r}; write that "
                          "instead")
    return name


def check_number(text: str, written: str) -> float:
    """The finite number ``text`` (``written``: the pair it came from, for the message)."""
    try:
        value = float(text)
    except ValueError:
        raise OptionError(f"{written!r} is not a number; write values as a=-2, b=3") from None
    if not math.isfinite(value):
        raise OptionError(f"{written!r}: the value must be a finite number")
    return value


def parse_values(items: str | Iterable[str]) -> dict[str, float]:
    """``name=number`` pairs (one text, or several, each with pairs apart by ``,`` or ``;``)
    as a dict, in the order given."""
    texts = [items] if isinstance(items, str) else list(items)
    out: dict[str, float] = {}
    for text in texts:
        for part in (p.strip() for p in text.replace(";", ",").split(",")):
            if not part:
                continue
            key, eq, raw = (s.strip() for s in part.partition("="))
            if not eq or not key or not raw:
                raise OptionError(f"{part!r} is not name=number; write values as a=-2, b=3")
            check_name(key, part)
            value = check_number(raw, part)
            if key in out:
                raise OptionError(f"{key!r} is given twice ({out[key]:g} and {value:g}); "
                                  "keep one")
            out[key] = value
    return out

"""Groups of Values: ``with group("layer 1"):`` names where the Values made inside belong.

The engine reads :func:`current_group` when a Value is made; the trace, the graph and
the drawings carry the path (collapse draws a group as one box).
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

from ..exceptions import OptionError

__all__ = ["current_group", "group"]

#: the group path of Values created now ("layer 1/neuron 0"), or None
_GROUP: ContextVar[str | None] = ContextVar("vizgrad_group", default=None)
current_group = _GROUP.get


@contextmanager
def group(name: str) -> Iterator[str]:
    """Record ``name`` as the group of every Value created inside the block.

    Groups nest: inside ``group("layer 1")``, ``group("neuron 0")`` gives the
    path ``"layer 1/neuron 0"`` (a name may hold ``/`` itself). The trace and
    the graph carry the path as the node attribute ``group``; drawings can
    collapse a group into one box. Yields the full path.

    >>> from vizgrad import Value
    >>> with group("layer 1"):
    ...     with group("neuron 0") as path:
    ...         y = Value(2.0) * 3
    >>> path, y.group, Value(1.0).group is None
    ('layer 1/neuron 0', 'layer 1/neuron 0', True)
    """
    if not isinstance(name, str) or not name.strip("/ ") or any(
            not part.strip() for part in name.split("/")):
        raise OptionError(
            f"group name must be a non-empty text whose /-separated parts are not empty, "
            f"got {name!r}; write e.g. group('layer 1') or group('layer 1/neuron 0')"
        )
    outer = _GROUP.get()
    path = name if outer is None else f"{outer}/{name}"
    token = _GROUP.set(path)
    try:
        yield path
    finally:
        _GROUP.reset(token)

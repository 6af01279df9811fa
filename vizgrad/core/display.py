"""How a notebook displays a Value or a Trace: a slot that :mod:`vizgrad.embed.notebook` fills.

``Value`` and ``Trace`` sit at the bottom of the layers and the step player at
the top, so their ``_repr_mimebundle_`` cannot import it. They ask this module
instead. :mod:`vizgrad.embed.notebook` registers its displays here when it is
imported, and the package (``vizgrad/__init__.py``, above every layer) says how
to import it on the first display. Without a registered display a Value keeps
its plain repr::

    >>> bundle("nothing-registered", object()) is None
    True
"""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["Display", "bundle", "on_first_display", "register"]

#: a display: the object's mimebundle, or None to keep its plain repr
Display = Callable[[Any], "dict[str, str] | None"]

_displays: dict[str, Display] = {}
_load: Callable[[], object] | None = None


def register(kind: str, display: Display) -> None:
    """Display objects of ``kind`` ("value", "trace") with ``display``."""
    _displays[kind] = display


def on_first_display(load: Callable[[], object]) -> None:
    """Run ``load`` (which registers the displays) the first time anything is displayed."""
    global _load
    _load = load


def bundle(kind: str, obj: Any) -> dict[str, str] | None:
    """The mimebundle of ``obj``, or None when no display of ``kind`` is registered."""
    global _load
    if kind not in _displays and _load is not None:
        load, _load = _load, None
        load()
    display = _displays.get(kind)
    return None if display is None else display(obj)

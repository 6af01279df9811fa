"""vizgrad: see backpropagation, step by step.

    >>> import vizgrad
    >>> a, b = vizgrad.Value(-2.0, label="a"), vizgrad.Value(3.0, label="b")
    >>> t = vizgrad.trace((a * b) * (a + b))
    >>> len(t.steps), t.state(7).grad["v0"], t.state(7).grad["v1"]
    (8, -3.0, -8.0)

Only the engine loads eagerly; everything else is imported on first use, so
``import vizgrad`` stays light and ``vizgrad.engine`` needs no third-party module.
"""

from __future__ import annotations

import importlib
from typing import Any

from . import _display
from ._version import __version__
from .engine import Value, group
from .exceptions import VizgradError

_LAZY = {
    "Trace": "tracing",
    "trace": "tracing",
    "to_networkx": "graph",
    "to_json": "graph",
    "from_json": "graph",
    "parse": "expr",
    "gradcheck": "checks",
    "examples": None,
    "collapse": None,
    "nn": None,
    "draw": "render.write.svg",
    "Drawing": "render.write.svg",
    "frames": "render.write.picture.frames",
    "animate": "render.write.picture.frames",
    "player_html": "render.write.html",
    "show": "notebook",
}

__all__ = ["Value", "VizgradError", "__version__", "group", *_LAZY]


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'vizgrad' has no attribute {name!r}")
    module = _LAZY[name]
    if module is None:
        return importlib.import_module(f".{name}", __name__)
    return getattr(importlib.import_module(f".{module}", __name__), name)


def __dir__() -> list[str]:
    return sorted(__all__)


# the notebook display of a Value or a Trace: vizgrad.notebook registers it when imported
_display.on_first_display(lambda: importlib.import_module(".notebook", __name__))

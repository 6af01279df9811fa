"""vizgrad: see backpropagation, step by step.

    >>> import vizgrad
    >>> a, b = vizgrad.Value(-2.0, label="a"), vizgrad.Value(3.0, label="b")
    >>> t = vizgrad.trace((a * b) * (a + b))
    >>> len(t.steps), t.state(7).grad["v0"], t.state(7).grad["v1"]
    (8, -3.0, -8.0)

Only the engine loads eagerly; everything else is imported on first use, so
``import vizgrad`` stays light and ``vizgrad.core.value`` needs no third-party module.
"""

from __future__ import annotations

import importlib
from typing import Any

from .core import display as _display
from ._version import __version__
from .core.value import Value, group
from .exceptions import VizgradError

_LAZY = {
    "Trace": "tracing.recorder",
    "trace": "tracing.recorder",
    "to_networkx": "graph.convert",
    "to_json": "graph.convert",
    "from_json": "graph.convert",
    "parse": "core.expr",
    "gradcheck": "graph.gradcheck",
    "examples": None,
    "collapse": None,
    "nn": None,
    "draw": "write.svg",
    "Drawing": "write.svg",
    "frames": "write.raster.frames",
    "animate": "write.raster.frames",
    "player_html": "player.page",
    "show": "embed.notebook",
    "train": "training.loop",
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


# the notebook display of a Value or a Trace: vizgrad.embed.notebook registers it when imported
_display.on_first_display(lambda: importlib.import_module(".embed.notebook", __name__))

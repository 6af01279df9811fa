"""The interactive lab: a stateless Starlette app (``vizgrad serve``) and its HTTP API.

    >>> from vizgrad.lab import create_app
    >>> app = create_app(max_nodes=100)
    >>> app.state.limits.max_nodes
    100

``create_app`` is imported on first use, so ``vizgrad --help`` (which lists
``serve`` from :mod:`vizgrad.lab.cli`) does not load Starlette.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module 'vizgrad.lab' has no attribute {name!r}")

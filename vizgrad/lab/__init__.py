"""The interactive lab: a stateless Starlette app (``vizgrad serve``) and its HTTP API.

    >>> from vizgrad.lab import create_app
    >>> app = create_app(max_nodes=100)
    >>> [r.path for r in app.routes][:2]
    ['/', '/api/health']
"""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]

"""The lab's Starlette application: the page at ``/`` and a JSON API under ``/api``.

The app keeps no state between requests (only a per-process LRU cache of
renders), so several uvicorn workers or hosts can serve it::

    >>> app = create_app(max_nodes=100)
    >>> app.state.limits.max_nodes, [r.path for r in app.routes][3:6]
    (100, ['/api/trace', '/api/render', '/api/gradcheck'])
    >>> [r.path for r in app.routes][6:9]
    ['/api/scene', '/api/words', '/static/vg']

Every error is JSON ``{"error": code, "detail": sentence, ...}`` with a 4xx
status: 400 malformed JSON, 413 body too large, 415 not JSON, 431 headers too
large, 422 anything the request asked for that the lab cannot do (wrong type,
out of range, unknown example, expression error with its column, graph too
large); 503 with ``Retry-After`` when it is busy or shutting down. The pieces:
:mod:`._routes` (endpoints), :mod:`._answers` (JSON and error mapping),
:mod:`._middleware` (security headers, the guard), :mod:`._limits` (every limit).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Sequence

from starlette.applications import Starlette
from starlette.exceptions import HTTPException

from . import _service as service
from ._admission import LayoutGate
from ._caches import Flights
from ._disk import DEFAULT_MB, DiskCache, disk_from_env
from ._answers import http_error, server_error
from ._hosts import HostCheck, allowed_hosts
from ._limits import Limits
from ._middleware import Guard, SecurityHeaders
from ._routes import SHARED_JS, STATIC, endpoints
from ._workers import follow_supervisor

__all__ = ["create_app", "STATIC", "SHARED_JS"]


@asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    follow_supervisor()  # a worker of `vizgrad serve --workers N` dies with its supervisor
    try:
        yield
    finally:  # a layout still running must not hold the shutdown up to its time limit
        from ..scene.layout.run import stop_layouts

        stop_layouts()


def create_app(
    *,
    max_body_bytes: int | None = None,
    max_expression_length: int | None = None,
    max_nodes: int | None = None,
    layout_timeout: float | None = None,
    value_limit: float | None = None,
    cache_size: int | None = None,
    allow_hosts: Sequence[str] = (),
    max_waiting: int = 8,
    cache_dir: str | os.PathLike[str] | None = None,
    cache_mb: int = DEFAULT_MB,
) -> Starlette:
    """Build the lab app; every argument is a limit on what one request may ask for.

    A limit not given comes from the environment variable ``VIZGRAD_LAB_<NAME>``
    (``VIZGRAD_LAB_MAX_NODES=500``), else its default: 16384 body bytes,
    500 expression characters, 300 nodes, 10 s of layout, values in [-20, 20],
    512 cached renders. Requests must name the server as ``127.0.0.1``, ``localhost`` or
    ``[::1]`` (any port) in their ``Host`` header, or as one of ``allow_hosts`` or of the
    comma-separated ``VIZGRAD_LAB_ALLOWED_HOSTS``; others get 400 ``invalid_host``
    (a guard against DNS rebinding). ``max_waiting`` drawings may wait for a layout while
    one runs; more get 503 with ``Retry-After``. Use it with
    ``uvicorn --factory vizgrad.lab.app:create_app``
    or ``vizgrad serve``. Renders are also kept in ``cache_dir`` (at most ``cache_mb``
    megabytes), which apps in other processes may share; without it, in the folder named
    by ``VIZGRAD_LAB_CACHE_DIR`` (``vizgrad serve`` sets it), else in memory only.
    """
    limits = Limits.build(max_body_bytes=max_body_bytes,
                          max_expression_length=max_expression_length, max_nodes=max_nodes,
                          layout_timeout=layout_timeout, value_limit=value_limit,
                          cache_size=cache_size)
    app = Starlette(routes=endpoints(), exception_handlers={HTTPException: http_error,
                                                            Exception: server_error},
                    lifespan=_lifespan)
    app.state.limits = limits
    disk = (DiskCache(cache_dir, cache_mb * 1024 * 1024) if cache_dir is not None
            else disk_from_env())
    app.state.cache = service.RenderCache(limits.cache_size, disk)
    app.state.gate = LayoutGate(active=1, waiting=max_waiting)
    app.state.scenes = service.SceneCache()  # laid-out scenes, shared by the threads
    app.state.known = service.KeyMemo(limits.cache_size)  # render requests: step, cache key
    app.state.flights = Flights()  # identical layouts in flight: one runs, the others wait
    app.add_middleware(HostCheck, hosts=allowed_hosts(allow_hosts))
    app.add_middleware(Guard)
    app.add_middleware(SecurityHeaders)
    return app

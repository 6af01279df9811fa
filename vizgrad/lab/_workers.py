"""``vizgrad serve --workers N``: uvicorn's worker processes, which die with their supervisor.

uvicorn's supervisor starts the workers; if it is killed (``kill -9`` leaves it no
chance to stop them) they would go on serving on the port. The supervisor names
itself in :data:`ENV_SUPERVISOR`, and each worker, once its app starts
(:func:`follow_supervisor`, from the app's lifespan), leaves with
:func:`vizgrad.runtime.children.exit_with_parent` when that process is gone::

    >>> follow_supervisor(environ={}) is None  # not a worker of vizgrad serve
    True
"""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Mapping
from typing import Any

from ..runtime.children import exit_with_parent

__all__ = ["ENV_SUPERVISOR", "run_workers", "follow_supervisor", "tcp_listener"]

#: the process id of the supervisor of ``vizgrad serve --workers N``, for its workers
ENV_SUPERVISOR = "VIZGRAD_LAB_SUPERVISOR"


def follow_supervisor(environ: Mapping[str, str] | None = None) -> threading.Thread | None:
    """In a worker of ``vizgrad serve``: exit when the supervisor dies (else do nothing)."""
    environ = os.environ if environ is None else environ
    supervisor = environ.get(ENV_SUPERVISOR, "")
    if not supervisor.isdigit():
        return None
    # the supervisor may have died before this worker got here: then it leaves at once
    return exit_with_parent(parent=int(supervisor))


def tcp_listener(sock: socket.socket) -> socket.socket:
    """The same listening socket, marked as TCP so accepted connections get TCP_NODELAY.

    uvicorn's ``--workers`` path binds with ``proto=0``; asyncio then leaves Nagle's
    algorithm on for every connection and each keep-alive request waits ~40 ms for a
    delayed ACK (uvicorn issue #3149). The descriptor is kept; only the label changes.

    >>> s = tcp_listener(socket.socket(socket.AF_INET, socket.SOCK_STREAM))
    >>> s.proto == socket.IPPROTO_TCP and s.get_inheritable()
    True
    >>> s.close()
    """
    if sock.family in (socket.AF_INET, socket.AF_INET6) and sock.proto == 0:
        sock = socket.socket(sock.family, sock.type, socket.IPPROTO_TCP, fileno=sock.detach())
    sock.set_inheritable(True)
    return sock


def run_workers(config: Any) -> None:
    """uvicorn.run's multi-worker path, with a listener that keeps TCP_NODELAY and
    workers that follow this process."""
    import time

    from uvicorn.supervisors import Multiprocess

    from ._server import DRAIN_SECONDS, refuse_new_connections

    class Draining(Multiprocess):  # type: ignore[misc]
        """On SIGTERM, new connections are dropped and the workers take in the accept queue
        before they stop (see :mod:`vizgrad.lab._server`)."""

        def terminate_all(self) -> None:
            if refuse_new_connections(sock):
                time.sleep(DRAIN_SECONDS)
            super().terminate_all()

    os.environ[ENV_SUPERVISOR] = str(os.getpid())
    sock = tcp_listener(config.bind_socket())
    try:
        Draining(config, sockets=[sock]).run()
    except KeyboardInterrupt:  # pragma: no cover - interactive
        pass
    finally:
        sock.close()
        os.environ.pop(ENV_SUPERVISOR, None)

"""Every limit of the lab, defined once: per request (:class:`Limits`) and per server.

A request's limits come from ``create_app`` arguments, else ``VIZGRAD_LAB_<NAME>``
environment variables (which reach every uvicorn worker), else the defaults.
The server's limits are what ``vizgrad serve`` gives uvicorn and the lab's own
connection protocol (:mod:`vizgrad.lab._protocol`); ``vizgrad serve --help`` states them::

    >>> SERVER_LIMITS["h11_max_incomplete_event_size"] == MAX_HEADER_BYTES
    True
    >>> Limits().max_body_bytes, HEADER_TIMEOUT, MAX_CONNECTIONS_PER_CLIENT
    (16384, 5.0, 48)

This module imports no web stack, so ``vizgrad serve --help`` stays quick.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, fields
from typing import Any, Mapping

from ..exceptions import DomainError
from ..options import NUMBER_RANGES

__all__ = ["ENV_PREFIX", "H_RANGE", "Limits", "HEADER_TIMEOUT", "MAX_HEADER_BYTES",
           "MAX_CONNECTIONS", "MAX_CONNECTIONS_PER_CLIENT", "EVICT_AFTER",
           "KEEP_ALIVE", "GRACEFUL_SHUTDOWN",
           "BODY_TIMEOUT", "SERVER_LIMITS"]

ENV_PREFIX = "VIZGRAD_LAB_"
#: the step sizes a gradcheck may use: the command line's --h range (one rule for numbers)
H_RANGE = NUMBER_RANGES["h"][:2]

#: seconds a connection may take to send its request line and headers, from when it
#: opens or its last answer was sent; then it is closed (an idle or slow client)
HEADER_TIMEOUT = 5.0
#: bytes a request line and its headers may have; more: 431
MAX_HEADER_BYTES = 16_384
#: open connections per worker process; past it a new connection closes the oldest idle
#: one of the address holding the most, and a request gets 503 with Retry-After only when
#: none can go
MAX_CONNECTIONS = 256
#: open connections (and requests in flight) from one client address, well under
#: MAX_CONNECTIONS: past it, a new connection closes the address's oldest one idle for
#: EVICT_AFTER seconds (503 at once only when none is). Behind a proxy named by
#: --forwarded-allow-ips, the client is the address in X-Forwarded-For and the bound counts
#: its requests in flight
MAX_CONNECTIONS_PER_CLIENT = 48
#: seconds a connection must have been idle (nothing asked since it opened or since its
#: last answer) before a newer one may close it to make room
EVICT_AFTER = 1.0
#: seconds an idle keep-alive connection stays open
KEEP_ALIVE = 5
#: seconds SIGTERM waits for running requests before it stops them (503 shutting_down)
GRACEFUL_SHUTDOWN = 2
#: seconds a client may take to send its request body (408 after)
BODY_TIMEOUT = 10.0

#: the uvicorn options that carry these limits
SERVER_LIMITS: dict[str, Any] = {"timeout_keep_alive": KEEP_ALIVE,
                                 "h11_max_incomplete_event_size": MAX_HEADER_BYTES,
                                 "limit_concurrency": MAX_CONNECTIONS,
                                 "timeout_graceful_shutdown": GRACEFUL_SHUTDOWN}


@dataclass(frozen=True)
class Limits:
    """What one request may ask for; see :func:`vizgrad.lab.create_app`."""

    max_body_bytes: int = 16_384
    max_expression_length: int = 500
    max_nodes: int = 300
    layout_timeout: float = 10.0
    value_limit: float = 20.0
    cache_size: int = 512

    @classmethod
    def build(cls, environ: Mapping[str, str] | None = None, **given: float | None) -> Limits:
        """Limits from the arguments given, else ``VIZGRAD_LAB_<NAME>`` variables, else defaults.

        Environment variables reach every uvicorn worker, which ``--factory`` cannot give
        arguments to; a bad value or a limit that is not positive raises ``DomainError``.

        >>> Limits.build({"VIZGRAD_LAB_MAX_NODES": "50"}, cache_size=None).max_nodes
        50
        """
        environ = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in fields(cls):
            kind = int if f.type in ("int", int) else float
            value = given.get(f.name)
            where = f"create_app({f.name}={value!r})"
            raw = environ.get(ENV_PREFIX + f.name.upper())
            if value is None and raw is not None:
                where = f"{ENV_PREFIX}{f.name.upper()}={raw!r}"
                try:
                    value = kind(raw)
                except ValueError:
                    raise DomainError(
                        f"{where}: not a {'whole ' if kind is int else ''}number") from None
            if value is None:
                value = f.default
            if isinstance(value, bool) or not isinstance(value, (int, float)) or (
                    kind is int and not float(value).is_integer()):
                raise DomainError(f"{where}: must be a {'whole ' if kind is int else ''}number")
            zero_ok = f.name == "cache_size"
            if not (value >= 0 if zero_ok else value > 0) or not math.isfinite(value):
                raise DomainError(
                    f"{where}: must be {'>= 0 (0 disables it)' if zero_ok else '> 0'}")
            values[f.name] = kind(value)
        return cls(**values)

    def public(self) -> dict[str, Any]:
        """The limits as JSON for clients."""
        return {
            "max_body_bytes": self.max_body_bytes,
            "max_expression_length": self.max_expression_length,
            "max_nodes": self.max_nodes,
            "layout_timeout": self.layout_timeout,
            "value_range": [-self.value_limit, self.value_limit],
            "h_range": list(H_RANGE),
        }

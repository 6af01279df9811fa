"""ASGI middleware around the lab: security headers, and a guard that keeps every answer JSON.

:class:`SecurityHeaders` adds a strict Content-Security-Policy and friends to
every response. :class:`Guard` answers before the app would:

- 431 ``headers_too_large`` when the request line and headers have more than
  :data:`~vizgrad.lab._limits.MAX_HEADER_BYTES` (h11 only checks a head that
  arrives in pieces; one that arrives whole is counted here);
- 503 ``busy`` with ``Retry-After`` when one client already has
  :data:`~vizgrad.lab._limits.MAX_CONNECTIONS_PER_CLIENT` requests in flight
  (the client is the connection's address, or, behind a proxy trusted with
  ``--forwarded-allow-ips``, the one uvicorn read from ``X-Forwarded-For``);
- 503 ``shutting_down`` for a request the server cancels when it stops (after
  its graceful timeout), where uvicorn would answer a plain-text 500.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import _limits
from ._admission import RETRY_AFTER, busy
from ._answers import dumps, encodable, shutting_down
from ._requests import ApiError

__all__ = ["SecurityHeaders", "Guard", "SECURITY_HEADERS", "head_size"]

SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
     b"object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class SecurityHeaders:
    """Adds a strict Content-Security-Policy (no external resources) to every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def head_size(scope: Scope) -> int:
    """Bytes of a request's line and headers as sent (``NAME: value`` CRLF each).

    >>> head_size({"method": "GET", "raw_path": b"/", "query_string": b"",
    ...            "headers": [(b"host", b"x")]})
    27
    """
    line = len(scope["method"]) + len(scope.get("raw_path") or b"") + 12  # " ", " HTTP/1.1\r\n"
    if scope.get("query_string"):
        line += 1 + len(scope["query_string"])
    return line + sum(len(k) + len(v) + 4 for k, v in scope.get("headers", [])) + 2


async def _answer(send: Send, err: ApiError, close: bool = False) -> None:
    body = dumps(encodable(err.body()))
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode("ascii"))]
    if err.status == 503:
        headers.append((b"retry-after", str(RETRY_AFTER).encode("ascii")))
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": err.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class Guard:
    """Refuses oversized heads and crowding clients; answers a cancelled request 503."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.in_flight: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if head_size(scope) > _limits.MAX_HEADER_BYTES:
            await _answer(send, ApiError(
                431, "headers_too_large",
                f"the request line and headers have {head_size(scope)} bytes; the limit is "
                f"{_limits.MAX_HEADER_BYTES}: send fewer or shorter headers (cookies?)",
                limit=_limits.MAX_HEADER_BYTES), close=True)
            return
        client = (scope.get("client") or ("?",))[0]
        if self.in_flight[client] >= _limits.MAX_CONNECTIONS_PER_CLIENT:
            await _answer(send, busy(
                f"this client already has {self.in_flight[client]} requests in flight, the "
                f"most one client may have; wait for their answers"))
            return
        self.in_flight[client] += 1
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except asyncio.CancelledError:
            if started:
                raise
            _uncancel()
            await _answer(send, shutting_down(), close=True)
        finally:
            self.in_flight[client] -= 1
            if self.in_flight[client] <= 0:
                del self.in_flight[client]


def _uncancel() -> None:
    """Let this task go on after the cancellation it has just answered."""
    task: Any = asyncio.current_task()
    if task is not None:
        task.uncancel()

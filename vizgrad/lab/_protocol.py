"""The lab's HTTP/1.1 connection protocol: uvicorn's h11 one, with deadlines and bounds.

uvicorn closes an idle keep-alive connection only after it has answered on it,
so a client that connects and sends nothing, or sends its headers a byte at a
time, holds a connection for ever; a few hundred of them lock everyone out.
:class:`LabProtocol` (``vizgrad serve`` runs every worker with it):

- closes a connection that has not sent a whole request line and headers
  within :data:`~vizgrad.lab._limits.HEADER_TIMEOUT` seconds of opening or of
  its last answer;
- lets one client address hold at most
  :data:`~vizgrad.lab._limits.MAX_CONNECTIONS_PER_CLIENT` connections, well under the
  worker's :data:`~vizgrad.lab._limits.MAX_CONNECTIONS`: a new connection past either
  limit closes the oldest idle one (of its own address, else of the address holding
  the most) once it has been idle for :data:`~vizgrad.lab._limits.EVICT_AFTER` seconds,
  so a client that keeps re-opening idle connections from a few addresses
  only closes its own and cannot keep anyone else at 503; only when none is idle is
  the new one answered 503 and closed; a proxy named by ``--forwarded-allow-ips``
  is not bounded here, since it carries many clients: the app bounds each of
  them by its ``X-Forwarded-For`` address;
- answers a head over :data:`~vizgrad.lab._limits.MAX_HEADER_BYTES` with 431
  and a malformed one with 400, in JSON, and the connection limit with 503 in
  JSON with ``Retry-After`` (uvicorn answers these in plain text).

Why a subclass of uvicorn's h11 protocol and not another server (hypercorn has a
read timeout): the lab keeps the server it is tested and documented with, and h11
ships with uvicorn on every machine (httptools is optional, so uvicorn's ``auto``
would pick a different parser, and different limits, on different machines).
The subclass only adds timers and counts around uvicorn's own parsing.

This module is the one adapter to uvicorn's protocol internals (what ``H11Protocol`` keeps
on the instance: ``conn``, ``transport``, ``server_state``, ``connections``, ``tasks``…):
uvicorn is pinned to the range it is tested with in ``pyproject.toml``, and
``tests/lab/test_protocol_adapter.py`` fails first when one of them changes. Limits that
uvicorn's documented settings can carry go there instead (``timeout_keep_alive``,
``h11_max_incomplete_event_size``, ``limit_concurrency``: see ``_limits.SERVER_LIMITS``).
"""

from __future__ import annotations

import asyncio
import ipaddress
import math
from collections import Counter
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from . import _limits
from ._admission import RETRY_AFTER
from ._answers import dumps

__all__ = ["LabProtocol", "trusted"]


def trusted(peer: str | None, allowed: Any) -> bool:
    """Whether ``peer`` is one of uvicorn's ``forwarded_allow_ips`` (addresses, networks, ``*``).

    >>> trusted("10.0.0.7", "10.0.0.0/8, 127.0.0.1"), trusted("10.1.0.7", ["10.0.0.7"])
    (True, False)
    """
    items = allowed.split(",") if isinstance(allowed, str) else list(allowed or [])
    for item in (i.strip() for i in items):
        if item == "*" or item == peer:
            return True
        try:
            if peer is not None and ipaddress.ip_address(peer) in ipaddress.ip_network(
                    item, strict=False):
                return True
        except ValueError:
            continue
    return False


def _raw_answer(status: int, reason: bytes, payload: dict[str, Any]) -> bytes:
    body = dumps(payload)
    head = [b"HTTP/1.1 %d %s" % (status, reason), b"content-type: application/json",
            b"content-length: %d" % len(body), b"connection: close"]
    if status == 503:
        head.append(b"retry-after: %d" % RETRY_AFTER)
    return b"\r\n".join(head) + b"\r\n\r\n" + body


async def _overloaded(scope: Any, receive: Any, send: Any) -> None:
    """The ASGI answer past the server's connection limit (uvicorn's is plain text)."""
    body = dumps({"error": "busy", "retry_after": RETRY_AFTER,
                  "detail": f"the lab has {_limits.MAX_CONNECTIONS} connections open, its "
                            f"limit; try again in {RETRY_AFTER} s"})
    await send({"type": "http.response.start", "status": 503,
                "headers": [(b"content-type", b"application/json"),
                            (b"retry-after", str(RETRY_AFTER).encode("ascii")),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


class LabProtocol(H11Protocol):
    """uvicorn's h11 protocol with a header deadline and a bound per client address."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._lab_app = self.app
        self._limit = self.limit_concurrency
        self.limit_concurrency = None  # checked here, to answer in JSON
        self._deadline: asyncio.TimerHandle | None = None
        self._counted: str | None = None
        self._idle_since: float | None = None

    def _per_client(self) -> Counter[str]:
        counts: Counter[str] | None = getattr(self.server_state, "vizgrad_clients", None)
        if counts is None:
            counts = Counter()
            self.server_state.vizgrad_clients = counts  # type: ignore[attr-defined]
        return counts

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._idle_since = self.loop.time()
        peer = self.client[0] if self.client else None
        if peer is not None and not (self.config.proxy_headers
                                     and trusted(peer, self.config.forwarded_allow_ips)):
            counts = self._per_client()
            if counts[peer] >= _limits.MAX_CONNECTIONS_PER_CLIENT and not self._evict(peer):
                transport.write(_raw_answer(503, b"Service Unavailable", {
                    "error": "busy", "retry_after": RETRY_AFTER,
                    "detail": f"this address already has {counts[peer]} connections busy, the "
                              "most one client may have; wait for an answer and try again"}))
                transport.close()
                return
            counts[peer] += 1
            self._counted = peer
        while (self._limit is not None and len(self.connections) > self._limit
               and self._evict(None)):  # the worker is full: its oldest idle ones make room
            pass
        self._arm()

    def _idle(self, since: float) -> bool:
        """Nothing asked and nothing running on this connection since ``since`` or before:
        closing it loses nothing (a request about to arrive on it is unlikely)."""
        return (self._idle_since is not None and self._idle_since <= since
                and not self.transport.is_closing()
                and self.conn.their_state is h11.IDLE and self.conn.our_state is h11.IDLE
                and (self.cycle is None or self.cycle.response_complete))

    def _evict(self, peer: str | None) -> bool:
        """Close the oldest connection of ``peer`` idle for EVICT_AFTER seconds, or with
        ``peer=None`` (the worker full) the oldest idle one of the address holding the most
        connections, if it holds more than this one's; whether one was closed. Its place
        is free at once."""
        counts = self._per_client()
        if peer is not None:
            since = self.loop.time() - _limits.EVICT_AFTER
            idle = [c for c in list(self.connections) if isinstance(c, LabProtocol)
                    and c is not self and c._counted == peer and c._idle(since)]
        else:
            mine = counts.get(self._counted or "", 0)
            idle = [c for c in list(self.connections) if isinstance(c, LabProtocol)
                    and c is not self and c._counted is not None
                    and counts.get(c._counted, 0) > mine + 1 and c._idle(math.inf)]
        if not idle:
            return False
        victim = min(idle, key=lambda c: (-counts.get(c._counted or "", 0), c._idle_since))
        victim._release()
        self.connections.discard(victim)
        victim._disarm()
        victim.transport.close()
        return True

    def _release(self) -> None:
        """Give back this connection's place in its address's count (once)."""
        if self._counted is not None:
            counts = self._per_client()
            counts[self._counted] -= 1
            if counts[self._counted] <= 0:
                del counts[self._counted]
            self._counted = None

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._release()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(_limits.HEADER_TIMEOUT, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        """No whole request head in time: close (nothing is running on this connection)."""
        self._deadline = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()

    def handle_events(self) -> None:
        if self._limit is not None and self.conn.their_state is h11.IDLE:
            while len(self.connections) > self._limit and self._evict(None):
                pass  # others filled the worker since this one came: idle ones make room
        busy = self._limit is not None and (len(self.connections) > self._limit
                                            or len(self.tasks) >= self._limit)
        self.app = _overloaded if busy else self._lab_app
        super().handle_events()
        if self.conn.their_state is not h11.IDLE:  # a whole head arrived: the app has it
            self._disarm()
            self._idle_since = None

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._idle_since = self.loop.time()
            self._arm()  # the next request's head has the same time to arrive

    def send_400_response(self, msg: str) -> None:
        """A head h11 cannot parse, or that grew past the limit unfinished: JSON, then close."""
        big = len(self.conn.trailing_data[0]) > _limits.MAX_HEADER_BYTES
        if big:
            status, reason, payload = 431, b"Request Header Fields Too Large", {
                "error": "headers_too_large", "limit": _limits.MAX_HEADER_BYTES,
                "detail": f"the request line and headers are over {_limits.MAX_HEADER_BYTES} "
                          "bytes; send fewer or shorter headers"}
        else:
            status, reason, payload = 400, b"Bad Request", {
                "error": "malformed_request",
                "detail": "the request is not valid HTTP/1.1; check its request line and headers"}
        self._disarm()
        self.transport.write(_raw_answer(status, reason, payload))
        self.transport.close()

"""uvicorn's server with a shutdown that answers every connection the kernel accepted.

On SIGTERM uvicorn closes its listening socket at once. Connections whose handshake the
kernel had completed but that the server had not yet taken from the accept queue are then
reset: their clients sent a request and got no answer (0 to 20 a run under load). On Linux,
:class:`LabServer` first attaches a classic BPF socket filter that drops every packet to the
listening socket (so no new handshake completes: a new client's SYN goes unanswered and it is
refused once the socket closes), waits :data:`DRAIN_SECONDS` while the event loop takes what
is already queued, then lets uvicorn close the socket; what it took is answered as every
request in flight is (finished, or 503 ``shutting_down`` after the graceful time). Elsewhere
it is uvicorn's own shutdown.
"""

from __future__ import annotations

import asyncio
import importlib
import socket
import struct
import sys
from typing import Any

import uvicorn

__all__ = ["DRAIN_SECONDS", "LabServer", "refuse_new_connections"]

#: seconds the event loop gets to take the queued connections once new ones are dropped
DRAIN_SECONDS = 0.05
_SO_ATTACH_FILTER = 26  # Linux, <asm-generic/socket.h>


def refuse_new_connections(sock: socket.socket) -> bool:
    """Attach a filter that drops every packet to the listening ``sock`` (one BPF
    instruction: return 0); whether it could (Linux only)."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    program = (ctypes.c_ubyte * 8)(*struct.pack("HBBI", 0x06, 0, 0, 0))  # BPF_RET | BPF_K, 0
    fprog = struct.pack("HL", 1, ctypes.addressof(program))
    try:
        sock.setsockopt(socket.SOL_SOCKET, _SO_ATTACH_FILTER, fprog)
    except OSError:
        return False
    return True


class LabServer(uvicorn.Server):
    """``uvicorn.Server`` whose shutdown takes in the accept queue before it closes."""

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        listening = [s for server in self.servers for s in (server.sockets or ())]
        dropped = False
        for s in listening:
            try:
                raw = socket.socket(fileno=s.fileno())  # the same descriptor, for setsockopt
            except OSError:
                continue
            try:
                dropped = refuse_new_connections(raw) or dropped
            finally:
                raw.detach()
        if dropped:
            await asyncio.sleep(DRAIN_SECONDS)  # the loop accepts what is queued meanwhile
        await super().shutdown(sockets)


def run(app: Any, **options: Any) -> None:
    """``uvicorn.run(app, **options)`` with :class:`LabServer` as its server class (the
    one name ``uvicorn.run`` reads it by, ``uvicorn.main.Server``, swapped for the call)."""
    module = importlib.import_module("uvicorn.main")
    real = getattr(module, "Server", None)
    if real is not uvicorn.Server:  # another uvicorn than this module knows: its own server
        uvicorn.run(app, **options)
        return
    module.Server = LabServer  # type: ignore[attr-defined]
    try:
        uvicorn.run(app, **options)
    finally:
        module.Server = real  # type: ignore[attr-defined]

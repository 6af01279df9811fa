"""The lab's adapter to uvicorn's h11 protocol breaks here first when uvicorn changes.

``vizgrad.lab._protocol.LabProtocol`` subclasses uvicorn's ``H11Protocol`` and uses what
it keeps on the instance (``conn``, ``transport``, ``server_state``, ``connections``,
``tasks``, ``limit_concurrency``, ``app``, ``client``, ``config``, ``loop``) and the
methods it overrides. None of these is documented API, so this test names each one.
"""

from __future__ import annotations

import asyncio
import inspect

import h11
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from vizgrad.lab._protocol import LabProtocol

OVERRIDDEN = ("connection_made", "connection_lost", "handle_events", "on_response_complete",
              "send_400_response")
READ = ("conn", "transport", "server_state", "connections", "tasks", "limit_concurrency", "app",
        "client", "config", "loop")


def test_the_overridden_methods_exist_with_the_same_parameters():
    for name in OVERRIDDEN:
        theirs = inspect.signature(getattr(H11Protocol, name))
        ours = inspect.signature(getattr(LabProtocol, name))
        assert list(theirs.parameters) == list(ours.parameters), name


def test_an_instance_carries_what_the_adapter_reads():
    async def make():
        config = Config(app=lambda *a: None, limit_concurrency=5)
        config.load()
        return LabProtocol(config=config, server_state=ServerState(), app_state={})

    loop = asyncio.new_event_loop()
    try:
        proto = loop.run_until_complete(make())
    finally:
        loop.close()
    missing = [name for name in READ if not hasattr(proto, name)]
    assert missing == [] and isinstance(proto.conn, h11.Connection)
    assert proto.conn.their_state is h11.IDLE
    assert proto.limit_concurrency is None  # taken over by LabProtocol (JSON answers)

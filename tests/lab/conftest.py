"""Fixtures for the lab: an ASGI test client and a real server on a free loopback port."""

from __future__ import annotations

import socket
import threading
import time
import warnings
from collections.abc import Iterator

import pytest

with warnings.catch_warnings():
    # starlette 1.x asks for httpx2 but works with the httpx that is installed
    from starlette.exceptions import StarletteDeprecationWarning

    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

from vizgrad.lab import create_app


@pytest.fixture
def make_client():
    """Build a test client of a fresh app with the given limits (it calls the app 127.0.0.1,
    one of the Host names the lab answers)."""
    return lambda **limits: TestClient(create_app(**limits), base_url="http://127.0.0.1:8000")


@pytest.fixture
def client(make_client) -> TestClient:
    """A test client of a fresh app (its own render cache)."""
    return make_client()


def _free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    return _free_port()


@pytest.fixture(scope="module")
def live_server() -> Iterator[str]:
    """A uvicorn server with the lab on 127.0.0.1 in a thread; yields its base URL."""
    import uvicorn

    port = _free_port()
    config = uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning",
                            lifespan="off", ws="none")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the lab server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)

"""Churning idle connections from many addresses must not lock a class out (issue 31, item 5).

Ten addresses of 127.0.0.0/8 keep opening idle connections for 30 s against one worker; each
address may hold MAX_CONNECTIONS_PER_CLIENT (48, well under the worker's 256), and a new
connection past either bound closes the oldest connection idle for EVICT_AFTER seconds (of its
own address, else of the address holding the most), so the attacker only ever closes its own
and a victim from another address gets its answers. Before, 64 per address times a few
addresses kept the worker at its 256 and the victim at 503.
"""

from __future__ import annotations

import socket
import threading
import time

import httpx
import pytest

from .conftest import tally

pytestmark = pytest.mark.adversarial

SECONDS = 30.0
ADDRESSES = [f"127.0.0.{i}" for i in range(10, 20)]


def _churn(port: int, source: str, stop: threading.Event, opened: list[int]) -> None:
    """Open idle connections from ``source`` until ``stop``, keeping up to 64 of them."""
    held: list[socket.socket] = []
    try:
        while not stop.is_set():
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            try:
                s.bind((source, 0))
                s.settimeout(2)
                s.connect(("127.0.0.1", port))
            except OSError:
                s.close()
                time.sleep(0.05)
                continue
            held.append(s)
            opened[0] += 1
            if len(held) > 64:
                held.pop(0).close()
            stop.wait(0.02)
    finally:
        for s in held:
            s.close()


def test_ten_churning_addresses_do_not_lock_a_victim_out(lab):
    stop = threading.Event()
    opened = [0]
    threads = [threading.Thread(target=_churn, args=(lab.port, a, stop, opened), daemon=True)
               for a in ADDRESSES]
    for t in threads:
        t.start()
    statuses: list[int] = []
    try:
        time.sleep(2)  # the attack is under way
        transport = httpx.HTTPTransport(local_address="127.0.0.2")
        with httpx.Client(transport=transport, timeout=5) as victim:
            end = time.monotonic() + SECONDS
            while time.monotonic() < end:
                try:
                    statuses.append(victim.get(lab.base + "/api/health").status_code)
                except httpx.TransportError:
                    statuses.append(0)
                time.sleep(0.25)
    finally:
        stop.set()
        for t in threads:
            t.join(10)
    ok = statuses.count(200)
    tally("10 addresses churning idle connections for 30 s: victim answered 200", len(statuses),
          ok)
    assert opened[0] > 1000, opened  # the attack ran
    assert ok >= 0.95 * len(statuses), (ok, len(statuses), sorted(set(statuses)))

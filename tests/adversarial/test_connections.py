"""Connections that never finish their request must not lock anyone out.

300 idle sockets used to hold every one of uvicorn's 256 connection places for as
long as the attacker liked; a head sent in one packet was not held to 16 KiB.
"""

from __future__ import annotations

import json
import socket
import time

import httpx
import pytest

from vizgrad.lab._limits import (EVICT_AFTER, HEADER_TIMEOUT, MAX_CONNECTIONS_PER_CLIENT,
                                 MAX_HEADER_BYTES)

from .conftest import start_lab, stop_lab, tally

pytestmark = pytest.mark.adversarial

IDLE = 300


def _open_idle(port: int, source: str, n: int) -> list[socket.socket]:
    """``n`` connections from ``source`` (a loopback address) that send nothing."""
    out = []
    for _ in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind((source, 0))
        s.settimeout(5)
        s.connect(("127.0.0.1", port))
        out.append(s)
    return out


def _closed_by_server(s: socket.socket, wait: float) -> bool:
    """Whether the server closes ``s`` (EOF, perhaps after a short answer) within ``wait`` s."""
    s.settimeout(wait)
    try:
        while s.recv(4096):
            pass
        return True
    except ConnectionResetError:
        return True
    except OSError:  # timed out: still open
        return False


def _health_within(base: str, seconds: float) -> tuple[int, float]:
    start = time.monotonic()
    status = 0
    while time.monotonic() - start < seconds:
        try:
            status = httpx.get(base + "/api/health", timeout=2).status_code
        except httpx.TransportError:
            status = 0
        if status == 200:
            break
        time.sleep(0.2)
    return status, time.monotonic() - start


def test_idle_sockets_from_another_address_lock_nobody_out(shared_lab):
    idle = _open_idle(shared_lab.port, "127.0.0.2", IDLE)
    try:
        status, took = _health_within(shared_lab.base, 10)
        assert status == 200 and took < 10
        # all but the bound of one address were refused at once, the rest time out
        closed = [_closed_by_server(s, HEADER_TIMEOUT + 3) for s in idle]
        tally("idle sockets from one address (300)", IDLE, sum(closed))
        assert all(closed), f"{closed.count(False)} idle connections were never closed"
    finally:
        for s in idle:
            s.close()


def test_idle_sockets_from_the_same_address_are_closed_in_time(shared_lab):
    idle = _open_idle(shared_lab.port, "127.0.0.1", IDLE)
    try:
        status, took = _health_within(shared_lab.base, 10)
        tally("health behind 300 idle sockets of its own address", 1, int(status == 200))
        assert status == 200 and took < 10, (status, took)
        assert took < HEADER_TIMEOUT + 4
    finally:
        for s in idle:
            s.close()


def test_past_the_bound_per_address_its_oldest_idle_connection_is_closed(shared_lab):
    held = _open_idle(shared_lab.port, "127.0.0.3", MAX_CONNECTIONS_PER_CLIENT)
    time.sleep(EVICT_AFTER + 0.3)  # idle long enough to give way
    extra = _open_idle(shared_lab.port, "127.0.0.3", 1)[0]
    try:
        assert _closed_by_server(held[0], 3)  # the oldest idle one made room
        extra.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      b"Connection: close\r\n\r\n")
        extra.settimeout(5)
        answer = b""
        while chunk := extra.recv(65536):
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
        assert not _closed_by_server(held[-1], 0.2)  # the newer ones stay open
    finally:
        for s in (*held, extra):
            s.close()


def test_a_head_sent_a_byte_at_a_time_is_cut_off(shared_lab):
    s = socket.create_connection(("127.0.0.1", shared_lab.port), timeout=5)
    head = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200
    start, sent = time.monotonic(), 0
    try:
        for byte in head:  # one byte every 50 ms: the head never completes
            if time.monotonic() - start > HEADER_TIMEOUT + 3:
                break
            try:
                s.send(bytes([byte]))
                sent += 1
            except OSError:
                break
            time.sleep(0.05)
        closed = _closed_by_server(s, 1)
        took = time.monotonic() - start
        tally("slow head (one byte per 50 ms)", 1, int(closed and took < HEADER_TIMEOUT + 3))
        assert closed and took < HEADER_TIMEOUT + 3, (sent, took)
    finally:
        s.close()


@pytest.mark.parametrize("size", [100_000, MAX_HEADER_BYTES + 100])
def test_a_large_head_in_one_packet_is_refused(shared_lab, size):
    head = (b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * size
            + b"\r\n\r\n")
    with socket.create_connection(("127.0.0.1", shared_lab.port), timeout=10) as s:
        s.sendall(head)
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    status = int(answer.split(b" ", 2)[1])
    tally("head over 16 KiB in one packet", 1, int(status == 431))
    assert status == 431, answer[:200]
    assert json.loads(answer.partition(b"\r\n\r\n")[2])["error"] == "headers_too_large"


def test_a_trusted_proxy_is_not_bounded_as_one_client():
    proxy = start_lab("--forwarded-allow-ips", "127.0.0.4")
    held = _open_idle(proxy.port, "127.0.0.4", MAX_CONNECTIONS_PER_CLIENT + 5)
    try:
        last = held[-1]
        last.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"X-Forwarded-For: 198.51.100.7\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := last.recv(65536):
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
        # the bound still holds for an address that is not a trusted proxy
        direct = _open_idle(proxy.port, "127.0.0.5", MAX_CONNECTIONS_PER_CLIENT + 1)
        try:  # all fresh, none idle long enough to give way: the last is refused
            assert direct[-1].recv(4096).startswith(b"HTTP/1.1 503")
        finally:
            for s in direct:
                s.close()
    finally:
        for s in held:
            s.close()
        stop_lab(proxy)

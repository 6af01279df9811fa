"""Stopping the lab: SIGTERM under load answers no 500; ``kill -9`` leaves no worker serving.

The load is deterministic: the server process lays out through an injected layout
that sleeps longer than the graceful shutdown allows, and its gate lets every
request wait, so all of them are in flight when SIGTERM arrives.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import time

import httpx
import pytest

from vizgrad.lab._limits import GRACEFUL_SHUTDOWN

from .conftest import alive, start_lab, stop_lab, tally

pytestmark = pytest.mark.adversarial

IN_FLIGHT = 40
SLOW_LAYOUT = f"""
import time
import vizgrad.lab.app as app
import vizgrad.scene.make as scene
_real = scene.run_layout
def _slow(*args, **kwargs):
    time.sleep({GRACEFUL_SHUTDOWN + 4})
    return _real(*args, **kwargs)
scene.run_layout = _slow
_Gate = app.LayoutGate
app.LayoutGate = lambda active, waiting: _Gate(active=active, waiting={IN_FLIGHT * 2})
"""


def _send(port: int, path: str, i: int) -> socket.socket:
    """Send one drawing request whole (raw, so that it is sent before SIGTERM for sure)."""
    body = json.dumps({"expression": "a*b+a", "values": {"a": 1 + i / 1000, "b": 2}}).encode()
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.sendall(b"POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
              b"Content-Length: %d\r\nConnection: close\r\n\r\n%s"
              % (path.encode(), len(body), body))
    return s


def _status(s: socket.socket) -> tuple[int, str]:
    """The status and error code of the answer on ``s`` (0: closed without one)."""
    answer = b""
    try:
        while chunk := s.recv(65536):
            answer += chunk
    except OSError:
        pass
    finally:
        s.close()
    if not answer.startswith(b"HTTP/1.1 "):
        return 0, ""
    status, body = int(answer.split(b" ", 2)[1]), answer.partition(b"\r\n\r\n")[2]
    return status, json.loads(body)["error"] if status >= 400 else ""


def test_sigterm_with_requests_in_flight_answers_no_500():
    lab = start_lab(prelude=SLOW_LAYOUT)
    try:
        sockets = [_send(lab.port, ("/api/render", "/api/scene")[i % 2], i)
                   for i in range(IN_FLIGHT)]
        time.sleep(1.0)  # every request was read: it waits at the gate or lays out
        lab.proc.send_signal(signal.SIGTERM)
        start = time.monotonic()
        lab.proc.wait(timeout=30)
        stopped_in = time.monotonic() - start
        answers = [_status(s) for s in sockets]
        statuses = [status for status, _ in answers]
    finally:
        stop_lab(lab)
    tally("SIGTERM with 40 drawings in flight", len(statuses),
          sum(s in (200, 503) for s in statuses))
    assert len(statuses) == IN_FLIGHT and 500 not in statuses, statuses
    assert set(statuses) <= {200, 503}, statuses  # every one answered, none cut off
    assert {error for status, error in answers if status == 503} <= {"shutting_down"}
    assert stopped_in < GRACEFUL_SHUTDOWN + 3, stopped_in


def test_kill_9_of_the_supervisor_stops_its_workers():
    lab = start_lab("--workers", "2")
    try:
        deadline = time.monotonic() + 30
        while len(workers := lab.children()) < 3 and time.monotonic() < deadline:
            time.sleep(0.2)  # two workers and multiprocessing's resource tracker
        lab.extra = list(workers)
        assert len(workers) >= 3, workers
        os.kill(lab.proc.pid, signal.SIGKILL)
        lab.proc.wait(timeout=10)
        deadline = time.monotonic() + 10
        while any(alive(p) for p in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [p for p in workers if alive(p)]
        try:
            httpx.get(lab.base + "/api/health", timeout=2)
            serving = True
        except httpx.TransportError:
            serving = False
        tally("kill -9 of serve --workers 2", len(workers), len(workers) - len(left))
        assert left == [] and not serving, (left, serving)
    finally:
        stop_lab(lab)


def _client(port: int, stop: list[bool], outcomes: list[str]) -> None:
    """Fresh connections, one request each, until ``stop``: what became of each one."""
    while not stop[0]:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.settimeout(10)
        try:
            s.connect(("127.0.0.1", port))
        except OSError:
            outcomes.append("refused")  # never accepted: no request was taken
            s.close()
            time.sleep(0.05)
            continue
        try:
            s.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      b"Connection: close\r\n\r\n")
            answer = b""
            while chunk := s.recv(65536):
                answer += chunk
            outcomes.append("answered" if answer.startswith(b"HTTP/1.1 ") else "no answer")
        except OSError:
            outcomes.append("reset")
        finally:
            s.close()


@pytest.mark.parametrize("workers", ["1", "2"])
def test_sigterm_under_load_answers_every_accepted_request(workers):
    """A stream of fresh connections while SIGTERM arrives: each one the kernel accepted
    gets an answer (uvicorn closed its listener over a full accept queue: resets)."""
    import threading

    cut = []
    for _ in range(3):
        lab = start_lab("--workers", workers)
        stop = [False]
        outcomes: list[str] = []
        threads = [threading.Thread(target=_client, args=(lab.port, stop, outcomes),
                                    daemon=True) for _ in range(16)]
        try:
            for t in threads:
                t.start()
            time.sleep(1.5)
            lab.proc.send_signal(signal.SIGTERM)
            lab.proc.wait(timeout=30)
            time.sleep(0.5)
        finally:
            stop[0] = True
            for t in threads:
                t.join(20)
            stop_lab(lab)
        cut += [o for o in outcomes if o in ("reset", "no answer")]
        assert outcomes.count("answered") > 50, outcomes.count("answered")
    tally(f"SIGTERM under a stream of fresh connections, {workers} worker(s), 3 runs", 3,
          3 - min(len(cut), 3))
    assert cut == [], cut

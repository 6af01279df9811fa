"""Stopping the lab: SIGTERM under load answers no 500; ``kill -9`` leaves no worker serving.

The load is deterministic: the server process lays out through an injected layout
that sleeps longer than the graceful shutdown allows, and its gate lets every
request wait, so all of them are in flight when SIGTERM arrives.
"""

from __future__ import annotations

import os
import signal
import threading
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
import vizgrad.render.scene as scene
_real = scene.run_layout
def _slow(*args, **kwargs):
    time.sleep({GRACEFUL_SHUTDOWN + 4})
    return _real(*args, **kwargs)
scene.run_layout = _slow
_Gate = app.LayoutGate
app.LayoutGate = lambda active, waiting: _Gate(active=active, waiting={IN_FLIGHT * 2})
"""


def _request(base: str, path: str, i: int, out: list[int]) -> None:
    body = {"expression": "a*b+a", "values": {"a": 1 + i / 1000, "b": 2}}
    try:
        out.append(httpx.post(base + path, json=body, timeout=30).status_code)
    except httpx.TransportError:
        out.append(0)


def test_sigterm_with_requests_in_flight_answers_no_500():
    lab = start_lab(prelude=SLOW_LAYOUT)
    statuses: list[int] = []
    try:
        threads = [threading.Thread(target=_request, daemon=True,
                                    args=(lab.base, ("/api/render", "/api/scene")[i % 2], i,
                                          statuses))
                   for i in range(IN_FLIGHT)]
        for t in threads:
            t.start()
        time.sleep(1.5)  # every request is waiting at the gate or laying out
        assert statuses == [], f"answered before SIGTERM: {statuses}"
        lab.proc.send_signal(signal.SIGTERM)
        start = time.monotonic()
        lab.proc.wait(timeout=30)
        stopped_in = time.monotonic() - start
        for t in threads:
            t.join(timeout=30)
    finally:
        stop_lab(lab)
    tally("SIGTERM with 40 drawings in flight", len(statuses),
          sum(s in (200, 503) for s in statuses))
    assert len(statuses) == IN_FLIGHT and 500 not in statuses, statuses
    assert set(statuses) <= {200, 503}, statuses  # every one answered, none cut off
    assert stopped_in < GRACEFUL_SHUTDOWN + 3, stopped_in


def test_kill_9_of_the_supervisor_stops_its_workers():
    lab = start_lab("--workers", "2")
    try:
        deadline = time.monotonic() + 30
        while len(workers := lab.children()) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        lab.extra = list(workers)
        assert len(workers) >= 2, workers
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

"""The lab under hostile load: renders that are slow to lay out must not stall anything else.

A real ``vizgrad serve`` on 127.0.0.1 gets 40 renders of ``a*b+a*b+...`` (125 terms:
inside every limit, and the slowest kind of graph for ``dot``) beside a stream of
fork traces and health checks. The tests count answers and their statuses; how fast
they come is measured by ``benchmarks/bench_lab.py --hostile`` (trace latency beside
the hostile renders, and how long SIGTERM takes to stop the server). Every loop here
is bounded in count, and every wait has a timeout so that a hang fails instead of
blocking the run.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time

import httpx
import pytest

EXPRESSION = "+".join(["a*b"] * 125)
_count = iter(range(10**6))


def _hostile_body() -> dict:
    """A new hostile render each time (other values), so the render cache never answers it."""
    return {"expression": EXPRESSION, "values": {"a": next(_count) / 1000, "b": 1.5}}
FORK = {"example": "fork"}


@pytest.fixture
def server(free_port):
    """``vizgrad serve`` in its own process; yields (base URL, process)."""
    proc = subprocess.Popen([sys.executable, "-m", "vizgrad", "serve", "--host", "127.0.0.1",
                             "--port", str(free_port), "--log-level", "warning"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{free_port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(base + "/api/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the lab did not start: {proc.stderr.read()!r}")
            time.sleep(0.2)
        yield base, proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)
        proc.stderr.close()


def _hostile(base: str, statuses: list[int], busy: list[httpx.Response] | None = None) -> None:
    with httpx.Client(timeout=30) as c:
        try:
            r = c.post(base + "/api/render", json=_hostile_body())
        except httpx.TransportError:
            statuses.append(0)
            return
        statuses.append(r.status_code)
        if busy is not None and r.status_code == 503:
            busy.append(r)


def _start_hostile(base: str, n: int, statuses: list[int],
                   busy: list[httpx.Response] | None = None) -> list[threading.Thread]:
    threads = [threading.Thread(target=_hostile, args=(base, statuses, busy), daemon=True)
               for _ in range(n)]
    for t in threads:
        t.start()
    return threads


def test_traces_and_small_renders_are_answered_beside_hostile_renders(server):
    base, _ = server
    with httpx.Client(timeout=30) as c:
        assert c.post(base + "/api/trace", json=FORK).status_code == 200  # warm
        statuses: list[int] = []
        threads = _start_hostile(base, 40, statuses)
        traces, health, renders, during = [], [], [], 0
        for i in range(40):
            traces.append(c.post(base + "/api/trace", json=FORK).status_code)
            during += len(statuses) < 40  # answered while hostile renders were outstanding
            health.append(c.get(base + "/api/health").status_code)
            if i % 4 == 0:  # small renders have their own queue, ahead of the hostile ones
                theme = ("light", "dark")[i // 16 % 2]
                renders.append(c.post(base + "/api/render",
                                      json={**FORK, "step": i % 8, "theme": theme}).status_code)
        for t in threads:
            t.join(timeout=120)
    assert len(statuses) == 40 and 0 not in statuses, statuses
    # a render is laid out (200), refused while the lab is busy (503), or, on a machine so
    # loaded that its layout alone ran out of time, 422; never another 5xx
    assert set(statuses) <= {200, 422, 503} and 503 in statuses, statuses
    assert traces == [200] * 40 and health == [200] * 40
    assert renders == [200] * 10, renders  # none refused as busy behind the hostile queue
    assert during > 0  # traces did not wait for the hostile renders to finish


def test_busy_answer_says_when_to_retry(server):
    base, _ = server
    statuses: list[int] = []
    refused: list[httpx.Response] = []  # 30 renders at once: more than one runs and 8 wait
    threads = _start_hostile(base, 30, statuses, refused)
    for t in threads:
        t.join(timeout=60)
    assert refused, f"the lab never said it was busy: {sorted(statuses)}"
    busy = refused[0]
    assert busy.json()["error"] == "busy" and int(busy.headers["retry-after"]) > 0


def test_sigterm_stops_the_server_while_layouts_run(server):
    base, proc = server
    statuses: list[int] = []
    threads = _start_hostile(base, 10, statuses)
    while not statuses and all(t.is_alive() for t in threads):  # the first answer: busy or done
        threads[0].join(timeout=0.1)
    proc.send_signal(signal.SIGTERM)
    # it stops (uvicorn re-raises the signal after its graceful shutdown); how fast it stops
    # is measured by bench_lab.py --hostile
    assert proc.wait(timeout=60) in (0, -signal.SIGTERM)
    for t in threads:
        t.join(timeout=60)
    # laid out, refused, or cut off by the shutdown (0: the connection closed), never a 500
    assert len(statuses) == 10 and set(statuses) <= {0, 200, 503}, statuses
    assert b"Traceback" not in proc.stderr.read()

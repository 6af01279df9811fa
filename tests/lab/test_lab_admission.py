"""Every route that lays out queues at the layout gate; a flood of any of them gets 503 busy.

The floods are deterministic: the layout is replaced by one that waits until the
test has every refusal in hand, and the queue holds nobody (``max_waiting=0``),
so exactly one request lays out and every other one is refused at once.
"""

from __future__ import annotations

import asyncio
import random
import threading

import httpx
import pytest

import vizgrad.lab._admission as admission
import vizgrad.scene.make as scene_module
from vizgrad.lab import create_app
from vizgrad.lab._admission import LayoutGate
from vizgrad.lab._requests import ApiError
from vizgrad.lab._routes import LAYOUT_ROUTES

FLOOD = 6


def _body(i: int) -> dict:
    """A new small drawing each time (other values), so no cache answers it."""
    return {"expression": "a*b+a", "values": {"a": 1 + i / 100, "b": 2}}


@pytest.mark.parametrize("path", LAYOUT_ROUTES)
def test_a_flood_of_a_layout_route_gets_busy_with_retry_after(path, monkeypatch):
    release, laid_out = threading.Event(), []
    real = scene_module.run_layout

    def held_layout(*args, **kwargs):  # lays out only once the others were answered
        laid_out.append(path)
        assert release.wait(30), "the test never let the layout finish"
        return real(*args, **kwargs)

    monkeypatch.setattr(scene_module, "run_layout", held_layout)
    app = create_app(cache_size=0, max_waiting=0)

    async def flood() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            tasks = [asyncio.create_task(c.post(path, json=_body(i))) for i in range(FLOOD)]
            answered: list[httpx.Response] = []
            for done in asyncio.as_completed(tasks, timeout=60):
                answered.append(await done)
                if len(answered) == FLOOD - 1:
                    release.set()
            return answered

    try:
        answers = asyncio.run(flood())
    finally:
        release.set()
    statuses = sorted(r.status_code for r in answers)
    assert statuses == [200] + [503] * (FLOOD - 1), [r.text[:120] for r in answers]
    for r in answers:
        if r.status_code == 503:
            assert r.json()["error"] == "busy" and int(r.headers["retry-after"]) > 0
    assert len(laid_out) == 1


def test_no_other_route_lays_out(client, monkeypatch):
    def no_layout(*args, **kwargs):
        raise AssertionError("a route outside LAYOUT_ROUTES laid a graph out")

    monkeypatch.setattr(scene_module, "run_layout", no_layout)
    posts = [r.path for r in client.app.routes if "POST" in (getattr(r, "methods", None) or ())]
    others = [p for p in posts if p not in LAYOUT_ROUTES]
    assert set(LAYOUT_ROUTES) <= set(posts) and others
    for path in others:
        r = client.post(path, json={"example": "fork"})
        assert r.status_code == 200, (path, r.text[:200])


def test_cancelled_waits_leave_the_gate_as_it_was(monkeypatch):
    """Waiters cancelled at any moment (a shutdown cancels them all) raise nothing but
    CancelledError, and the gate's counts come back to zero."""
    monkeypatch.setattr(admission, "_POLL", 0.001)  # many poll timeouts to be cancelled in
    rng = random.Random(1)

    async def scenario() -> tuple[list[str], int, dict[bool, int], str]:
        gate = LayoutGate(active=1, waiting=50)
        loop = asyncio.get_running_loop()
        errors: list[str] = []

        async def user() -> None:
            try:
                async with gate.slot(loop.time() + 5):
                    await asyncio.sleep(0.05)
            except (ApiError, asyncio.CancelledError):
                pass
            except BaseException as err:  # noqa: BLE001 - what the test looks for
                errors.append(repr(err))

        for _ in range(15):
            tasks = [asyncio.create_task(user()) for _ in range(30)]
            await asyncio.sleep(rng.random() * 0.02)
            for t in tasks:
                t.cancel()
                await asyncio.sleep(0)
            await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 20)
        async with gate.slot(loop.time() + 1):
            after = "a slot is free"
        return errors, gate._running, dict(gate._queued), after

    outcome: list = []  # in a thread: a gate whose lock broke would hang asyncio.run for ever
    runner = threading.Thread(target=lambda: outcome.append(asyncio.run(scenario())),
                              daemon=True)
    runner.start()
    runner.join(timeout=60)
    assert outcome, "the scenario hung: waiters were left stuck in the gate"
    errors, running, queued, after = outcome[0]
    assert errors == [] and running == 0 and queued == {False: 0, True: 0}
    assert after == "a slot is free"


@pytest.mark.parametrize("path", LAYOUT_ROUTES)
def test_identical_requests_in_flight_share_one_layout(path, monkeypatch):
    release, laid_out = threading.Event(), []
    real = scene_module.run_layout

    def held_layout(*args, **kwargs):  # lays out once every request has arrived
        laid_out.append(path)
        assert release.wait(30), "the test never let the layout finish"
        return real(*args, **kwargs)

    monkeypatch.setattr(scene_module, "run_layout", held_layout)
    app = create_app(cache_size=0, max_waiting=0)  # no cache, and nobody may queue

    async def same() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            tasks = [asyncio.create_task(c.post(path, json=_body(0))) for _ in range(FLOOD)]
            for _ in range(200):  # until the first one lays out and the others wait for it
                await asyncio.sleep(0.02)
                if laid_out:
                    break
            await asyncio.sleep(0.2)
            release.set()
            return list(await asyncio.wait_for(asyncio.gather(*tasks), 60))

    try:
        answers = asyncio.run(same())
    finally:
        release.set()
    assert [r.status_code for r in answers] == [200] * FLOOD, [r.text[:120] for r in answers]
    assert len({r.content for r in answers}) == 1
    assert sorted(r.headers["x-vizgrad-cache"] for r in answers) == ["hit"] * (FLOOD - 1) + ["miss"]
    assert laid_out == [path]

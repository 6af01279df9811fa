"""Clients that go away or dawdle: one log line, a bounded wait, no traceback."""

from __future__ import annotations

import asyncio
import json
import logging
import time

import pytest

import vizgrad.lab._limits as lab_limits
import vizgrad.lab._routes as lab_routes
from vizgrad.lab import create_app
from vizgrad.lab._admission import LayoutGate
from vizgrad.lab._requests import ApiError
from vizgrad.scene.layout.run import cancel_layout


def _call(app, path: str, receive) -> list[dict]:
    """Run one POST through the ASGI app; return the messages it sent."""
    sent: list[dict] = []

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
             "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
             "root_path": "", "headers": [(b"content-type", b"application/json"),
                                          (b"host", b"127.0.0.1")],
             "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000)}
    asyncio.run(app(scope, receive, send))
    return sent


@pytest.mark.parametrize("path", ["/api/trace", "/api/render", "/api/gradcheck"])
def test_disconnect_mid_body_logs_one_line(path, caplog):
    messages = iter([{"type": "http.request", "body": b'{"exam', "more_body": True},
                     {"type": "http.disconnect"}])

    async def receive():
        return next(messages)

    with caplog.at_level(logging.INFO, logger="vizgrad.lab"):
        _call(create_app(), path, receive)
    records = [r for r in caplog.records if r.name == "vizgrad.lab"]
    assert len(records) == 1 and "disconnected" in records[0].getMessage()
    assert records[0].exc_info is None and records[0].levelno == logging.INFO


def test_slow_body_gets_408(monkeypatch):
    monkeypatch.setattr(lab_limits, "BODY_TIMEOUT", 0.2)
    first = True

    async def receive():
        nonlocal first
        if first:
            first = False
            return {"type": "http.request", "body": b"{", "more_body": True}
        await asyncio.sleep(5)
        return {"type": "http.request", "body": b"}", "more_body": False}

    sent = _call(create_app(), "/api/trace", receive)
    assert sent[0]["status"] == 408
    assert b'"request_timeout"' in sent[1]["body"]


def test_gate_refuses_beyond_its_queue_and_past_the_deadline():
    async def scenario():
        gate = LayoutGate(active=1, waiting=1)
        loop = asyncio.get_running_loop()
        results = []

        async def wait_for_slot(deadline_in: float):
            try:
                async with gate.slot(loop.time() + deadline_in):
                    results.append("ran")
            except ApiError as err:
                results.append(err.status)

        async with gate.slot(loop.time() + 5):
            waiter = asyncio.create_task(wait_for_slot(0.3))  # waits, then its deadline passes
            await asyncio.sleep(0.05)
            await wait_for_slot(5)  # the queue (one place) is full: refused at once
            await waiter
        await wait_for_slot(5)  # free again
        return results

    assert asyncio.run(scenario()) == [503, 503, "ran"]


def test_gate_drops_a_waiter_whose_client_left():
    async def scenario():
        gate = LayoutGate(active=1, waiting=4)
        loop = asyncio.get_running_loop()

        async def gone() -> bool:
            return True

        async with gate.slot(loop.time() + 5):
            try:
                async with gate.slot(loop.time() + 5, gone):
                    return "ran"
            except ApiError as err:
                return err.status, "disconnected" in err.detail

    assert asyncio.run(scenario()) == (503, True)


def test_a_render_whose_client_left_stops_its_layout(monkeypatch, caplog):
    calls = []

    def spy():
        calls.append(cancel_layout())
        return calls[-1]

    monkeypatch.setattr(lab_routes, "cancel_layout", spy)
    import vizgrad.scene.make as scene_module

    started = []
    real_layout = scene_module.run_layout

    def layout(*args, **kwargs):
        started.append(time.monotonic())
        return real_layout(*args, **kwargs)

    monkeypatch.setattr(scene_module, "run_layout", layout)
    # long enough that its layout still runs when the client leaves: top to bottom, where
    # each of its 960 edge labels is a node for Graphviz (about 1 s; left to right 0.3 s)
    body = json.dumps({"expression": "+".join(["a*b*c"] * 240),
                       "values": {"a": 0.25, "b": 3, "c": 2}, "rankdir": "TB"})
    state = {"sent": 0.0}

    async def receive():
        if not state["sent"]:
            state["sent"] = time.monotonic()
            return {"type": "http.request", "body": body.encode(), "more_body": False}
        while not started or time.monotonic() < started[0] + 0.1:  # leave while it lays out
            await asyncio.sleep(0.02)
        return {"type": "http.disconnect"}

    with caplog.at_level(logging.INFO, logger="vizgrad.lab"):
        sent = _call(create_app(cache_size=0, max_expression_length=2000, max_nodes=2000),
                     "/api/render", receive)
    assert calls == [True]  # a layout was running, and it was stopped
    assert sent[0]["status"] == 499
    assert any("disconnected" in r.getMessage() for r in caplog.records)
    # the next layout starts a new worker and works
    r = _call(create_app(), "/api/render", _once(b'{"example": "fork", "format": "svg"}'))
    assert r[0]["status"] == 200


def _once(body: bytes):
    messages = iter([{"type": "http.request", "body": body, "more_body": False}])

    async def receive():
        try:
            return next(messages)
        except StopIteration:
            await asyncio.sleep(30)
            return {"type": "http.disconnect"}

    return receive


def test_gate_lets_small_drawings_go_first():
    async def scenario():
        gate = LayoutGate(active=1, waiting=1)
        loop = asyncio.get_running_loop()
        order = []

        async def draw(name: str, small: bool):
            try:
                async with gate.slot(loop.time() + 5, small=small):
                    order.append(name)
                    await asyncio.sleep(0.01)
            except ApiError as err:
                order.append(f"{name} {err.status}")

        async with gate.slot(loop.time() + 5):
            big = asyncio.create_task(draw("big", False))
            await asyncio.sleep(0.05)
            await draw("big2", False)  # the queue of big drawings is full
            small = asyncio.create_task(draw("small", True))  # its own queue
            await asyncio.sleep(0.05)
        await asyncio.gather(big, small)
        return order

    assert asyncio.run(scenario()) == ["big2 503", "small", "big"]

"""Each limit is defined once; ``--help``, the docstrings and uvicorn get it from there."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import fields

import httpx
from click.testing import CliRunner

import vizgrad.lab._limits as lim
import vizgrad.scene.scene as scene_module
from vizgrad.export.budget import DEFAULT_MAX_BYTES, DEFAULT_MAX_SECONDS, MAX_CELLS, fmt_bytes
from vizgrad.cli.commands import main
from vizgrad.lab import create_app
from vizgrad.lab.cli import PROTOCOL, serve


def _help(*argv: str) -> str:
    result = CliRunner().invoke(main, [*argv, "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())  # wrapped lines joined


def test_serve_help_states_every_server_limit():
    text = _help("serve")
    defaults = lim.Limits()
    for phrase in (f"within {lim.HEADER_TIMEOUT:g} s", f"{lim.MAX_HEADER_BYTES} bytes (431",
                   f"within {lim.BODY_TIMEOUT:g} s (408)", f"close after {lim.KEEP_ALIVE} s",
                   f"hold {lim.MAX_CONNECTIONS_PER_CLIENT} connections",
                   f"{lim.MAX_CONNECTIONS} in all", f"after {lim.GRACEFUL_SHUTDOWN} s",
                   f"(default {defaults.max_nodes})", f"(default {defaults.layout_timeout:g})",
                   f"(default {defaults.cache_size})"):
        assert phrase in text, phrase


def test_render_help_states_its_budgets():
    text = _help("render")
    assert f"[default: {MAX_CELLS}]" in text
    assert f"[default: {fmt_bytes(DEFAULT_MAX_BYTES).replace(' MB', 'M')}]" in text
    assert f"[default: {DEFAULT_MAX_SECONDS}" in text


def test_create_app_states_the_request_limits():
    doc = " ".join(create_app.__doc__.split())
    defaults = lim.Limits()
    assert f"{defaults.max_body_bytes} body bytes" in doc
    assert f"{defaults.max_expression_length} expression characters" in doc
    assert f"{defaults.max_nodes} nodes" in doc and f"{defaults.cache_size} cached" in doc
    assert f"{defaults.layout_timeout:g} s of layout" in doc
    assert f"[-{defaults.value_limit:g}, {defaults.value_limit:g}]" in doc
    assert len(fields(lim.Limits)) == 6  # a new limit must be stated above too


def test_serve_gives_uvicorn_the_limits(monkeypatch):
    import uvicorn

    seen = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: seen.update(options))
    result = CliRunner().invoke(serve, ["--port", "8765"])
    assert result.exit_code == 0, result.output
    assert seen["h11_max_incomplete_event_size"] == lim.MAX_HEADER_BYTES
    assert seen["limit_concurrency"] == lim.MAX_CONNECTIONS
    assert seen["timeout_keep_alive"] == lim.KEEP_ALIVE
    assert seen["timeout_graceful_shutdown"] == lim.GRACEFUL_SHUTDOWN
    assert seen["http"] == PROTOCOL and seen["proxy_headers"] is False


def test_one_client_may_have_only_so_many_requests_in_flight(monkeypatch):
    monkeypatch.setattr(lim, "MAX_CONNECTIONS_PER_CLIENT", 2)
    release = threading.Event()
    real = scene_module.run_layout

    def held_layout(*args, **kwargs):
        assert release.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(scene_module, "run_layout", held_layout)
    app = create_app(cache_size=0)

    async def three() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app, client=("203.0.113.9", 4000))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            first = [asyncio.create_task(c.post("/api/render", json={
                "expression": "a*b", "values": {"a": i, "b": 2}})) for i in (1, 2)]
            await asyncio.sleep(0.5)  # both are in flight: one lays out, one waits
            third = await c.get("/api/health")
            release.set()
            return [third, *[await t for t in first]]

    try:
        third, *first = asyncio.run(three())
    finally:
        release.set()
    assert third.status_code == 503 and third.json()["error"] == "busy"
    assert "in flight" in third.json()["detail"] and third.headers["retry-after"]
    assert [r.status_code for r in first] == [200, 200]

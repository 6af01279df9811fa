"""Each limit is defined once; ``--help``, the docstrings and uvicorn get it from there."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import fields

import httpx
from click.testing import CliRunner

import vizgrad.lab._limits as lim
import vizgrad.scene.make as scene_module
from vizgrad.cli.commands import main
from vizgrad.lab import create_app
from vizgrad.lab.cli import PROTOCOL, serve


def _help(*argv: str) -> str:
    result = CliRunner().invoke(main, [*argv, "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())  # wrapped lines joined


#: the limits as documented (docs/lab.md, --help), written out here rather than read back
#: from vizgrad.lab._limits: a change of a limit must change this table too
SERVER = {"HEADER_TIMEOUT": 5.0, "MAX_HEADER_BYTES": 16384, "BODY_TIMEOUT": 10.0,
          "KEEP_ALIVE": 5, "MAX_CONNECTIONS_PER_CLIENT": 48, "MAX_CONNECTIONS": 256,
          "GRACEFUL_SHUTDOWN": 2, "EVICT_AFTER": 1.0}
REQUEST = {"max_body_bytes": 16384, "max_expression_length": 500, "max_nodes": 300,
           "layout_timeout": 10.0, "value_limit": 20.0, "cache_size": 512}


def test_the_limits_are_the_documented_ones():
    assert {k: getattr(lim, k) for k in SERVER} == SERVER
    assert {f.name: getattr(lim.Limits(), f.name) for f in fields(lim.Limits)} == REQUEST


def test_serve_help_states_every_server_limit():
    text = _help("serve")
    for phrase in ("within 5 s", "16384 bytes (431", "within 10 s (408)", "close after 5 s",
                   "hold 48 connections", "256 in all", "after 2 s", "(default 300)",
                   "(default 10)", "(default 512)"):
        assert phrase in text, phrase


def test_render_help_states_its_budgets():
    text = _help("render")
    assert "[default: 2000000]" in text
    assert "[default: 200M]" in text
    assert "[default: 600" in text


def test_create_app_states_the_request_limits():
    doc = " ".join(create_app.__doc__.split())
    for phrase in ("16384 body bytes", "500 expression characters", "300 nodes",
                   "512 cached", "10 s of layout", "[-20, 20]"):
        assert phrase in doc, phrase
    assert len(fields(lim.Limits)) == 6  # a new limit must be stated above too


def test_serve_gives_uvicorn_the_limits(monkeypatch):
    import uvicorn

    seen = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: seen.update(options))
    result = CliRunner().invoke(serve, ["--port", "8765"])
    assert result.exit_code == 0, result.output
    assert seen["h11_max_incomplete_event_size"] == 16384
    assert seen["limit_concurrency"] == 256
    assert seen["timeout_keep_alive"] == 5
    assert seen["timeout_graceful_shutdown"] == 2
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

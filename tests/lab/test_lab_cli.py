"""``vizgrad serve``: options, the printed URL, and a real multi-worker server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import httpx
import pytest
from click.testing import CliRunner

from vizgrad.cli.commands import main
from vizgrad.lab.cli import serve


@pytest.fixture
def captured(monkeypatch):
    import uvicorn

    calls: list[tuple[tuple, dict]] = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **kw: calls.append((a, kw)))
    return calls


def test_serve_is_a_vizgrad_command():
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--workers"):
        assert option in result.output


def test_serve_defaults_to_loopback_and_prints_the_url(captured, monkeypatch):
    from vizgrad.lab import cli

    monkeypatch.setattr(cli, "_check_can_listen", lambda host, port: None)  # 8000 may be taken
    result = CliRunner().invoke(serve, [])
    assert result.exit_code == 0, result.output
    assert "http://127.0.0.1:8000/" in result.output
    (args, kwargs), = captured
    assert args == ("vizgrad.lab.app:create_app",)
    assert kwargs["factory"] is True and kwargs["host"] == "127.0.0.1" and kwargs["port"] == 8000
    assert kwargs["workers"] == 1


def test_serve_passes_host_port_and_workers(monkeypatch, free_port):
    from vizgrad.lab import cli

    configs = []
    monkeypatch.setattr(cli, "run_workers", configs.append)
    result = CliRunner().invoke(serve, ["--host", "0.0.0.0", "--port", str(free_port),
                                        "--workers", "3"])
    assert result.exit_code == 0
    assert f"http://127.0.0.1:{free_port}/" in result.output
    assert "other machines" in result.output  # binding beyond loopback is said aloud
    (config,) = configs
    assert (config.host, config.port, config.workers) == ("0.0.0.0", free_port, 3)
    assert config.factory and config.app == "vizgrad.lab.app:create_app"


def test_worker_listener_keeps_tcp_nodelay(free_port):
    """Connections accepted on the multi-worker listener get TCP_NODELAY (uvicorn #3149)."""
    import asyncio
    import socket

    import uvicorn

    from vizgrad.lab.cli import tcp_listener

    config = uvicorn.Config("vizgrad.lab.app:create_app", host="127.0.0.1", port=free_port,
                            log_level="warning")
    sock = tcp_listener(config.bind_socket())
    seen = []

    class Probe(asyncio.Protocol):
        def connection_made(self, transport):
            conn = transport.get_extra_info("socket")
            seen.append(conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            transport.close()

    async def main():
        server = await asyncio.get_running_loop().create_server(Probe, sock=sock)
        _, writer = await asyncio.open_connection("127.0.0.1", free_port)
        for _ in range(100):
            if seen:
                break
            await asyncio.sleep(0.01)
        writer.close()
        server.close()
        await server.wait_closed()

    try:
        asyncio.run(main())
    finally:
        sock.close()
    assert seen and seen[0] != 0


def test_serve_says_when_the_port_is_taken(captured, free_port):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", free_port))
        busy.listen()
        result = CliRunner().invoke(serve, ["--port", str(free_port)])
    assert result.exit_code == 1 and not captured
    assert f"cannot listen on 127.0.0.1:{free_port}" in result.output
    assert "choose another --port" in result.output


@pytest.mark.parametrize("argv", [["--port", "0"], ["--port", "x"], ["--workers", "0"],
                                  ["--log-level", "loud"]])
def test_serve_rejects_bad_options(captured, argv):
    result = CliRunner().invoke(serve, argv)
    assert result.exit_code == 2 and not captured


def test_serve_runs_two_workers(tmp_path, free_port):
    port = free_port
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "vizgrad", "serve", "--port", str(port), "--workers", "2",
         "--log-level", "warning"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=tmp_path)
    try:
        first = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in first
        deadline = time.monotonic() + 60
        while True:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=2)
                break
            except httpx.TransportError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"server did not start: {proc.stdout.read()}") from None
                time.sleep(0.2)
        assert health.json()["status"] == "ok"
        r = httpx.post(f"http://127.0.0.1:{port}/api/trace",
                       json={"example": "fork", "values": {"a": -2, "b": 3}}, timeout=10)
        assert [m["text"] for m in r.json()["metrics"]] == ["−6", "−3", "−8"]
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stdout.close()


def test_serve_passes_limits_to_every_worker(captured, monkeypatch):
    for name in ("MAX_NODES", "LAYOUT_TIMEOUT", "CACHE_SIZE"):
        monkeypatch.setenv(f"VIZGRAD_LAB_{name}", "1")  # recorded, so restored afterwards
        monkeypatch.delenv(f"VIZGRAD_LAB_{name}")
    result = CliRunner().invoke(serve, ["--max-nodes", "40", "--layout-timeout", "2.5",
                                        "--cache-size", "0"])
    assert result.exit_code == 0
    assert os.environ["VIZGRAD_LAB_MAX_NODES"] == "40"
    from vizgrad.lab import create_app

    limits = create_app().state.limits
    assert (limits.max_nodes, limits.layout_timeout, limits.cache_size) == (40, 2.5, 0)


def test_the_serve_command_loads_no_web_stack():
    """``vizgrad --help`` lists serve; that must not import Starlette or uvicorn."""
    probe = ("import json, sys; import vizgrad.lab.cli; "
             "print(json.dumps(sorted(m for m in ('starlette', 'uvicorn', 'networkx') "
             "if m in sys.modules)))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, timeout=60)
    assert json.loads(out.stdout) == []


def test_a_worker_whose_supervisor_already_died_leaves():
    """A worker that reaches its app after ``kill -9`` of the supervisor must not serve."""
    from vizgrad.lab._workers import ENV_SUPERVISOR

    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # a process id that is nobody's parent now
    probe = ("import time; from vizgrad.lab._workers import follow_supervisor; "
             "follow_supervisor(); time.sleep(20); print('still here')")
    start = time.monotonic()
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         timeout=60, env={**os.environ, ENV_SUPERVISOR: str(gone.pid)})
    assert out.returncode == 1 and "still here" not in out.stdout
    assert time.monotonic() - start < 15


def test_a_process_outside_serve_does_not_follow_anyone():
    from vizgrad.lab._workers import ENV_SUPERVISOR, follow_supervisor

    assert follow_supervisor(environ={ENV_SUPERVISOR: "not a pid"}) is None
    assert follow_supervisor(environ={}) is None

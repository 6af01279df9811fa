"""The lab answers only requests addressed to its own names (a guard against DNS rebinding)."""

from __future__ import annotations

import os

import httpx
import pytest
from click.testing import CliRunner

from vizgrad.exceptions import DomainError
from vizgrad.lab._hosts import ENV_ALLOWED_HOSTS, allowed_hosts, check_host_name
from vizgrad.lab.cli import serve


@pytest.fixture(autouse=True)
def no_extra_hosts(monkeypatch):
    monkeypatch.setenv(ENV_ALLOWED_HOSTS, "")  # recorded, so restored afterwards
    monkeypatch.delenv(ENV_ALLOWED_HOSTS)


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.1:8000", "localhost:9000", "[::1]:8000",
                                  "LOCALHOST"])
def test_loopback_names_are_answered(client, host):
    r = client.get("/api/health", headers={"Host": host})
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "ok"


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example",
                                  "localhost.evil.example", "0.0.0.0:8000", "[::2]:8000"])
@pytest.mark.parametrize("method, path", [("GET", "/api/health"), ("GET", "/"),
                                          ("POST", "/api/trace")])
def test_a_wrong_host_gets_400_with_a_json_body(client, host, method, path):
    r = client.request(method, path, headers={"Host": host}, json={"example": "fork"})
    assert r.status_code == 400
    assert r.headers["content-type"] == "application/json"
    body = r.json()
    assert set(body) == {"error", "detail"}
    assert body["error"] == "invalid_host"
    assert repr(host) in body["detail"] and "--allow-host" in body["detail"]
    assert r.headers["x-content-type-options"] == "nosniff"  # security headers still added


def test_allow_hosts_adds_names(make_client):
    c = make_client(allow_hosts=["lab.example.org", "*.internal.example"])
    for host in ("lab.example.org:443", "a.internal.example", "127.0.0.1:8000"):
        assert c.get("/api/health", headers={"Host": host}).status_code == 200, host
    assert c.get("/api/health", headers={"Host": "evil.example"}).status_code == 400


def test_the_environment_reaches_every_worker(monkeypatch, make_client):
    monkeypatch.setenv(ENV_ALLOWED_HOSTS, "lab.example.org,10.0.0.2")
    c = make_client()
    assert c.get("/api/health", headers={"Host": "10.0.0.2:8000"}).status_code == 200
    assert c.get("/api/health", headers={"Host": "lab.example.org"}).status_code == 200
    assert c.get("/api/health", headers={"Host": "other.example"}).status_code == 400


def test_a_real_server_refuses_a_rebound_name(live_server):
    ok = httpx.get(f"{live_server}/api/health", timeout=10)
    assert ok.status_code == 200
    bad = httpx.get(f"{live_server}/api/health", headers={"Host": "evil.example"}, timeout=10)
    assert bad.status_code == 400 and bad.json()["error"] == "invalid_host"


def test_allowed_hosts_normalises_names():
    assert allowed_hosts(["Lab.Example.org", "::1", "lab.example.org"], environ={}) == [
        "127.0.0.1", "localhost", "[::1]", "lab.example.org"]
    assert check_host_name("[2001:DB8::1]") == "[2001:db8::1]"


@pytest.mark.parametrize("name, match", [("*", "any Host"), ("a.example:80", "without a port"),
                                         ("bad name", "not a host name"), ("", "not a host name"),
                                         ("a*.example", "not a host name")])
def test_bad_names_are_clear_errors(name, match):
    with pytest.raises(DomainError, match=match):
        check_host_name(name)


@pytest.fixture
def captured(monkeypatch):
    import uvicorn

    from vizgrad.lab import cli

    monkeypatch.setattr(cli, "_check_can_listen", lambda host, port: None)
    calls: list[dict] = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **kw: calls.append(kw))
    return calls


def test_serve_allow_host_is_repeatable(captured):
    result = CliRunner().invoke(serve, ["--allow-host", "lab.example.org",
                                        "--allow-host", "Proxy.Example.org"])
    assert result.exit_code == 0, result.output
    assert os.environ[ENV_ALLOWED_HOSTS] == "lab.example.org,proxy.example.org"


def test_serve_without_allow_host_answers_loopback_only(captured, monkeypatch):
    monkeypatch.setenv(ENV_ALLOWED_HOSTS, "left.over.example")
    result = CliRunner().invoke(serve, [])
    assert result.exit_code == 0, result.output
    assert ENV_ALLOWED_HOSTS not in os.environ


def test_serve_on_all_interfaces_says_to_allow_a_host(captured):
    result = CliRunner().invoke(serve, ["--host", "0.0.0.0"])
    assert result.exit_code == 0
    assert "--allow-host NAME" in result.output
    quiet = CliRunner().invoke(serve, ["--host", "0.0.0.0", "--allow-host", "lab.example.org"])
    assert "--allow-host NAME" not in quiet.output


def test_serve_on_one_address_answers_to_it(captured):
    result = CliRunner().invoke(serve, ["--host", "192.168.1.20"])
    assert result.exit_code == 0
    assert os.environ[ENV_ALLOWED_HOSTS] == "192.168.1.20"


def test_serve_rejects_a_bad_allow_host(captured):
    result = CliRunner().invoke(serve, ["--allow-host", "*"])
    assert result.exit_code == 2
    assert "--allow-host" in result.output and "DNS rebinding" in result.output
    assert captured == []

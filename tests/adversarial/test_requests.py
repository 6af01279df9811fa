"""Hostile requests to a real server: every answer is JSON with a 4xx or 503, never a 500."""

from __future__ import annotations

import json
import socket
import threading

import httpx
import pytest

from .conftest import tally

pytestmark = pytest.mark.adversarial

HOSTILE = [
    {"expression": "a", "values": {"\ud800": 1}},
    {"expression": "\udfff", "values": {}},
    {"example": "fork", "focus": "\ud800"},
    {"example": "mlp", "collapse": "neuron", "expand": ["\udc00"]},
    {"expression": "__import__('os').system('true')", "values": {}},
    {"expression": "a.__class__", "values": {"a": 1}},
    {"expression": "(" * 5000 + "a" + ")" * 5000, "values": {"a": 1}},
    {"expression": "a" + "*a" * 300, "values": {"a": 1}},
    {"example": "fork", "values": {"a": 1e308}},
    {"example": "fork", "step": 10**30},
    {"example": "fork", "h": 0},
]
TRAVERSAL = ["/static/../app.py", "/static/%2e%2e/app.py", "/static/..%2f_service.py",
             "/static//etc/passwd", "/static/%252e%252e/app.py", "/static/index.html%00.py"]


def _raw(port: int, head: bytes) -> tuple[int, bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(head)
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    return int(answer.split(b" ", 2)[1]), answer.partition(b"\r\n\r\n")[2]


@pytest.mark.parametrize("path", ["/api/trace", "/api/gradcheck", "/api/render", "/api/scene"])
def test_hostile_bodies_get_json_errors(shared_lab, path):
    held = 0
    with httpx.Client(base_url=shared_lab.base, timeout=30) as c:
        for body in HOSTILE:
            r = c.post(path, content=json.dumps(body).encode("ascii"),
                       headers={"content-type": "application/json"})
            ok = 400 <= r.status_code < 500 and "error" in json.loads(r.content.decode())
            held += ok
            assert ok, (path, body, r.status_code, r.text[:200])
    tally("hostile bodies (surrogates, dunder, nesting, huge numbers)", len(HOSTILE), held)


def test_only_application_json_is_read(shared_lab):
    held = 0
    types = ["application/evil+json", "text/json", "application/json-patch+json", "text/plain",
             "application/x-www-form-urlencoded"]
    for ctype in types:
        r = httpx.post(shared_lab.base + "/api/trace", content=b'{"example": "fork"}',
                       headers={"content-type": ctype}, timeout=10)
        held += r.status_code == 415
    tally("bodies of other media types", len(types), held)
    assert held == len(types)


def test_traversal_stays_inside_static(shared_lab):
    held = 0
    for path in TRAVERSAL:
        status, body = _raw(shared_lab.port, b"GET " + path.encode() + b" HTTP/1.1\r\n"
                            b"Host: 127.0.0.1\r\nConnection: close\r\n\r\n")
        held += status in (400, 404) and b"import" not in body
    tally("path traversal under /static", len(TRAVERSAL), held)
    assert held == len(TRAVERSAL)


def test_malformed_heads_get_json_400(shared_lab):
    heads = [b"GARBAGE\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n", b"GET / HTTP/1.1\r\nHost\r\n\r\n",
             b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n"]
    held = 0
    for head in heads:
        status, body = _raw(shared_lab.port, head)
        held += status in (400, 505) and "error" in json.loads(body or b"{}")
    tally("malformed request heads", len(heads), held)
    assert held == len(heads)


def test_a_flood_of_scenes_is_refused_with_retry_after(shared_lab):
    answers: list[httpx.Response | None] = []

    def scene(i: int) -> None:
        body = {"expression": "+".join(["a*b"] * 40), "values": {"a": 1 + i / 1000, "b": 2}}
        try:
            answers.append(httpx.post(shared_lab.base + "/api/scene", json=body, timeout=60))
        except httpx.TransportError:
            answers.append(None)

    threads = [threading.Thread(target=scene, args=(i,), daemon=True) for i in range(30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=90)
    statuses = [r.status_code if r is not None else 0 for r in answers]
    busy = [r for r in answers if r is not None and r.status_code == 503]
    held = sum(s in (200, 503) for s in statuses)
    tally("30 uncached scenes at once", len(statuses), held)
    assert len(statuses) == 30 and held == 30, statuses
    assert busy and all(r.json()["error"] == "busy" and r.headers["retry-after"] for r in busy)

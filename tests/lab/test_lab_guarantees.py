"""What the lab promises whatever it is sent: no code run, escaped output, no CORS, headers."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

HOSTILE_EXPRESSIONS = [
    "__import__('os').system('touch {m}')",
    "open('{m}', 'w').write('x')",
    "(lambda: open('{m}', 'w'))()",
    "().__class__.__bases__[0].__subclasses__()",
    "a.__class__.__init__.__globals__",
    "exec(\"open('{m}','w')\")",
    "eval(\"open('{m}','w')\")",
    "[open('{m}','w') for a in [1]]",
    "f'{{open(\"{m}\",\"w\")}}'",
    "a if open('{m}','w') else a",
    "getattr(a, '__class__')",
    "a; open('{m}','w')",
    "a\nopen('{m}','w')",
]


@pytest.mark.parametrize("template", HOSTILE_EXPRESSIONS)
@pytest.mark.parametrize("path", ["/api/trace", "/api/render", "/api/gradcheck"])
def test_hostile_expressions_run_no_code(client, tmp_path, template, path):
    marker = tmp_path / "ran"
    expression = template.format(m=marker)
    r = client.post(path, json={"expression": expression, "values": {"a": 1}})
    assert 400 <= r.status_code < 500, r.text
    assert set(r.json()) >= {"error", "detail"}
    assert not marker.exists()


def test_rendered_text_is_escaped(client):
    """Markup in any field is refused as JSON; the text that does reach the picture (variable
    names, in any script) comes back through an XML parser as the same text."""
    markup = '<svg onload="alert(1)">&amp;</svg>'
    for body in [{"expression": markup, "values": {"a": 1}}, {"example": markup},
                 {"expression": "a*b", "values": {"a": -2, "b": 3, markup: 1}},
                 {"example": "fork", "lang": markup}, {"example": "mlp", "collapse": markup},
                 {"example": "fork", "focus": markup},
                 {"example": "mlp", "collapse": "neuron", "expand": [markup]},
                 {"example": "mlp", "collapse": "neuron", "group_steps": markup},
                 *({"example": "fork", k: markup}
                   for k in ("theme", "format", "rankdir", "caption"))]:
        r = client.post("/api/render", json=body)
        assert r.status_code == 422, body
        assert r.headers["content-type"] == "application/json"
        assert r.headers["x-content-type-options"] == "nosniff"
        assert set(r.json()) >= {"error", "detail"}  # the markup only inside a JSON string
    r = client.post("/api/render", json={"expression": "αβ*變數 + αβ", "caption": True,
                                         "values": {"αβ": -2, "變數": 3}})
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    root = ET.fromstring(r.content)  # well-formed XML
    texts = {"".join(el.itertext()).strip() for el in root.iter() if el.tag.endswith("}text")}
    assert {"αβ", "變數"} <= texts
    tags = {el.tag.rsplit("}", 1)[-1] for el in root.iter()}
    assert "script" not in tags and "foreignObject" not in tags
    assert not [k for el in root.iter() for k in el.attrib if k.lower().startswith("on")]


def test_no_cors(client):
    origin = {"origin": "https://elsewhere.example"}
    pre = client.options("/api/render", headers={**origin,
                                                 "access-control-request-method": "POST",
                                                 "access-control-request-headers": "content-type"})
    assert pre.status_code == 405
    r = client.post("/api/trace", json={"example": "fork"}, headers=origin)
    assert r.status_code == 200
    for resp in (pre, r):
        assert not [h for h in resp.headers if h.lower().startswith("access-control-")]


@pytest.mark.parametrize("method, path, body", [
    ("GET", "/", None), ("GET", "/api/health", None), ("GET", "/nope", None),
    ("POST", "/api/trace", {"example": "fork"}), ("POST", "/api/trace", {"example": "nope"}),
    ("POST", "/api/render", {"example": "fork"}),
])
def test_security_headers_on_every_answer(client, method, path, body):
    r = client.request(method, path, json=body)
    assert "default-src 'self'" in r.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"

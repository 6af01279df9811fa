"""The lab's JSON API: every endpoint, and every error as a 4xx JSON answer."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest

from vizgrad import examples
from vizgrad.exceptions import BackendError, DomainError, LayoutTimeoutError
from vizgrad.lab import create_app
from vizgrad.lab.app import STATIC
from vizgrad.tracing.recorder import replay

FORK = {"example": "fork", "values": {"a": -2, "b": 3}}
SVG_NS = "{http://www.w3.org/2000/svg}"


def error_of(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert body["error"] == code, body
    assert isinstance(body["detail"], str) and body["detail"]
    return body


# -- the page and static files ---------------------------------------------------------


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.ids: set[str] = set()
        self.labels: set[str] = set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.urls += [a[k] for k in ("src", "href", "action") if a.get(k)]
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "label" and a.get("for"):
            self.labels.add(a["for"])


def test_index_page_uses_only_local_resources(client):
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in r.headers["content-security-policy"]
    page = _Links()
    page.feed(r.text)
    assert page.urls, "the page links its script and stylesheet"
    for url in page.urls:
        assert url.startswith(("static/", "#", "data:")), url  # relative: works under a prefix
        if url.startswith("static/"):
            assert client.get("/" + url).status_code == 200
    assets = sorted(p for p in STATIC.iterdir() if p.suffix in (".js", ".css"))
    assert {p.name for p in assets} >= {"lab.js", "lab.css", "api.js"}
    for path in assets:
        body = path.read_text(encoding="utf-8")
        assert "http://" not in body and "https://" not in body and "//cdn" not in body
        assert client.get(f"/static/{path.name}").status_code == 200


def test_index_page_labels_its_controls(client):
    page = _Links()
    page.feed(client.get("/").text)
    for control in ("source", "theme", "expression", "h"):
        assert control in page.ids and control in page.labels
    for control in ("first", "back", "next", "last", "step-label", "metrics", "check-table"):
        assert control in page.ids


def test_health(client):
    body = client.get("/api/health").json()
    assert body["status"] == "ok" and set(body["cache"]) == {"size", "hits", "misses"}
    assert body["disk_cache"] is None  # no folder given, none in the environment


# -- GET /api/examples ---------------------------------------------------------------------


def test_examples_lists_every_gallery_example_with_inputs(client):
    body = client.get("/api/examples").json()
    assert [e["name"] for e in body["examples"]] == examples.names()
    fork = next(e for e in body["examples"] if e["name"] == "fork")
    assert fork["inputs"] == [{"name": "a", "value": -2.0}, {"name": "b", "value": 3.0}]
    assert fork["description"] == examples.describe("fork")
    assert body["limits"]["value_range"] == [-20.0, 20.0]


# -- POST /api/trace ---------------------------------------------------------------------


def test_trace_fork_gives_the_chapter_numbers(client):
    body = client.post("/api/trace", json=FORK).json()
    assert body["last_step"] == 7 and len(body["steps"]) == 8
    assert [(m["label"], m["text"], m["known_at"]) for m in body["metrics"]] == [
        ("q", "−6", 3), ("∂q/∂a", "−3", 7), ("∂q/∂b", "−8", 7)]
    assert [n["name"] for n in body["nodes"]] == ["a", "b", "u", "v", "q"]
    assert body["inputs"] == [{"id": "v0", "name": "a", "value": -2.0},
                              {"id": "v1", "name": "b", "value": 3.0}]


def test_trace_captions_and_chain_rule_are_the_chapters(client):
    """The fork's words, written out: the chapter's numbers (a.grad −6 → −3, b.grad −6 → −8)."""
    body = client.post("/api/trace", json=FORK).json()
    assert [s["caption"] for s in body["steps"]] == [
        "step 0 / 7 · inputs are set; every operation is pending",
        "step 1 / 7 · forward: u = a × b", "step 2 / 7 · forward: v = a + b",
        "step 3 / 7 · forward: q = u × v", "step 4 / 7 · seed: ∂q/∂q = 1",
        "step 5 / 7 · backward through q = u × v", "step 6 / 7 · backward through v = a + b",
        "step 7 / 7 · backward through u = a × b"]
    rules = [s["chain_rule"] for s in body["steps"]]
    assert rules[0] == rules[4] == [] and rules[1] == ["u = a × b = −6.0000"]
    assert rules[6] == [
        "a.grad += 1 × v.grad = 1.0000 × (−6.0000) = −6.0000   (— → −6.0000)",
        "b.grad += 1 × v.grad = 1.0000 × (−6.0000) = −6.0000   (— → −6.0000)"]
    assert rules[7] == [
        "a.grad += b × u.grad = 3.0000 × 1.0000 = 3.0000   (−6.0000 → −3.0000)",
        "b.grad += a × u.grad = −2.0000 × 1.0000 = −2.0000   (−6.0000 → −8.0000)"]


def test_trace_changes_replay_to_the_trace_state(client):
    body = client.post("/api/trace", json={"example": "softmax-nll"}).json()
    steps = body["graph"]["graph"]["steps"]
    data: dict[str, str] = {}
    grad: dict[str, str] = {}
    for k, step in enumerate(body["steps"]):
        for c in step["changes"]:
            (data if c["field"] == "data" else grad)[c["id"]] = c["value"]
        state = replay(steps, k)
        assert data == state.data and grad == state.grad


def test_trace_of_an_expression_names_the_output(client):
    body = client.post("/api/trace", json={"expression": "(a*b)*(a+b)",
                                           "values": {"a": -2, "b": 3}}).json()
    assert [m["text"] for m in body["metrics"]] == ["−6", "−3", "−8"]
    assert body["output"] == "f" and body["metrics"][1]["label"] == "∂f/∂a"
    other = client.post("/api/trace", json={"expression": "f*2", "values": {"f": 1}}).json()
    assert other["output"] == "out"


def test_trace_of_a_bare_variable_or_a_constant(client):
    bare = client.post("/api/trace", json={"expression": "a", "values": {"a": 2}}).json()
    assert bare["inputs"] == [{"id": "v0", "name": "a", "value": 2.0}]
    assert [m["text"] for m in bare["metrics"]] == ["2", "1"]
    const = client.post("/api/trace", json={"expression": "2*3"}).json()
    assert const["inputs"] == [] and const["metrics"][0]["text"] == "6"
    assert client.post("/api/gradcheck", json={"expression": "2*3"}).json()["rows"] == []


@pytest.mark.parametrize("name", [n for n in examples.names() if n != "course-mlp"])
def test_trace_every_example(client, name):
    body = client.post("/api/trace", json={"example": name}).json()
    assert len(body["steps"]) == body["last_step"] + 1 == len(examples.trace(name).steps)


def test_an_example_past_the_labs_node_limit_is_refused_with_the_command_to_draw_it(client):
    body = error_of(client.post("/api/trace", json={"example": "course-mlp"}), 422,
                    "graph_too_large")  # 398 values; the lab draws at most 300
    assert "398 nodes" in body["detail"] and "vizgrad render course-mlp" in body["detail"]


def test_trace_is_deterministic(make_client):
    a = make_client().post("/api/trace", json=FORK).content
    b = make_client().post("/api/trace", json=FORK).content
    assert a == b


def test_an_overflowing_value_is_refused_and_an_overflowing_grad_is_still_json(client):
    product = "*".join(["exp(a)"] * 36)  # e^720: past a float, refused as exp(1000) is
    body = error_of(client.post("/api/trace", json={"expression": product, "values": {"a": 20}}),
                    422, "expression_error")
    assert "overflows a float" in body["detail"]
    grad = {"expression": "a*1e300*1e300", "values": {"a": 1e-300}}  # f = 1e300, ∂f/∂a = 1e600
    r = client.post("/api/trace", json=grad)
    assert r.status_code == 200
    assert [m["text"] for m in r.json()["metrics"]] == ["1e+300", "inf"]


def test_gradcheck_of_an_overflowing_grad_says_what_the_command_line_says(client):
    from click.testing import CliRunner

    from vizgrad.cli.commands import main

    body = error_of(client.post("/api/gradcheck", json={"expression": "a*1e300*1e300",
                                                        "values": {"a": 1e-300}}), 422, "overflow")
    cli = CliRunner().invoke(main, ["check", "--expr", "a*1e300*1e300", "--set", "a=1e-300"])
    assert cli.exit_code == 1 and "the graph overflowed: the grad of a is inf" in body["detail"]
    assert body["detail"] in cli.output.replace("\n", " ").replace("  ", " ")


# -- POST /api/render --------------------------------------------------------------------


def test_render_svg_is_cached_by_graph_step_and_theme(client):
    first = client.post("/api/render", json={**FORK, "step": 3})
    assert first.status_code == 200 and first.headers["content-type"].startswith("image/svg+xml")
    root = ET.fromstring(first.content)
    assert root.tag == f"{SVG_NS}svg"
    assert {e.get("id") for e in root.iter(f"{SVG_NS}rect")} >= {f"n-v{i}" for i in range(5)}
    assert first.headers["x-vizgrad-cache"] == "miss" and first.headers["x-vizgrad-step"] == "3"
    again = client.post("/api/render", json={"example": "fork", "step": 3})  # same graph
    assert again.headers["x-vizgrad-cache"] == "hit" and again.content == first.content
    assert again.headers["etag"] == first.headers["etag"]
    dark = client.post("/api/render", json={**FORK, "step": 3, "theme": "dark"})
    assert dark.headers["x-vizgrad-cache"] == "miss" and dark.content != first.content
    other = client.post("/api/render", json={"example": "fork", "values": {"a": 1}, "step": 3})
    assert other.headers["x-vizgrad-cache"] == "miss"


def test_render_defaults_to_the_last_step_and_can_write_dot(client):
    r = client.post("/api/render", json=FORK)
    assert r.headers["x-vizgrad-step"] == "7"
    dot = client.post("/api/render", json={**FORK, "format": "dot", "rankdir": "TB"})
    assert dot.headers["content-type"].startswith("text/vnd.graphviz")
    assert dot.text.startswith("digraph") and 'rankdir="TB"' in dot.text


def test_render_caption_can_be_left_out(client):
    def texts(body: dict) -> str:
        svg = ET.fromstring(client.post("/api/render", json=body).content)
        return " ".join(t.text or "" for t in svg.iter(f"{SVG_NS}text"))

    assert "step 2 / 7" in texts({**FORK, "step": 2})
    assert "step 2 / 7" not in texts({**FORK, "step": 2, "caption": False})


def test_render_cache_is_bounded(make_client):
    client = make_client(cache_size=1)
    hits = [client.post("/api/render", json={**FORK, "step": s, "format": "dot"})
            .headers["x-vizgrad-cache"] for s in (1, 2, 1, 1)]
    assert hits == ["miss", "miss", "miss", "hit"]
    assert client.get("/api/health").json()["cache"]["size"] == 1


def test_render_reports_layout_timeout_and_missing_backend(client, monkeypatch):
    import vizgrad.scene.make as scene

    def slow(*args, **kwargs):
        raise LayoutTimeoutError("the Graphviz layout ran longer than 10 s and was stopped")

    monkeypatch.setattr(scene, "run_layout", slow)  # not Scene: an import would keep a stub
    error_of(client.post("/api/render", json=FORK), 422, "layout_timeout")
    error_of(client.post("/api/scene", json=FORK), 422, "layout_timeout")

    def missing(*args, **kwargs):
        raise BackendError("no layout backend")

    monkeypatch.setattr(scene, "run_layout", missing)
    error_of(client.post("/api/render", json={**FORK, "step": 1}), 503, "layout_unavailable")


def test_render_passes_the_layout_time_limit(make_client, monkeypatch):
    import vizgrad.scene.prepare as prepare
    import vizgrad.scene.make as scene

    seen = {}
    real, real_check = scene.run_layout, prepare.refuse_large

    def spy(dot, fmt, backend, timeout):
        seen["timeout"] = timeout
        return real(dot, fmt, backend, timeout)

    def check(G, max_nodes):
        seen["max_nodes"] = max_nodes
        return real_check(G, max_nodes)

    monkeypatch.setattr(scene, "run_layout", spy)
    monkeypatch.setattr(prepare, "refuse_large", check)
    make_client(layout_timeout=2.5, max_nodes=50).post(
        "/api/render", json={**FORK, "format": "dot"})
    # the limit counts from the request's arrival: what is left of it goes to the layout
    assert 0 < seen["timeout"] <= 2.5 and seen["max_nodes"] == 50


# -- POST /api/gradcheck -----------------------------------------------------------------


def test_gradcheck_matches_the_chapter(client):
    body = client.post("/api/gradcheck", json={**FORK, "h": 1e-6}).json()
    rows = {r["input"]: r for r in body["rows"]}
    assert rows["a"]["error_text"] == "4.1933e-10" and rows["a"]["backprop_text"] == "−3"
    assert rows["b"]["backprop_text"] == "−8"
    other = client.post("/api/gradcheck", json={**FORK, "h": 1e-4}).json()
    assert other["rows"][0]["error_text"] != "4.1933e-10"
    assert other["rows"][0]["backprop"] == -3.0  # h never changes backprop


def test_gradcheck_default_h_and_the_overwrite_bug(client):
    assert client.post("/api/gradcheck", json=FORK).json()["h"] == 1e-6
    bug = client.post("/api/gradcheck", json={"example": "overwrite-bug"}).json()
    assert bug["rows"][0]["backprop"] == 1.0 and bug["rows"][0]["error_text"] == "1.0000e+00"


# -- errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/trace", "/api/render", "/api/gradcheck"])
@pytest.mark.parametrize("body, code", [
    (b"{not json", "malformed_json"),
    (b"", "malformed_json"),
    (b'{"example": "fork", "values": {"a": NaN}}', "malformed_json"),
    (b'{"example": "fork", "values": {"a": Infinity}}', "malformed_json"),
    (b"\xff\xfe", "malformed_json"),
    (b'{"example": "fork", "values": {"a": ' + b"7" * 5000 + b"}}", "malformed_json"),
    (b'{"example": "fork", "step": ' + b"1" * 4301 + b"}", "malformed_json"),
    (b'{"example": "fork", "h": -' + b"9" * 9000 + b"}", "malformed_json"),
    ('{"example": "fork"}'.encode("utf-16"), "malformed_json"),
    ('{"example": "fork"}'.encode("utf-16-le"), "malformed_json"),
    ('{"example": "fork"}'.encode("utf-8-sig"), "malformed_json"),
], ids=["syntax", "empty", "nan", "infinity", "not-utf8", "huge-int-values", "huge-int-step",
        "huge-int-h", "utf16-bom", "utf16-no-bom", "utf8-bom"])
def test_malformed_json_is_400(client, path, body, code):
    r = client.post(path, content=body, headers={"content-type": "application/json"})
    error_of(r, 400, code)


def test_body_size_is_limited(client):
    big = json.dumps({**FORK, "expression": None, "pad": "x" * 20_000}).encode()
    error_of(client.post("/api/trace", content=big, headers={"content-type": "application/json"}),
             413, "body_too_large")

    def chunks():
        for _ in range(40):
            yield b" " * 1000

    error_of(client.post("/api/trace", content=chunks(),
                         headers={"content-type": "application/json"}),
             413, "body_too_large")


@pytest.mark.parametrize("ctype", ["application/x-www-form-urlencoded", "text/plain",
                                   "multipart/form-data; boundary=x", None])
def test_only_json_is_accepted(client, ctype):
    headers = {"content-type": ctype} if ctype else {}
    r = client.post("/api/trace", content=json.dumps(FORK).encode(), headers=headers)
    assert "Content-Type: application/json" in error_of(r, 415, "unsupported_media_type")["detail"]
    ok = client.post("/api/trace", content=json.dumps(FORK).encode(),
                     headers={"content-type": "application/json; charset=utf-8"})
    assert ok.status_code == 200


@pytest.mark.parametrize("body, code, field", [
    ([1, 2], "invalid_type", "the request body"),
    ({"example": "fork", "vaules": {}}, "unknown_field", "vaules"),
    ({}, "missing_source", "expression"),
    ({"example": "fork", "expression": "a"}, "ambiguous_source", "expression"),
    ({"expression": 3}, "invalid_type", "expression"),
    ({"expression": "a" * 501, "values": {"a": 1}}, "expression_too_long", "expression"),
    ({"example": ["fork"]}, "invalid_type", "example"),
    ({"example": "forks"}, "unknown_example", "example"),
    ({"example": "fork", "values": [1, 2]}, "invalid_type", "values"),
    ({"example": "fork", "values": {"a b": 1}}, "invalid_name", "values.a b"),
    ({"example": "fork", "values": {"a": "3"}}, "invalid_type", "values.a"),
    ({"example": "fork", "values": {"a": True}}, "invalid_type", "values.a"),
    ({"example": "fork", "values": {"a": None}}, "invalid_type", "values.a"),
    ({"example": "fork", "values": {"a": 25}}, "out_of_range", "values.a"),
    ({"example": "fork", "values": {"b": -20.5}}, "out_of_range", "values.b"),
    ({"example": "fork", "values": {"a": 10 ** 400}}, "out_of_range", "values.a"),
    ({"example": "fork", "values": {"c": 1}}, "unknown_variable", "values.c"),
    ({"expression": "a*b+c", "values": {"a": 1}}, "missing_values", "values.b"),
    ({"expression": "a*b", "values": {"a": 1, "b": 2, "z": 3}}, "unknown_variable", "values.z"),
    ({"expression": "a*(b+", "values": {"a": 1, "b": 2}}, "expression_error", "expression"),
], ids=lambda x: x if isinstance(x, str) else None)
def test_bad_requests_are_422_with_a_field(client, body, code, field):
    for path in ("/api/trace", "/api/render", "/api/gradcheck"):
        got = error_of(client.post(path, json=body), 400 if code == "malformed_json" else 422, code)
        assert got["field"] == field


def test_huge_json_numbers_are_out_of_range(client):
    r = client.post("/api/trace", content=b'{"example": "fork", "values": {"a": 1e400}}',
                    headers={"content-type": "application/json"})
    assert "inf is outside" in error_of(r, 422, "out_of_range")["detail"]


def test_out_of_range_message_says_what_to_do(client):
    body = error_of(client.post("/api/trace", json={"example": "fork", "values": {"a": 25}}),
                    422, "out_of_range")
    assert body["detail"].startswith("values.a = 25 is outside [-20, 20]")
    assert "never clamped" in body["detail"]
    assert (body["minimum"], body["maximum"]) == (-20, 20)


def test_missing_values_lists_the_variables(client):
    body = error_of(client.post("/api/trace", json={"expression": "y*x + exp(x)"}), 422,
                    "missing_values")
    assert body["variables"] == ["y", "x"] and body["missing"] == ["y", "x"]


@pytest.mark.parametrize("expression, column", [
    ("a + (b", 5),
    ("a.real + b", 1),
    ("a + __import__('os')", 5),
    ("a ** b", 6),
    ("a + foo(b)", 5),
], ids=["unclosed", "attribute", "import", "variable-exponent", "unknown-function"])
def test_expression_errors_carry_the_column(client, expression, column):
    names = [n for n in ("a", "b") if n in expression]
    body = error_of(client.post("/api/trace", json={"expression": expression,
                                                    "values": {n: 1 for n in names}}),
                    422, "expression_error")
    assert body["column"] == column and body["reason"]


def test_domain_and_overflow_errors(client):
    body = error_of(client.post("/api/trace", json={"expression": "log(a)", "values": {"a": -1}}),
                    422, "expression_error")
    assert "log" in body["detail"] and body["column"] == 1
    body = error_of(client.post("/api/trace", json={"expression": "exp(exp(exp(a)))",
                                                    "values": {"a": 3}}), 422, "expression_error")
    assert "overflows" in body["detail"]
    body = error_of(client.post("/api/gradcheck", json={"expression": "log(a)",
                                                        "values": {"a": 0.001}, "h": 0.01}),
                    422, "domain_error")
    assert "smaller h" in body["detail"]


@pytest.mark.parametrize("extra, code, field", [
    ({"step": 8}, "out_of_range", "step"),
    ({"step": -1}, "out_of_range", "step"),
    ({"step": 1.5}, "invalid_type", "step"),
    ({"step": "3"}, "invalid_type", "step"),
    ({"step": True}, "invalid_type", "step"),
    ({"theme": "neon"}, "invalid_choice", "theme"),
    ({"theme": 1}, "invalid_type", "theme"),
    ({"format": "png"}, "invalid_choice", "format"),
    ({"rankdir": "XY"}, "invalid_choice", "rankdir"),
    ({"caption": "no"}, "invalid_type", "caption"),
    ({"h": 1e-6}, "unknown_field", "h"),
], ids=lambda x: x if isinstance(x, str) else None)
def test_bad_render_options(client, extra, code, field):
    body = error_of(client.post("/api/render", json={**FORK, **extra}), 422, code)
    assert body["field"] == field
    if extra == {"step": 8}:
        assert "0..7" in body["detail"]


@pytest.mark.parametrize("h, code", [
    (0, "out_of_range"), (-1e-6, "out_of_range"), (2, "out_of_range"), (1e-13, "out_of_range"),
    ("1e-6", "invalid_type"), (False, "invalid_type"),
])
def test_bad_h(client, h, code):
    error_of(client.post("/api/gradcheck", json={**FORK, "h": h}), 422, code)


def test_trace_rejects_render_options(client):
    error_of(client.post("/api/trace", json={**FORK, "step": 1}), 422, "unknown_field")


def test_node_limit(make_client):
    small = make_client(max_nodes=4)
    body = error_of(small.post("/api/trace", json=FORK), 422, "graph_too_large")
    assert "5 nodes" in body["detail"] and "at most 4" in body["detail"]


def test_expression_length_limit(make_client):
    small = make_client(max_expression_length=10)
    body = error_of(small.post("/api/trace",
                               json={"expression": "a+a+a+a+a+a", "values": {"a": 1}}),
                    422, "expression_too_long")
    assert body["limit"] == 10


def test_value_limit_is_configurable(make_client):
    wide = make_client(value_limit=100)
    assert wide.post("/api/trace", json={"example": "fork", "values": {"a": 25}}).status_code == 200


def test_unknown_route_and_method(client):
    error_of(client.get("/api/nothing"), 404, "not_found")
    error_of(client.get("/api/trace"), 405, "method_not_allowed")
    error_of(client.post("/api/examples"), 405, "method_not_allowed")


@pytest.mark.parametrize("kwargs", [{"max_nodes": 0}, {"layout_timeout": -1}, {"cache_size": -1}])
def test_create_app_rejects_bad_limits(kwargs):
    with pytest.raises(DomainError):
        create_app(**kwargs)


def test_random_bodies_never_cause_a_server_error(client):
    rng = random.Random(7)
    atoms = [None, True, 0, -25, 3.5, 1e308, "", "a", "fork", "a*b", [], {}, {"a": 1}, "x" * 600]
    keys = ["expression", "example", "values", "step", "theme", "format", "h", "rankdir", "caption"]
    for _ in range(150):
        body = {rng.choice(keys): rng.choice(atoms) for _ in range(rng.randint(0, 4))}
        for path in ("/api/trace", "/api/gradcheck", "/api/render"):
            r = client.post(path, json=body)
            assert r.status_code < 500, (path, body, r.text)
            if r.status_code >= 400:
                assert set(r.json()) >= {"error", "detail"}
        # the same body as raw bytes, with a number too long for Python's int conversion
        raw = json.dumps(body).encode()[:-1] + (b", " if body else b"")
        raw += b'"' + rng.choice(keys).encode() + b'": ' + b"1" * rng.randint(4301, 6000) + b"}"
        r = client.post("/api/trace", content=raw, headers={"content-type": "application/json"})
        assert r.status_code == 400 and r.json()["error"] == "malformed_json", (raw[:80], r.text)


def test_limits_from_the_environment(monkeypatch):
    monkeypatch.setenv("VIZGRAD_LAB_MAX_NODES", "12")
    monkeypatch.setenv("VIZGRAD_LAB_VALUE_LIMIT", "50.5")
    limits = create_app().state.limits
    assert limits.max_nodes == 12 and limits.value_limit == 50.5
    assert create_app(max_nodes=7).state.limits.max_nodes == 7  # an argument wins


@pytest.mark.parametrize("name, raw", [("MAX_NODES", "many"), ("MAX_NODES", "2.5"),
                                       ("LAYOUT_TIMEOUT", "0"), ("CACHE_SIZE", "-1"),
                                       ("VALUE_LIMIT", "inf")])
def test_bad_limits_in_the_environment(monkeypatch, name, raw):
    monkeypatch.setenv(f"VIZGRAD_LAB_{name}", raw)
    with pytest.raises(DomainError, match=f"VIZGRAD_LAB_{name}"):
        create_app()


def test_the_lab_draws_what_draw_draws_with_the_labs_declared_defaults(client):
    from vizgrad import draw, examples
    from vizgrad.lab._requests import Query
    from vizgrad.options import options_for

    lab = options_for("lab", None, {})
    assert Query().options == lab
    answer = client.post("/api/render", json={"example": "fork"})
    assert answer.status_code == 200 and answer.headers["X-Vizgrad-Step"] == "7"  # the last step
    assert answer.text == draw(examples.graph("fork"), "last", options=lab).svg()

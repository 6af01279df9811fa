"""Every error answer encodes: text a request sent comes back escaped, never as a 500.

A lone UTF-16 surrogate (``"\\ud800"``) is valid in JSON but cannot be written as
UTF-8; echoed into ``field`` or ``detail`` it used to make the answer itself fail.
"""

from __future__ import annotations

import json
from urllib.parse import quote

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vizgrad.lab._limits import MAX_HEADER_BYTES

POSTS = ("/api/trace", "/api/gradcheck", "/api/render", "/api/scene")
FIELDS = ("expression", "example", "values", "step", "theme", "format", "rankdir", "caption",
          "h", "lang", "collapse", "focus", "radius", "group_steps", "expand")
SURROGATES = ("\ud800", "\udfff", "\udc00a", "a\ud83d")


def _is_error_json(r) -> dict:
    """The answer is UTF-8 JSON with an error code and a sentence."""
    body = json.loads(r.content.decode("utf-8"))
    assert {"error", "detail"} <= set(body), body
    return body


def _post(client, path: str, body):
    """POST ``body`` as JSON with ASCII escapes (a lone surrogate as ``\\ud800``)."""
    return client.post(path, content=json.dumps(body).encode("ascii"),
                       headers={"content-type": "application/json"})


def test_a_surrogate_name_is_escaped_not_a_500(client):
    r = _post(client, "/api/trace", {"expression": "a", "values": {"\ud800": 1}})
    assert r.status_code == 422, r.text
    body = _is_error_json(r)
    assert body["error"] == "invalid_name" and body["field"] == "values.\\ud800"


def test_surrogates_in_every_text_field_are_answered(client):
    for path in POSTS:
        for bad in SURROGATES:
            for body in ({"expression": bad}, {"example": bad}, {"example": "fork", "focus": bad},
                         {"example": "mlp", "collapse": "neuron", "expand": [bad]},
                         {"example": "fork", "theme": bad}, {bad: 1}):
                r = _post(client, path, body)
                assert 400 <= r.status_code < 500, (path, body, r.text[:200])
                _is_error_json(r)


#: text in which about one character in three is a lone surrogate
_text = st.lists(st.one_of(st.characters(), st.characters(),
                           st.sampled_from(["\ud800", "\udfff"])), max_size=8).map("".join)
_json = st.recursive(
    st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.floats(allow_nan=False)
    | _text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_text, inner, max_size=4),
    max_leaves=10)
_extras = st.dictionaries(st.one_of(st.sampled_from(FIELDS), _text), _json, max_size=4)
#: a source that parses, so that the checks of the other fields are reached
_sources = st.sampled_from([{}, {"expression": "a*b"}, {"example": "fork"}, {"example": "mlp"}])
_names = st.one_of(st.just({}), st.builds(lambda v: {"values": v},
                                          st.dictionaries(_text, st.integers(-30, 30),
                                                          max_size=3)))
_bodies = st.builds(lambda extra, source, names: {**extra, **source, **names},
                    _extras, _sources, _names)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(body=_bodies, path=st.sampled_from(POSTS))
def test_every_error_answer_encodes(client, body, path):
    r = _post(client, path, body)
    assert r.status_code < 500, (path, body, r.text[:200])
    if r.status_code >= 400:
        _is_error_json(r)


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=_text)
def test_query_strings_and_paths_with_any_text_are_answered(client, text):
    raw = quote(text.encode("utf-8", "surrogatepass"), safe="")
    for url in (f"/api/words?lang={raw}", f"/api/{raw}", f"/static/{raw}"):
        r = client.get(url)
        assert r.status_code < 500, (url, r.text[:200])
        if r.status_code >= 400 and r.headers["content-type"].startswith("application/json"):
            _is_error_json(r)


def test_a_head_over_the_limit_is_431(client):
    filler = "x" * (MAX_HEADER_BYTES + 1)
    r = client.get("/api/health", headers={"x-filler": filler})
    assert r.status_code == 431 and _is_error_json(r)["limit"] == MAX_HEADER_BYTES
    assert client.get("/api/health", headers={"x-filler": "x" * (MAX_HEADER_BYTES // 2)}
                      ).status_code == 200


def test_a_json_suffix_type_is_not_json(client):
    for ctype in ("application/evil+json", "application/problem+json", "text/json"):
        r = client.post("/api/trace", content=b'{"example": "fork"}',
                        headers={"content-type": ctype})
        assert r.status_code == 415, (ctype, r.text)
        assert _is_error_json(r)["error"] == "unsupported_media_type"


def test_a_scene_refuses_the_options_it_would_ignore(client):
    for extra in ({"step": 10**30}, {"format": "dot"}):
        r = client.post("/api/scene", json={"example": "fork", **extra})
        assert r.status_code == 422 and r.json()["error"] == "unknown_field", r.text[:200]

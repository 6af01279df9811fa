"""The lab's scene endpoint (one SVG and the changed shapes of each step) and its words."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from vizgrad import examples
from vizgrad.write.playback import look_at
from vizgrad.scene import scene_of

FORK = {"example": "fork", "values": {"a": -2, "b": 3}}
SVG_NS = "{http://www.w3.org/2000/svg}"


def replay(body: dict, k: int) -> dict:
    return look_at(body["playback"], k)


def test_scene_gives_one_svg_and_the_changes_of_every_step(client):
    r = client.post("/api/scene", json=FORK)
    assert r.status_code == 200 and r.headers["x-vizgrad-cache"] == "miss"
    body = r.json()
    assert body["last_step"] == 7 and len(body["playback"]["changes"]) == 9
    root = ET.fromstring(body["svg"])
    ids = {e.get("id") for e in root.iter() if e.get("id")}
    assert {"vg-n-v0", "vg-t-v0-grad", "vg-cap-0"} <= ids and body["prefix"] == "vg-"
    scene = scene_of(examples.graph("fork"))
    for k in range(8):
        assert replay(body, k) == scene.look(k), k
    assert replay(body, 8) == scene.look(None)
    assert replay(body, 7)["t-v0-grad"]["text"] == "−3"
    assert [r["id"] for r in body["rows"]] == ["v0", "v1", "v2", "v3", "v4"]
    again = client.post("/api/scene", json={"example": "fork"})
    assert again.headers["x-vizgrad-cache"] == "hit" and again.content == r.content


def test_scene_and_render_in_chinese(client):
    body = client.post("/api/scene", json={**FORK, "lang": "zh"}).json()
    assert body["lang"] == "zh" and body["words"]["step"] == "步骤 {k} / {n}"
    assert replay(body, 7)["cap-0"]["text"].startswith("步骤 7 / 7")
    assert "前向值" in body["svg"] and body["rows"][0]["how"] == "输入节点"
    svg = client.post("/api/render", json={**FORK, "lang": "zh", "step": 0}).text
    assert "待计算" in svg and "pending" not in svg
    trace = client.post("/api/trace", json={**FORK, "lang": "zh"}).json()
    assert trace["steps"][7]["caption"] == "步骤 7 / 7 · 反向经过 u = a × b"


def test_an_unknown_language_is_refused(client):
    r = client.post("/api/scene", json={**FORK, "lang": "fr"})
    assert r.status_code == 422 and r.json()["error"] == "invalid_choice"
    assert r.json()["choices"] == ["en", "zh"]
    w = client.get("/api/words?lang=fr")
    assert w.status_code == 422 and "fr" in w.json()["detail"]


@pytest.mark.parametrize("header, lang", [
    ("zh-CN,zh;q=0.9,en;q=0.8", "zh"),
    ("en-GB,en;q=0.9,zh;q=0.8", "en"),
    ("fr-FR, zh;q=0.5, en;q=0.3", "zh"),
    ("de", "en"),
    ("", "en"),
    ("zh;q=bad, en", "en"),
])
def test_words_follow_the_browsers_languages(client, header, lang):
    body = client.get("/api/words", headers={"Accept-Language": header}).json()
    assert body["lang"] == lang and body["languages"] == ["en", "zh"]
    assert body["words"]["pending"] == {"en": "pending", "zh": "待计算"}[lang]


def test_words_can_be_asked_by_name(client):
    body = client.get("/api/words?lang=zh", headers={"Accept-Language": "en"}).json()
    assert body["lang"] == "zh" and body["words"]["lab.h"] == "中心差分步长 h"


@pytest.mark.parametrize("name", ["playback.js", "table.js", "zoom.js", "ids.js", "words.js"])
def test_the_shared_scripts_are_served_as_modules(client, name):
    r = client.get(f"/static/vg/{name}")
    assert r.status_code == 200 and "javascript" in r.headers["content-type"]
    assert "\nexport function " in r.text  # an ES module, the same file the player bundles
    assert r.headers["content-security-policy"].startswith("default-src 'self'")


def test_the_scene_answer_carries_the_id_scheme(client):
    from vizgrad.scene import ids

    body = client.post("/api/scene", json={"example": "fork"}).json()
    assert body["ids"] == ids.scheme() and body["ids"]["box"] == "n-{node}"
    assert {r["id"] for r in body["rows"]} == {"v0", "v1", "v2", "v3", "v4"}

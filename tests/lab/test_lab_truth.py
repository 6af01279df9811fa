"""The lab shows the overwrite bug's wrong gradient as the pictures do (issue 32)."""

from __future__ import annotations

import json

import pytest

from vizgrad.style.theme import THEMES


@pytest.mark.parametrize("lang, why", [("en", "a contribution was overwritten (=) instead of "
                                                "added (+=)"),
                                       ("zh", "有一项贡献被覆盖（=）而不是累加（+=）")])
def test_the_overwrite_bugs_final_view_in_the_lab(client, lang, why):
    body = client.post("/api/scene", json={"example": "overwrite-bug", "lang": lang}).json()
    final = body["captions"][-1]
    assert any(why in line and "⚠" in line for line in final), final
    assert THEMES["light"].warning in json.dumps(body)


def test_forks_final_view_in_the_lab_reports_agreement(client):
    body = client.post("/api/scene", json={"example": "fork"}).json()
    assert any("agrees with its central difference" in line for line in body["captions"][-1])

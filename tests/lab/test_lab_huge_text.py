"""The lab refuses a name longer than a label may be drawn (issue 31, item 1)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("route", ["/api/render", "/api/scene", "/api/trace"])
def test_a_name_longer_than_200_characters_is_refused(client, route):
    long = "v" * 201
    answer = client.post(route, json={"expression": f"{long} * 2", "values": {long: 1}})
    assert answer.status_code == 422
    assert "has 201 characters; a name has at most 200" in answer.json()["detail"]
    fits = "w" * 200
    assert client.post(route, json={"expression": f"{fits} * 2",
                                    "values": {fits: 1}}).status_code == 200

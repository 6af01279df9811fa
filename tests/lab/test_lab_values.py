"""The lab reads the names of its JSON ``values`` by the rule the CLI and the embeds use
(:mod:`vizgrad.core.inputs`); its value bound is its own, on top."""

from __future__ import annotations

import pytest

from vizgrad.core.inputs import parse_values
from vizgrad.exceptions import OptionError


@pytest.mark.parametrize("name", ["2a", "a b", "\uff41", "if-x"])
def test_the_lab_refuses_the_names_the_others_refuse(client, name):
    r = client.post("/api/trace", json={"expression": "a*2", "values": {name: 1}})
    assert r.status_code == 422 and r.json()["error"] == "invalid_name", r.text
    assert r.json()["field"] == f"values.{name}"
    with pytest.raises(OptionError):
        parse_values(f"{name}=1")


def test_the_lab_bound_is_on_top_of_the_shared_rule(client):
    assert parse_values("a=21") == {"a": 21.0}  # the rule itself has no bound
    r = client.post("/api/trace", json={"expression": "a*2", "values": {"a": 21}})
    assert r.status_code == 422 and r.json()["error"] == "out_of_range"
    assert "[-20, 20]" in r.json()["detail"]

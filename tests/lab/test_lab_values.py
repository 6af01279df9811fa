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


MLP = {"example": "mlp"}


def test_collapse_reads_the_options_model_with_the_old_alias_and_the_lab_depth_bound(client):
    def collapsed(level):
        r = client.post("/api/trace", json={**MLP, "collapse": level})
        return r.status_code, (r.json().get("collapsed") or {}).get("level") if r.is_success \
            else r.json()["error"]

    assert collapsed(True) == collapsed("auto")  # the lab's older form, kept as an alias
    assert collapsed("none") == collapsed(False) == (200, None)  # as on the command line
    assert collapsed(9)[0] == 200
    assert collapsed(10) == (422, "invalid_choice")  # the lab's bound: depth 9 at most
    assert collapsed(0) == (422, "invalid_choice")  # the options model's: depth 1 or more


def test_no_step_given_the_lab_renders_the_last_step(client):
    """The lab's row of the "no step given" table (docs/drawing.md): fork's steps are 0..7."""
    r = client.post("/api/render", json={"example": "fork"})
    assert r.status_code == 200 and r.headers["x-vizgrad-step"] == "7"

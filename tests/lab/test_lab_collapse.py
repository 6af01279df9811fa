"""The lab's API with collapse, focus, radius and group_steps: collapsed graphs and scenes."""

from __future__ import annotations

import pytest

from vizgrad import examples
from vizgrad.graph.collapse import collapse

from .test_lab_api import FORK, error_of

MLP = {"example": "mlp", "values": {"x0": 2.0, "x1": 3.0}}


def test_trace_of_the_collapsed_mlp_steps_through_its_boxes(client):
    H = collapse(examples.graph("mlp"), "neuron")
    body = client.post("/api/trace", json={**MLP, "collapse": "neuron"}).json()
    assert body["last_step"] == len(H.graph["steps"]) - 1 == 13
    assert body["groups"] == 2 and body["collapsed"]["level"] == "neuron"
    assert [s["from"] for s in body["steps"]] == [s["from"] for s in H.graph["steps"]]
    kinds = {n["name"]: n["kind"] for n in body["nodes"]}
    assert kinds["L0/N1"] == "group" and "L0.N1.w0" not in kinds
    full = client.post("/api/trace", json=MLP).json()
    assert full["groups"] == 2 and full["collapsed"] is None and full["last_step"] > 13
    assert full["steps"][5]["from"] == 5  # a graph's own steps stand for themselves


def test_scene_of_the_collapsed_mlp_lists_the_parameters_with_their_grads(client):
    body = client.post("/api/scene", json={**MLP, "collapse": "neuron", "lang": "zh"}).json()
    assert body["boxes"] == {"L0/N0": "g1", "L0/N1": "g2", "L0/N2": "g3", "L1/N0": "g0"}
    (row,) = [r for r in body["rows"] if r["name"] == "L1/N0"]
    assert [p["name"] for p in row["params"]] == ["L1.N0.w0", "L1.N0.w1", "L1.N0.w2", "L1.N0.b"]
    # the example's weight (0.5844) and its grad, x × upstream = −0.9595 × 0.0144 (step 37 of
    # the graph given, the box's step 10)
    assert row["params"][1] == {"name": "L1.N0.w1", "data": "0.5844", "grad": "−0.0138",
                                "done": 10}
    assert row["how"] == "11 个值的分组，输入：L0/N0、L0/N1、L0/N2".replace("、", ", ")
    layer = client.post("/api/scene", json={**MLP, "collapse": "layer"}).json()
    assert sorted(layer["boxes"]) == ["L0", "L1"]


def test_focus_and_inside_steps(client):
    body = client.post("/api/trace", json={**MLP, "focus": "v39", "radius": 1}).json()
    assert body["focus"]["node"] == "v39"
    # inputs, the forward steps of the loss and its operand, the seed, their two backward
    # steps and the stub's: 7 steps, the last numbered 6
    assert body["last_step"] == 6
    merged = client.post("/api/trace", json={**MLP, "collapse": "neuron"}).json()["last_step"]
    inside = client.post("/api/trace", json={**MLP, "collapse": "neuron",
                                             "group_steps": "inside"}).json()["last_step"]
    assert inside > merged
    svg = client.post("/api/render", json={**MLP, "collapse": "layer", "step": 2})
    assert svg.status_code == 200 and 'id="n-g0"' in svg.text
    assert client.post("/api/trace", json={**MLP, "collapse": False}).json()["collapsed"] is None


@pytest.mark.parametrize("extra, code, field", [
    ({"collapse": "neurons"}, "invalid_choice", "collapse"),
    ({"collapse": 0}, "invalid_choice", "collapse"),
    ({"collapse": [1]}, "invalid_choice", "collapse"),
    ({"focus": 3}, "invalid_type", "focus"),
    ({"focus": "v99"}, "unknown_node", "focus"),
    ({"radius": -1}, "out_of_range", "radius"),
    ({"radius": 21}, "out_of_range", "radius"),
    ({"radius": "2"}, "invalid_type", "radius"),
    ({"group_steps": "all"}, "invalid_choice", "group_steps"),
    ({"collapse": "neuron", "sample": 1}, "out_of_range", "sample"),  # one forward pass
    ({"sample": 2}, "out_of_range", "sample"),  # even when nothing is collapsed
    ({"collapse": "neuron", "sample": -1}, "out_of_range", "sample"),
    ({"collapse": "neuron", "sample": "first"}, "invalid_type", "sample"),
    ({"collapse": "neuron", "sample": True}, "invalid_type", "sample"),
], ids=lambda x: x if isinstance(x, str) else None)
@pytest.mark.parametrize("path", ["/api/trace", "/api/scene", "/api/render"])
def test_bad_graph_options_are_422_with_the_field(client, path, extra, code, field):
    body = error_of(client.post(path, json={**MLP, **extra}), 422, code)
    assert body["field"] == field
    if code == "invalid_choice" and field == "collapse":
        assert "layer, neuron" in body["detail"]


def test_sample_is_a_field_of_the_graph_options(client):
    """The mlp example is one forward pass: sample 0 and "all" draw the same boxes."""
    one = client.post("/api/trace", json={**MLP, "collapse": "neuron", "sample": 0}).json()
    every = client.post("/api/trace", json={**MLP, "collapse": "neuron", "sample": "all"}).json()
    assert one["nodes"] == every["nodes"] and one["collapsed"]["level"] == "neuron"


def test_collapse_asks_for_groups_and_the_check_keeps_every_value(client):
    body = error_of(client.post("/api/trace", json={**FORK, "collapse": "neuron"}), 422,
                    "no_groups")
    assert "mlp example" in body["detail"] and body["field"] == "collapse"
    assert client.post("/api/trace", json={**FORK, "collapse": "auto"}).status_code == 200
    error_of(client.post("/api/gradcheck", json={**MLP, "collapse": "neuron"}), 422,
             "unknown_field")


def test_expand_opens_one_group_of_the_collapsed_graph(client):
    G = examples.graph("mlp")
    E = collapse(G, "neuron", expand=["L0/N1"])
    body = client.post("/api/trace", json={**MLP, "collapse": "neuron",
                                           "expand": ["L0/N1"]}).json()
    assert body["last_step"] == len(E.graph["steps"]) - 1
    assert [s["from"] for s in body["steps"]] == [s["from"] for s in E.graph["steps"]]
    scene = client.post("/api/scene", json={**MLP, "collapse": "neuron",
                                            "expand": ["L0/N1"]}).json()
    assert "L0/N1" not in scene["boxes"] and scene["open"] == ["L0/N1"]
    assert 'data-path="L0/N1"' in scene["svg"] and 'id="vg-frame"' in scene["svg"]


def _rects(svg: str) -> dict[str, tuple[float, float, float, float]]:
    import xml.etree.ElementTree as ET

    return {r.get("id"): tuple(float(r.get(k)) for k in ("x", "y", "width", "height"))
            for r in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}rect")
            if (r.get("id") or "").startswith("vg-n-")}


def test_several_groups_open_at_once_in_place_and_a_neuron_inside_a_layer(client):
    ask = {**MLP, "collapse": "neuron", "rankdir": "LR"}
    closed = client.post("/api/scene", json=ask).json()
    both = client.post("/api/scene", json={**ask, "expand": ["L0/N0", "L1/N0"]}).json()
    assert both["open"] == ["L0/N0", "L1/N0"] and both["svg"].count('class="vg-frame"') == 2
    before, after = _rects(closed["svg"]), _rects(both["svg"])
    kept = ["vg-n-v4", "vg-n-v8", "vg-n-v38", "vg-n-v39"]  # x0, x1, the error and the loss
    rank = [sorted(kept, key=lambda i: (r[i][0], r[i][1])) for r in (before, after)]
    assert rank[0] == rank[1]  # the same order, left to right and top to bottom
    nested = client.post("/api/scene", json={**MLP, "collapse": "layer",
                                             "expand": ["L0", "L0/N1"]}).json()
    assert nested["open"] == ["L0", "L0/N1"]
    assert {"L0/N0", "L0/N2", "L1"} == set(nested["boxes"])
    alone = error_of(client.post("/api/scene", json={**MLP, "collapse": "layer",
                                                     "expand": ["L0/N1"]}), 422, "unknown_group")
    assert alone["field"] == "expand"


@pytest.mark.parametrize("extra, code", [
    ({"expand": "L0/N1", "collapse": "neuron"}, "invalid_type"),
    ({"expand": [3], "collapse": "neuron"}, "invalid_type"),
    ({"expand": ["L0/N1"] * 51, "collapse": "neuron"}, "invalid_type"),
    ({"expand": ["L0/N1"]}, "invalid_choice"),
    ({"expand": ["L9/N9"], "collapse": "neuron"}, "unknown_group"),
])
def test_bad_expand(client, extra, code):
    body = error_of(client.post("/api/trace", json={**MLP, **extra}), 422, code)
    assert body["field"] == "expand"

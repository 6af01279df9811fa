"""Each edge label can be matched to its edge: measured on the laid-out scene."""

from __future__ import annotations

import math

import pytest

import vizgrad
from vizgrad import draw, examples
from vizgrad.core.nn import MLP

from ..helpers import distance_to_line, flatten_bezier

XS = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
YS = [1.0, -1.0, -1.0, 1.0]


def misplaced(scene):
    """Every edge label whose nearest edge is not its own: (label id, own, nearest)."""
    lines = {s.id: flatten_bezier(s.geom) for s in scene.shapes
             if s.kind == "path" and s.id.startswith("e-")}
    bad = []
    labels = [s for s in scene.shapes if s.kind == "rect" and s.id.startswith("lb-")]
    for s in labels:
        x, y, w, h, _ = s.geom
        centre = (x + w / 2, y + h / 2)
        own = "e-" + s.id[3:]
        far = {e: distance_to_line(centre, line) for e, line in lines.items()}
        nearest = min(far, key=far.get)
        if far[own] > far[nearest] + 1e-6:
            bad.append((s.id, own, nearest))
    return bad, len(labels)


@pytest.mark.parametrize("preset", ["docs", "slides"])
@pytest.mark.parametrize("name", examples.names())
def test_every_label_of_every_example_is_nearest_its_own_edge(name, preset):
    bad, count = misplaced(draw(examples.graph(name), preset=preset).scene)
    # the course net is drawn one box per neuron: its contributions are written in the
    # boxes ('from L0/N1') and its inputs' grads on the inputs, no edge carries a label
    assert bad == [] and (count == 0) == (name == "course-mlp")


def test_forks_a_to_plus_label_sits_on_the_a_to_plus_edge():
    scene = draw(examples.graph("fork")).scene
    a, plus = "v0", "v3"  # a, and v = a + b
    (label,) = [s for s in scene.shapes if s.id == f"lb-{a}-{plus}-0"]
    assert scene.look(None)[f"l-{a}-{plus}-0"]["text"] == "1 × (−6) = −6"
    x, y, w, h, _ = label.geom
    own = next(s for s in scene.shapes if s.id == f"e-{a}-{plus}-0")
    times = next(s for s in scene.shapes if s.id == f"e-{a}-v2-0")  # a → ×
    centre = (x + w / 2, y + h / 2)
    mine = distance_to_line(centre, flatten_bezier(own.geom))
    assert mine < distance_to_line(centre, flatten_bezier(times.geom))
    assert mine < h / 2  # on its edge, not beside it


@pytest.mark.parametrize("collapse", ["neuron", "layer"])
def test_the_course_nets_labels_are_nearest_their_own_edges(collapse):
    net = MLP(3, [4, 4, 1], activation="relu", last="linear", seed=1337)
    loss = sum(((net(x) - y) ** 2 for x, y in zip(XS, YS)), vizgrad.Value(0.0))
    loss.backward()
    d = draw(loss, model=net, collapse=collapse)
    bad, count = misplaced(d.scene)
    assert count > 0 and bad == []
    H = d.graph  # between two boxes no label: the head box has a row for it
    between = [(u, v) for u, v in H.edges() if H.nodes[u]["kind"] == H.nodes[v]["kind"] == "group"]
    assert between
    ids = {s.id for s in d.scene.shapes}
    assert not any(i.startswith(f"lb-{u}-{v}-") for u, v in between for i in ids)


def test_arrowheads_point_back_in_a_backward_step_and_forward_in_the_final_view():
    G = examples.graph("fork")
    scene = draw(G).scene
    k = next(s["index"] for s in G.graph["steps"] if s["kind"] == "backward")
    step = G.graph["steps"][k]
    (c, *_) = step["contributions"]
    eid = f"e-{c['target']}-{c['source']}-{c['slot']}"
    now, final = scene.look(k), scene.look(None)
    assert now[eid + "-b"]["hidden"] == "" and now[eid + "-f"]["hidden"] == "1"
    assert final[eid + "-f"]["hidden"] == "" and final[eid + "-b"]["hidden"] == "1"
    assert final["l-" + eid[2:]]["hidden"] == ""  # the final view keeps the gradient label


@pytest.mark.parametrize("lang, words", [("en", "arrowheads: forward"), ("zh", "箭头")])
def test_the_legend_says_which_way_the_arrowheads_point(lang, words):
    lines = draw(examples.graph("fork"), lang=lang).scene.legend_lines()
    assert any(line.startswith(words) for line in lines)

"""Every value has a name a student understands (issue 21 item 3, issue 23 item 3): in the
trace (``name`` and ``sample``, ``vizgrad.trace/3``), the graph, the pictures and the table.

The expected names and numbers are written out by hand; the course net's numbers come
from micrograd itself, never from vizgrad."""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import vizgrad
from vizgrad import Value, examples, from_json, to_json, to_networkx, trace
from vizgrad.graph.collapse import merge_constants
from vizgrad.tracing.recorder import Trace

mg_nn = pytest.importorskip("micrograd.nn", reason="micrograd==0.1.0 is a test dependency")
mg_engine = pytest.importorskip("micrograd.engine", reason="micrograd==0.1.0 is a test dependency")

DATA = Path(__file__).parent / "data"
# the micrograd lecture's four samples
XS = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
YS = [1.0, -1.0, -1.0, 1.0]
RAW = re.compile(r"v\d+")


def lecture(inputs=None):
    """The lecture's script: MLP(3, [4, 4, 1]), four samples, loss = sum((yout - ygt)**2)."""
    random.seed(1337)
    n = mg_nn.MLP(3, [4, 4, 1])
    xs = XS if inputs is None else inputs
    ypred = [n(x) for x in xs]
    loss = sum((yout - ygt) ** 2 for ygt, yout in zip(YS, ypred))
    loss.backward()
    return loss, n


@pytest.fixture(scope="module")
def course():
    loss, net = lecture()
    return to_networkx(trace(loss, model=net)), net


def names_of(G):
    return {G.nodes[n]["name"]: n for n in G}


def svg_texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return ["".join(t.itertext()).strip() for t in root.iter("{http://www.w3.org/2000/svg}text")]


def test_the_course_net_names_its_loss_side_as_the_lecture_writes_it(course):
    G, _ = course
    by = names_of(G)
    assert G.nodes[G.graph["root"]]["name"] == "loss"
    for s, y in enumerate(YS):
        assert {f"ŷ[{s}]", f"−y[{s}]", f"ŷ[{s}] − y[{s}]", f"(ŷ[{s}] − y[{s}])²"} <= set(by)
        assert G.nodes[by[f"−y[{s}]"]]["data"] == -y  # micrograd adds the number −y
        assert G.nodes[by[f"−y[{s}]"]]["kind"] == "const"
        assert G.nodes[by[f"ŷ[{s}]"]]["sample"] == s
    assert {"Σ[0]", "Σ[0..1]", "Σ[0..2]"} <= set(by)
    assert G.nodes[by["Σ[0..1]"]]["sample"] is None  # two samples' values
    assert G.nodes[by["0"]]["kind"] == "const"  # sum()'s start


def test_the_course_nets_outputs_are_its_forward_passes_in_order(course):
    G, net = course
    by = names_of(G)
    for s, x in enumerate(XS):  # micrograd's own forward pass gives ŷ[s]
        assert G.nodes[by[f"ŷ[{s}]"]]["data"] == net(x).data


def test_the_wrapped_inputs_are_named_by_sample_and_feature(course):
    G, _ = course
    copies = {}
    for n in G:
        a = G.nodes[n]
        if a["name"].startswith("x["):
            copies.setdefault(a["name"], []).append(n)
    assert sorted(copies) == [f"x[{s}][{i}]" for s in range(4) for i in range(3)]
    for key, ns in copies.items():
        s, i = map(int, re.findall(r"\d+", key))
        assert len(ns) == 4  # one copy in each of the four neurons of layer 0
        assert all(G.nodes[n]["data"] == XS[s][i] and G.nodes[n]["sample"] == s for n in ns)
        assert all(G.nodes[n]["kind"] == "input" for n in ns)


def test_a_neurons_values_are_named_inside_it_by_sample(course):
    G, _ = course
    by = names_of(G)
    for name in ("L0.N2.w1·x1[3]", "L0.N2.Σ1[3]", "L0.N2.Σ2[3]", "L0.N2.Σ[3]",
                 "L0.N2.out[3]", "L1.N3.w0·x0[0]", "L2.N0.Σ3[1]"):
        assert name in by, name
        assert G.nodes[by[name]]["group"] == name[:5].replace(".", "/")
    assert G.nodes[by["L0.N2.out[3]"]]["op"] == "ReLU"
    assert G.nodes[by["L0.N2.out[3]"]]["sample"] == 3
    assert G.nodes[by["L0.N2.w1"]]["sample"] is None  # a parameter serves every sample


def test_no_value_of_the_course_net_is_called_by_its_id(course):
    G, _ = course
    assert not [n for n in G if RAW.fullmatch(G.nodes[n]["name"])]


@pytest.mark.parametrize("collapse", ["auto", False])
def test_the_course_picture_has_no_raw_id_and_calls_its_root_loss(collapse):
    loss, net = lecture()
    svg = vizgrad.draw(loss, model=net, collapse=collapse, max_nodes=1000).svg()
    texts = svg_texts(svg)
    assert "loss" in texts or "loss · 17 values" in texts  # drawn, or folded as one box
    assert not [t for t in texts if RAW.fullmatch(t)]
    if collapse is False:
        assert {"x[0][0]", "x[3][2]", "ŷ[2]", "(ŷ[1] − y[1])²"} <= set(texts)


def test_merged_inputs_are_x_s_i_with_the_inputs_grad():
    loss, net = lecture()
    G = merge_constants(to_networkx(trace(loss, model=net)))
    merged = {G.nodes[n]["name"]: G.nodes[n] for n in G if G.nodes[n].get("members")}
    assert sorted(merged) == [f"x[{s}][{i}]" for s in range(4) for i in range(3)]
    # the inputs as micrograd Values: micrograd's own backward gives each input's grad
    xs = [[mg_engine.Value(v) for v in row] for row in XS]
    lecture(xs)
    for s in range(4):
        for i in range(3):
            got = merged[f"x[{s}][{i}]"]
            assert got["grad"] == pytest.approx(xs[s][i].grad, rel=1e-12, abs=1e-12)
            assert got["data"] == XS[s][i] and got["sample"] == s


def test_vizgrads_own_mlp_is_named_the_same_way():
    G = examples.graph("mlp")  # MLP(2, [3, 1]) on inputs x0, x1 (labelled), target −1
    by = names_of(G)
    assert {"x0", "x1", "L0.N0.w0·x0", "L0.N0.Σ1", "L0.N0.Σ", "L0.N0.out", "L1.N0.w2·x2",
            "L1.N0.Σ2", "L1.N0.Σ", "ŷ[0]", "−y[0]", "ŷ[0] − y[0]", "loss"} <= set(by)
    assert G.nodes[by["−y[0]"]]["data"] == 1.0 and G.nodes[by["−y[0]"]]["kind"] == "const"
    assert G.nodes[by["ŷ[0]"]]["op"] == "tanh" and G.nodes[by["L0.N0.out"]]["op"] == "tanh"
    assert G.nodes[by["loss"]]["label"] == "loss"  # the user's label, kept
    assert G.nodes[by["L0.N0.Σ"]]["label"] == ""  # a name never becomes a label


def test_a_users_label_wins_over_a_role():
    random.seed(1337)
    net = mg_nn.MLP(2, [1])
    out = (net([1.0, 2.0]) - 1.0) ** 2
    t = trace(out, model=net)
    assert t.node(t.root)["name"] == "loss"
    vizgrad_out = Value(0.5, label="w") * Value(2.0, label="x")
    vizgrad_out.label = "my output"
    assert trace(vizgrad_out).node("v2")["name"] == "my output"


def test_a_name_from_op_and_operands_stays_within_twelve_characters():
    a, b = Value(2.0, label="a"), Value(-3.0, label="b")
    t = trace((a * b + a).tanh() - 1.0)
    assert [r["name"] for r in t.nodes] == ["a", "b", "a·b", "a·b + a", "tanh₁", "−1", "f"]
    assert [r["sample"] for r in t.nodes] == [None] * 7


def test_the_trace_json_has_name_beside_label():
    G = examples.graph("mlp")
    doc = json.loads(to_json(G))
    assert doc["graph"]["format"] == "vizgrad.trace/3"
    rows = {n["id"]: n for n in doc["nodes"]}
    assert rows["v36"]["name"] == "ŷ[0]" and rows["v36"]["label"] == ""
    assert rows["v4"]["name"] == "x0" and rows["v4"]["label"] == "x0"
    again = from_json(to_json(G))
    assert again.nodes["v36"]["name"] == "ŷ[0]" and again.nodes["v36"]["sample"] == 0


def test_a_trace_2_file_still_loads_and_gets_names():
    d = json.loads((DATA / "trace-v2.json").read_text(encoding="utf-8"))
    t = Trace.from_dict(d)
    assert [r["name"] for r in t.nodes] == ["a", "b", "a·b", "a·b + a", "f"]
    assert t.node("v0")["grad"] == -0.002681901366051731
    assert t.to_dict()["format"] == "vizgrad.trace/3"


def test_a_trace_1_file_still_loads_and_gets_names():
    d = json.loads((DATA / "trace-v2.json").read_text(encoding="utf-8"))
    d["format"] = "vizgrad.trace/1"
    for n in d["nodes"]:
        del n["group"]
    t = Trace.from_dict(d)
    assert [r["name"] for r in t.nodes] == ["a", "b", "a·b", "a·b + a", "f"]
    assert all(r["group"] is None for r in t.nodes)


def test_a_graph_2_file_still_loads_and_draws_with_names():
    G = from_json((DATA / "graph-v2.json").read_bytes())
    assert [G.nodes[n]["name"] for n in sorted(G)] == ["a", "b", "a·b", "a·b + a", "f"]
    texts = svg_texts(vizgrad.draw(G).svg())
    assert "a·b + a" in texts
    graph_1 = json.loads((DATA / "graph-v2.json").read_text(encoding="utf-8"))
    graph_1["graph"]["format"] = "vizgrad.trace/1"
    for n in graph_1["nodes"]:
        del n["group"]
    H = from_json(json.dumps(graph_1))
    assert [H.nodes[n]["name"] for n in sorted(H)] == ["a", "b", "a·b", "a·b + a", "f"]


def test_a_value_too_long_to_spell_out_is_named_by_its_op_never_by_its_id():
    from vizgrad.scene import scene_of

    G = to_networkx(Value(2.0, label="alpha").exp().log() * 2)  # log(exp(alpha)): 15 letters
    assert [G.nodes[n]["name"] for n in sorted(G)] == ["alpha", "exp(alpha)", "log₁", "2", "f"]
    sizes = {s.id: s.size for s in scene_of(G).shapes if s.id.endswith("-name")}
    assert sizes["t-v1-name"] == sizes["t-v2-name"] == 14  # a name, written as any other
    unlabelled = [Value(1.0), Value(2.0)]
    t = trace((unlabelled[0] * unlabelled[1]).tanh())
    assert [r["name"] for r in t.nodes] == ["x₁", "x₂", "prod₁", "f"]


def test_an_unnamed_output_is_f_unless_a_value_is_called_f():
    f = Value(2.0, label="f")
    t = trace(((f * f).exp() + f).tanh())
    assert [r["name"] for r in t.nodes] == ["f", "f·f", "e^(f·f)", "e^(f·f) + f", "out"]


def test_the_players_table_and_the_lab_use_the_names():
    from vizgrad.write.playback import node_table
    from vizgrad.scene import scene_of

    rows = {r["id"]: r for r in node_table(scene_of(examples.graph("mlp"), caption=False))}
    assert rows["v36"]["name"] == "ŷ[0]" and rows["v38"]["name"] == "ŷ[0] − y[0]"
    assert rows["v10"]["name"] == "L0.N0.Σ"


def test_the_embeds_call_an_expressions_output_f():
    from vizgrad.embed.blocks import graph, parse_options

    G = graph(parse_options({"values": "a=-2, b=3"}, "(a*b)*(a+b)"))
    assert G.nodes[G.graph["root"]]["name"] == "f" and G.nodes[G.graph["root"]]["data"] == -6.0


def test_a_penalty_on_the_weights_is_no_forward_pass():
    from vizgrad.core.nn import MLP

    net = MLP(2, [2, 1], seed=1)
    xs, ys = [[1.0, -2.0], [0.5, 3.0]], [1.0, -1.0]
    fit = sum(((net(x) - y) ** 2 for x, y in zip(xs, ys)), Value(0.0, label="zero"))
    loss = fit + sum(p * p for p in net.parameters()) * 0.01
    G = to_networkx(trace(loss))
    by = names_of(G)
    assert sorted(n for n in by if re.fullmatch(r"ŷ\[\d+\]", n)) == ["ŷ[0]", "ŷ[1]"]  # not w·w
    assert {"Σ[0]", "Σ[0..1]", "loss"} <= set(by)
    for s in range(2):
        for i in range(2):  # floats that vizgrad wrapped: inputs, with a grad cell
            copies = [n for n in G if G.nodes[n]["name"] == f"x[{s}][{i}]"]
            assert len(copies) == 2 and all(G.nodes[n]["kind"] == "input" for n in copies)
            assert all(G.nodes[n]["data"] == xs[s][i] for n in copies)


def test_a_penalty_inside_micrograds_neurons_is_no_forward_pass():
    random.seed(1337)
    net = mg_nn.MLP(3, [4, 1])
    fit = sum((yout - ygt) ** 2 for ygt, yout in zip(YS[:2], [net(x) for x in XS[:2]]))
    loss = fit + sum(p * p for p in net.parameters()) * 0.01  # model= groups p·p with p
    G = to_networkx(trace(loss, model=net))
    by = names_of(G)
    assert sorted(n for n in by if re.fullmatch(r"ŷ\[\d+\]", n)) == ["ŷ[0]", "ŷ[1]"]
    assert G.nodes[by["ŷ[1]"]]["data"] == net(XS[1]).data


def test_a_net_with_two_outputs_names_each_output_and_target():
    random.seed(3)
    net = mg_nn.MLP(2, [3, 2])
    out = net([1.0, 2.0])
    loss = (out[0] - 1.0) ** 2 + (0.5 - out[1]) ** 2  # ŷ − y, and y − ŷ
    by = names_of(to_networkx(trace(loss, model=net)))
    assert {"ŷ[0][0]", "−y[0][0]", "ŷ[0][0] − y[0][0]", "(ŷ[0][0] − y[0][0])²", "ŷ[0][1]",
            "y[0][1]", "y[0][1] − ŷ[0][1]", "(y[0][1] − ŷ[0][1])²", "loss"} <= set(by)


def test_an_opened_neuron_names_its_values_inside_its_box():
    from vizgrad.graph.collapse import collapse
    from vizgrad.player.views import unpack_view, views
    from vizgrad.scene import scene_of

    G = examples.graph("mlp")
    opened = views(scene_of(collapse(G, "neuron")), G, "neuron", "merge", {})["views"]
    view = unpack_view(next(v for v in opened if v["open"] == "L0/N1"))
    texts = svg_texts(view["svg"])
    assert {"w0·x0", "w1·x1", "Σ1", "Σ", "out", "L0.N1.w0", "L0/N0 · 8 values"} <= set(texts)
    assert "L0.N1.out" not in texts and "out" not in svg_texts(
        unpack_view(next(v for v in opened if v["open"] == "L1/N0"))["svg"])


def test_an_opened_neurons_captions_name_its_values_whole():
    """A box inside an opened frame is titled by its name there (out), but the captions,
    read outside the frame, name it whole: L0.N1.out.grad += …"""
    from vizgrad.graph.collapse import collapse
    from vizgrad.scene import scene_of
    from vizgrad.player.views import unpack_view, views

    G = examples.graph("mlp")
    opened = views(scene_of(collapse(G, "neuron")), G, "neuron", "merge", {})["views"]
    view = unpack_view(next(v for v in opened if v["open"] == "L0/N1"))
    texts = [look["text"] for look in view["playback"]["looks"] if look.get("text")]
    assert "out" in texts  # the box title
    assert any(t.startswith("L0.N1.out.grad += ∂(L1/N0)/∂L0.N1.out × ") for t in texts)
    assert not any(".grad +=" in t and ("∂out" in t or t.startswith("out.")) for t in texts)


def test_collapsing_the_course_net_draws_its_inputs_into_the_first_layer(course):
    """Issue 23: by default the copies of an input micrograd wraps in every neuron are one
    node x[s][i], and every first-layer box gets its inputs; False keeps the copies apart."""
    from vizgrad.graph.collapse import collapse

    G, net = course
    H = collapse(G, "neuron")
    # a batch's inputs are one box (issue 33): a cell per x[s][i], in order
    box = next(n for n in H if H.nodes[n]["kind"] == "inputs")
    cells = {name: data for name, data, _ in H.nodes[box]["grid"]}
    assert list(cells) == [f"x[{s}][{i}]" for s in range(4) for i in range(3)]
    for j in range(4):
        neuron = next(b for b in H if H.nodes[b].get("label") == f"L0/N{j}")
        assert [p for p, _ in H.in_edges(neuron)] == [box], j  # one edge: every input
    assert H.graph["collapsed"]["nodes"] == 394  # the values of the graph given
    # the merged input's data is the lecture's number (sample 2, feature 0 is 0.5)
    assert cells["x[2][0]"] == 0.5
    apart = collapse(G, "neuron", inputs=False)
    # the copies stay inside their neurons' boxes: no input is drawn
    assert not [n for n in apart if str(apart.nodes[n].get("name", "")).startswith("x[")]

"""Every number of the chapter's examples (issue section 6), against independent math."""

from __future__ import annotations

import math

import networkx as nx
import pytest

import vizgrad
from vizgrad import Value, VizgradError, examples
from vizgrad.exceptions import ExpressionError, UnknownExampleError
from vizgrad.tracing.recorder import Trace

NAMES = ["shared-node", "overwrite-bug", "sum-square", "fork", "tanh-native", "tanh-decomposed",
         "torch-crosscheck", "softmax-nll", "mlp", "course-mlp"]


def leaves(t: Trace) -> dict[str, dict]:
    return {n["label"]: n for n in t.nodes if not n["parents"] and n["label"]}


def labelled(t: Trace) -> dict[str, dict]:
    return {n["label"]: n for n in t.nodes if n["label"]}


def test_names_in_the_chapters_order():
    assert examples.names() == NAMES
    assert vizgrad.examples is examples


@pytest.mark.parametrize("name", NAMES)
def test_each_example_builds_traces_and_graphs(name):
    text = examples.describe(name)
    assert isinstance(text, str) and text and "\n" not in text
    root, also = examples.build(name)
    assert isinstance(root, Value) and root.grad == 1.0  # backward() ran
    assert all(isinstance(v, Value) for v in also)
    t = examples.trace(name)
    assert isinstance(t, Trace) and t.backward_ran and t.default_step == len(t.steps) - 1
    assert t.to_json() == examples.trace(name).to_json()  # fresh, identical builds
    G = examples.graph(name)
    assert isinstance(G, nx.MultiDiGraph) and G.number_of_nodes() == len(t.nodes)
    assert set(examples.defaults(name)) == {n["label"] for n in t.nodes  # not a net's weights
                                            if not n["parents"] and n["kind"] == "input"
                                            and n["group"] is None}


@pytest.mark.parametrize("name", [n for n in NAMES if n != "overwrite-bug"])
def test_each_example_agrees_with_central_differences(name):
    for row in vizgrad.gradcheck(examples.trace(name), h=1e-6):
        assert row["error"] < 1e-7 * max(1.0, abs(row["backprop"])), row


def test_shared_node_and_overwrite_bug():
    t = examples.trace("shared-node")
    assert leaves(t)["a"]["grad"] == 2.0 and labelled(t)["b"]["data"] == 6.0
    bug = examples.trace("overwrite-bug")
    assert leaves(bug)["a"]["grad"] == 1.0 and labelled(bug)["b"]["data"] == 6.0
    assert any(c.get("overwrote") for s in bug.steps for c in s["contributions"])
    (row,) = vizgrad.gradcheck(bug)
    assert row["numeric"] == pytest.approx(2.0) and row["error"] == pytest.approx(1.0)


def test_sum_square_is_8_and_8_again_after_a_second_backward():
    root, _ = examples.build("sum-square")
    assert root.data == 3 + 3 + 3 * 3
    x = next(v for v in root.parents[0].parents if v.label == "x")
    assert x.grad == 8.0
    root.backward()
    assert x.grad == 8.0
    assert leaves(examples.trace("sum-square"))["x"]["grad"] == 8.0


def test_fork():
    t = examples.trace("fork")
    nodes = labelled(t)
    assert nodes["q"]["data"] == -6.0 and nodes["u"]["data"] == -6.0 and nodes["v"]["data"] == 1.0
    assert (nodes["a"]["grad"], nodes["b"]["grad"]) == (-3.0, -8.0)
    assert [s["index"] for s in t.steps] == list(range(8))
    assert ([s["kind"] for s in t.steps]
            == ["inputs"] + ["forward"] * 3 + ["seed"] + ["backward"] * 3)


@pytest.mark.parametrize("a, b", [(1.0, 2.0), (-0.5, 4.0)], ids=str)
def test_examples_take_other_inputs(a, b):
    t = examples.trace("fork", a=a, b=b)
    nodes = labelled(t)
    assert nodes["q"]["data"] == (a * b) * (a + b)
    assert nodes["a"]["grad"] == pytest.approx(2 * a * b + b * b)
    assert nodes["b"]["grad"] == pytest.approx(a * a + 2 * a * b)


def test_unknown_input_name_is_an_error():
    with pytest.raises(ExpressionError, match="its inputs are: a, b"):
        examples.build("fork", c=1.0)


NEURON = {"x1": 2.0, "x2": 0.0, "w1": -3.0, "w2": 1.0, "b": 6.8813735870195432}


@pytest.mark.parametrize("name", ["tanh-native", "tanh-decomposed"])
def test_tanh_neuron(name):
    t = examples.trace(name)
    o = labelled(t)["o"]
    n = NEURON["x1"] * NEURON["w1"] + NEURON["x2"] * NEURON["w2"] + NEURON["b"]
    assert o["data"] == pytest.approx(math.tanh(n), abs=1e-12)
    assert o["data"] == pytest.approx(0.7071, abs=5e-5)
    g = leaves(t)
    expected = {"x1": -1.5, "w1": 1.0, "x2": 0.5, "w2": 0.0, "b": 0.5}
    for k, v in expected.items():
        assert g[k]["grad"] == pytest.approx(v, abs=1e-9), k
    # the exact chain rule, from math.tanh: d o / d x1 = w1 (1 - o^2), ...
    d = 1 - math.tanh(n) ** 2
    assert g["x1"]["grad"] == pytest.approx(NEURON["w1"] * d, rel=1e-12)
    assert g["w1"]["grad"] == pytest.approx(NEURON["x1"] * d, rel=1e-12)


def test_native_and_decomposed_tanh_agree_while_the_graphs_differ():
    native, decomposed = examples.trace("tanh-native"), examples.trace("tanh-decomposed")
    gn, gd = leaves(native), leaves(decomposed)
    for k in NEURON:
        assert abs(gn[k]["grad"] - gd[k]["grad"]) <= 1e-12, k
    assert abs(labelled(native)["o"]["data"] - labelled(decomposed)["o"]["data"]) <= 1e-12
    assert len(decomposed.nodes) > len(native.nodes)
    assert len(decomposed.steps) > len(native.steps)
    assert "tanh" in {n["op"] for n in native.nodes}
    assert "tanh" not in {n["op"] for n in decomposed.nodes}
    assert "exp" in {n["op"] for n in decomposed.nodes}


def test_torch_crosscheck_against_math():
    t = examples.trace("torch-crosscheck")
    x, y = examples.defaults("torch-crosscheck").values()

    def f(x, y):
        return math.log(math.exp(x * y) + (x + y) ** 2)

    assert labelled(t)["f"]["data"] == pytest.approx(f(x, y), rel=1e-15)
    ops = {n["op"] for n in t.nodes}
    assert {"*", "exp", "log"} <= ops and "**2" in ops
    # the derivative written out by hand
    e, s = math.exp(x * y), (x + y) ** 2
    dx = (y * e + 2 * (x + y)) / (e + s)
    dy = (x * e + 2 * (x + y)) / (e + s)
    g = leaves(t)
    assert g["x"]["grad"] == pytest.approx(dx, rel=1e-13)
    assert g["y"]["grad"] == pytest.approx(dy, rel=1e-13)


Z = (0.0, 3.0, -2.0, 1.0)


def softmax(z):
    m = max(z)
    e = [math.exp(v - m) for v in z]
    return [v / math.fsum(e) for v in e]


def test_softmax_nll_loss_and_grads():
    t = examples.trace("softmax-nll")
    nodes = labelled(t)
    assert abs(nodes["L"]["data"] - 2.175515362617) <= 1e-12
    assert nodes["L"]["data"] == pytest.approx(-math.log(softmax(Z)[3]), rel=1e-14)
    grads = [leaves(t)[f"z{i}"]["grad"] for i in range(4)]
    for got, chapter in zip(grads, (0.041772571, 0.839024507, 0.005653303, -0.886450381)):
        assert abs(got - chapter) <= 1e-9
    # dL/dz = p - onehot(3), computed independently
    p = softmax(Z)
    for i, got in enumerate(grads):
        assert got == pytest.approx(p[i] - (i == 3), rel=1e-12, abs=1e-15)
    assert abs(math.fsum(grads)) <= 1e-12
    assert grads[3] < 0 < min(grads[:3])


def test_softmax_other_probabilities_are_off_the_backward_path():
    t = examples.trace("softmax-nll")
    nodes = labelled(t)
    off = [nodes[f"p{i}"] for i in range(3)]
    assert t.also == [n["id"] for n in off]
    p = softmax(Z)
    for i, n in enumerate(off):
        assert n["on_path"] is False and n["grad"] is None and n["kind"] == "output"
        assert n["data"] == pytest.approx(p[i], rel=1e-14)
    assert nodes["p3"]["on_path"] is True and nodes["p3"]["grad"] is not None
    targets = {c["target"] for s in t.steps for c in s["contributions"]}
    assert targets.isdisjoint(n["id"] for n in off)
    assert (sum(n["data"] for n in nodes.values() if n["label"].startswith("p"))
            == pytest.approx(1.0))


@pytest.mark.parametrize("c", [5.0, -7.5, 100.0], ids=str)
def test_softmax_shift_invariance(c):
    base = labelled(examples.trace("softmax-nll"))
    shifted_t = examples.trace("softmax-nll", **{f"z{i}": z + c for i, z in enumerate(Z)})
    shifted = labelled(shifted_t)
    assert shifted["z1"]["data"] == Z[1] + c  # really built with shifted scores
    for i in range(4):
        assert shifted[f"p{i}"]["data"] == pytest.approx(base[f"p{i}"]["data"], rel=1e-12)
        assert shifted[f"z{i}"]["grad"] == pytest.approx(base[f"z{i}"]["grad"], rel=1e-9, abs=1e-12)
    assert shifted["L"]["data"] == pytest.approx(base["L"]["data"], rel=1e-12)


@pytest.mark.parametrize("call", ["describe", "build", "trace", "graph", "defaults"])
def test_unknown_example_lists_the_names(call):
    with pytest.raises(UnknownExampleError) as info:
        getattr(examples, call)("no-such-example")
    err = info.value
    assert isinstance(err, VizgradError) and isinstance(err, ValueError)
    assert "no-such-example" in str(err)
    for name in NAMES:
        assert name in str(err)

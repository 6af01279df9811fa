"""A central difference cannot check a gradient at relu's kink: such a row says so and is no
failure, a real disagreement in the same graph still is; inputs are named as the pictures
name them, never by their ids."""

from __future__ import annotations

import math
import random
import re

import pytest

from vizgrad import Value, to_networkx
from vizgrad.graph.gradcheck import final_check, gradcheck, row_status
from vizgrad.style.text import name as picture_name

mg_nn = pytest.importorskip("micrograd.nn", reason="micrograd==0.1.0 is a test dependency")
mg_engine = pytest.importorskip("micrograd.engine", reason="micrograd==0.1.0 is a test dependency")


def dead_net(bug: bool = False, sizes=(5, 3, 1)):
    """A student's micrograd MLP(2, [5, 3, 1]) (relu hidden layers, zero biases) whose first
    layer is dead on positive inputs: every weight of L0 negative, so every L1 neuron's sum
    is exactly 0.0 and sits on relu's kink. ``bug``: a tanh written with (1 − t) is added to
    the loss on a leaf of its own."""
    random.seed(7)
    net = mg_nn.MLP(2, list(sizes))
    for n in net.layers[0].neurons:
        n.w = [mg_engine.Value(-abs(w.data) - 0.1) for w in n.w]
    out = net([mg_engine.Value(1.0), mg_engine.Value(2.0)])
    loss = (out - 1.0) ** 2
    extra = None
    if bug:
        extra = mg_engine.Value(0.5)
        t = extra.data
        th = mg_engine.Value(math.tanh(t), (extra,), "tanh")

        def backward():
            extra.grad += (1 - th.data) * th.grad  # the bug: should be 1 − t²

        th._backward = backward
        loss = loss + th
    loss.backward()
    return net, out, loss, extra


def _by_id(rows):
    return {r["id"]: r for r in rows}


def test_a_dead_layer_s_biases_are_kinks_not_disagreements():
    net, out, loss, _ = dead_net()
    G = to_networkx(loss)
    rows = gradcheck(G, h=1e-6)
    kinks = [r for r in rows if row_status(r) == "kink"]
    assert len(kinks) == 3  # one per L1 neuron: its bias moves its relu's input across 0
    assert all(row_status(r) == "agree" for r in rows if r not in kinks)
    # a second computation: nudging L1.N_j's bias up turns its relu on (slope 1), down keeps
    # it off (slope 0), so the central difference is half the one-sided slope up,
    # ½ · 2 (out − 1) · w2_j, where backprop's rule at exactly 0 gives 0
    w2 = [w.data for w in net.layers[2].neurons[0].w]
    assert out.data == 0.0  # every relu dead, zero biases
    assert sorted(r["numeric"] for r in kinks) == pytest.approx(
        sorted((out.data - 1.0) * w for w in w2), abs=1e-6)
    for r in kinks:
        assert r["backprop"] == 0.0 and r["branch"] == pytest.approx(0.0, abs=1e-9)
        assert [(k["op"], k["input"]) for k in r["kinks"]] == [("ReLU", 0.0)]
    assert final_check(G)["status"] == "not_checked"  # 40 inputs: past the final view's 32


def test_the_final_view_names_the_kinks_it_cannot_check():
    _, _, loss, _ = dead_net(sizes=(2, 2, 1))  # 17 inputs: the final view checks them
    G = to_networkx(loss)
    kinks = sorted(r["id"] for r in gradcheck(G) if row_status(r) == "kink")
    check = final_check(G)
    assert len(kinks) == 2 and check["status"] == "agree" and sorted(check["kinks"]) == kinks


def test_a_real_disagreement_in_the_same_graph_still_fails():
    _, _, loss, extra = dead_net(bug=True)
    G = to_networkx(loss)
    rows = gradcheck(G, h=1e-6)
    status = {r["id"]: row_status(r) for r in rows}
    bad = [i for i, s in status.items() if s == "disagree"]
    assert len(bad) == 1 and list(status.values()).count("kink") == 3
    row = _by_id(rows)[bad[0]]
    assert row["numeric"] == pytest.approx(1 - math.tanh(0.5) ** 2, rel=1e-6)  # the rule
    assert row["backprop"] == pytest.approx(1 - math.tanh(0.5), rel=1e-12)  # the bug
    _, _, small, _ = dead_net(bug=True, sizes=(2, 2, 1))
    assert final_check(to_networkx(small))["status"] == "disagree"


def test_a_wrong_gradient_at_a_kink_is_still_a_disagreement():
    _, _, loss, _ = dead_net()
    G = to_networkx(loss)
    kinked = next(r["id"] for r in gradcheck(G) if row_status(r) == "kink")
    G.nodes[kinked]["grad"] = 0.3  # neither side's slope, nor the rule's
    row = _by_id(gradcheck(G))[kinked]
    assert row_status(row) == "disagree"


def test_a_relu_away_from_its_kink_has_none():
    x = Value(0.5, label="x")
    y = (x * 2.0).relu()
    y.backward()
    (row,) = gradcheck(y)
    assert "kinks" not in row and row_status(row) == "agree"
    z = Value(3e-7, label="z")  # within h = 1e-6 of 0: the nudge crosses it
    w = z.relu()
    w.backward()
    (row,) = gradcheck(w, h=1e-6)
    assert row["kinks"][0]["input"] == 3e-7 and row_status(row) == "kink"
    assert row["branch"] == pytest.approx(1.0)  # above 0: the rule's slope is 1


def test_unlabelled_inputs_are_named_as_the_pictures_name_them():
    x1, x2, w1, w2, b = Value(2.0), Value(0.0), Value(-3.0), Value(1.0), Value(6.88)
    o = (x1 * w1 + x2 * w2 + b).tanh()
    o.backward()
    G = to_networkx(o)
    rows = gradcheck(G)
    assert [r["input"] for r in rows] == ["x₁", "x₂", "x₃", "x₄", "x₅"]
    assert [r["name"] for r in rows] == [picture_name(G, r["id"]) for r in rows]
    assert not any(re.fullmatch(r"[vn]\d+", r["input"]) for r in rows)
    assert [r["id"] for r in rows] == ["v0", "v1", "v3", "v4", "v7"]  # the ids stay, apart


def test_the_final_view_says_which_inputs_a_kink_leaves_unchecked():
    from vizgrad.scene.captions import caption_texts
    from vizgrad.scene.plan import plan

    b, w, x = Value(0.0, label="b"), Value(-1.0, label="w"), Value(2.0, label="x")
    out = (w * x + 2.0 + b).relu() * 3.0 + w * w  # relu's input: −2 + 2 + 0 = 0 exactly
    out.backward()
    for lang, says, claim in (
            ("en", "w, x, b: the nudge ±h crosses a relu's kink", "every input's gradient agrees"),
            ("zh", "w, x, b：±h 的扰动跨过了 relu 的折点", "每个输入的梯度都与中心差分一致")):
        lines = caption_texts(plan(to_networkx(out), lang=lang), {}, None)
        assert any(says in line for line in lines), lines
        assert not any(line.startswith(claim) for line in lines)

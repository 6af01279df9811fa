"""micrograd 0.1.0's own Value, traced: same grads, observed contributions, stable order."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import vizgrad
from vizgrad import Value
from vizgrad.tracing.recorder import trace

mg_engine = pytest.importorskip("micrograd.engine", reason="micrograd==0.1.0 is a test dependency")
MV = mg_engine.Value
ROOT = Path(__file__).resolve().parents[1]


def fork(V):
    a, b = V(-2.0), V(3.0)
    return (a * b) * (a + b)


def mixed(V):
    a, b, c = V(1.5), V(-0.5), V(2.0)
    h = a * b + c
    return (h * h - b**3 + (a - c).relu() * 2 + (h + 1).relu() - a / c) * -1


def chain(V):
    x = V(0.5)
    y = x
    for k in range(20):
        y = y * 1.1 + x if k % 2 else (y + x) ** 2 * 0.25
    return y


GRAPHS = [("fork", fork), ("mixed", mixed), ("chain", chain), ("a+a", lambda V: V(3.0) + V(3.0)),
          ("shared", lambda V: (lambda a: a + a * a)(V(3.0)))]


@pytest.mark.parametrize("build", [b for _, b in GRAPHS], ids=[n for n, _ in GRAPHS])
def test_micrograd_trace_has_vizgrads_grads_and_order(build):
    foreign, native = trace(build(MV)), trace(build(Value))
    assert foreign.derivatives == "observed" and native.derivatives == "exact"
    assert len(foreign.nodes) == len(native.nodes)
    for f, n in zip(foreign.nodes, native.nodes):
        assert f["data"] == n["data"] and f["parents"] == n["parents"] and f["id"] == n["id"]
        assert f["grad"] == pytest.approx(n["grad"], rel=1e-12, abs=1e-12)
    assert [s["kind"] for s in foreign.steps] == [s["kind"] for s in native.steps]
    assert [s.get("node") for s in foreign.steps] == [s.get("node") for s in native.steps]


def square_of_ab_plus_a():
    """q = (a*b + a)**2 at a=2, b=-3: u = -6, v = -4, q = 16."""
    a, b = MV(2.0), MV(-3.0)
    return (a * b + a) ** 2


def relu_times_a():
    """p = relu(a + b) * a at a=2, b=-3: s = -1, r = 0, p = 0; s gets no grad."""
    a, b = MV(2.0), MV(-3.0)
    return (a + b).relu() * a


def a_times_a():
    a = MV(3.0)
    return a * a


# each backward closure's effect on its operands, worked out by hand from the local
# derivatives: (closure of, operand, local, upstream, amount, grad before, grad after)
HAND = {
    "(a*b+a)**2": (square_of_ab_plus_a, {("", 2.0): "a", ("", -3.0): "b", ("*", -6.0): "u",
                                         ("+", -4.0): "v", ("**2", 16.0): "q"}, [
        ("q", "v", -8.0, 1.0, -8.0, 0.0, -8.0),  # d(v**2)/dv = 2v = -8
        ("v", "u", 1.0, -8.0, -8.0, 0.0, -8.0),
        ("v", "a", 1.0, -8.0, -8.0, 0.0, -8.0),
        ("u", "a", -3.0, -8.0, 24.0, -8.0, 16.0),  # d(ab)/da = b; a's grad is 2v(b+1) = 16
        ("u", "b", 2.0, -8.0, -16.0, 0.0, -16.0),  # d(ab)/db = a; b's grad is 2va = -16
    ]),
    "relu(a+b)*a": (relu_times_a, {("", 2.0): "a", ("", -3.0): "b", ("+", -1.0): "s",
                                   ("ReLU", 0.0): "r", ("*", 0.0): "p"}, [
        ("p", "r", 2.0, 1.0, 2.0, 0.0, 2.0),  # d(ra)/dr = a
        ("p", "a", 0.0, 1.0, 0.0, 0.0, 0.0),  # d(ra)/da = r = 0
        ("r", "s", 0.0, 2.0, 0.0, 0.0, 0.0),  # relu is flat below zero
        ("s", "a", None, 0.0, 0.0, 0.0, 0.0),  # no upstream: the local cannot be observed
        ("s", "b", None, 0.0, 0.0, 0.0, 0.0),
    ]),
    "a*a": (a_times_a, {("", 3.0): "a", ("*", 9.0): "q"}, [
        ("q", "a", 6.0, 1.0, 6.0, 0.0, 6.0),  # one contribution for both slots: 2a
    ]),
}


@pytest.mark.parametrize("name", list(HAND))
def test_micrograd_contributions_are_the_hand_worked_ones_and_marked_observed(name):
    build, names, expected = HAND[name]
    t = trace(build())
    name_of = {n["id"]: names[(n["op"], n["data"])] for n in t.nodes}
    got = [(name_of[c["source"]], name_of[c["target"]], c["local"], c["upstream"],
            c["amount"], c["before"], c["after"])
           for s in t.steps for c in s["contributions"]]
    assert got == expected
    assert all(c["observed"] is True for s in t.steps for c in s["contributions"])


def test_micrograd_grads_match_micrograds_own_backward():
    a, b = MV(-2.0), MV(3.0)
    q = (a * b) * (a + b)
    t = trace(q)
    assert (a.grad, b.grad) == (0, 0)  # restored: the trace had no side effect
    q.backward()
    assert [n["grad"] for n in t.nodes[:2]] == [a.grad, b.grad] == [-3.0, -8.0]
    assert t.backward_ran is False and trace(q).backward_ran is True


def test_micrograd_fork_contributions_are_the_chapters():
    t = trace(fork(MV))
    received = [(c["target"], c["amount"]) for s in t.steps for c in s["contributions"]
                if c["target"] in ("v0", "v1")]
    assert received == [("v0", -6.0), ("v1", -6.0), ("v0", 3.0), ("v1", -2.0)]


def test_micrograd_a_plus_a_keeps_both_slots():
    a = MV(3.0)
    t = trace(a + a)
    assert t.nodes[1]["parents"] == ["v0", "v0"]
    assert t.nodes[0]["grad"] == 2.0
    (c,) = t.steps[-1]["contributions"]  # one observed change: +2 over the whole call
    assert (c["amount"], c["before"], c["after"]) == (2.0, 0.0, 2.0)
    G = vizgrad.to_networkx(t)
    assert G.number_of_edges("v0", "v1") == 2


def test_micrograd_operand_order_is_read_from_the_closure_not_the_set():
    # _prev is a set; with many operands in a row its iteration order would vary
    for _ in range(20):
        xs = [MV(float(i)) for i in range(6)]
        y = ((xs[5] * xs[0]) + (xs[3] * xs[1])) * (xs[4] + xs[2])
        t = trace(y)
        assert [n["data"] for n in t.nodes if not n["parents"]] == [5.0, 0.0, 3.0, 1.0, 4.0, 2.0]


def test_a_deep_micrograd_chain_is_traced_iteratively():
    x = MV(1.0)
    y = x
    for _ in range(5000):  # micrograd's own recursive backward fails long before this
        y = y + 0.001
    with pytest.raises(RecursionError):
        y.backward()
    x.grad = 0
    t = trace(y)
    assert t.nodes[0]["grad"] == 1.0 and len(t.nodes) == 10_001


def test_micrograd_mlp_loss_traced():
    from micrograd.nn import MLP

    state = random.getstate()
    random.seed(7)
    try:
        model = MLP(3, [4, 1])
    finally:
        random.setstate(state)
    xs = [[2.0, 3.0, -1.0], [0.5, -1.0, 1.0]]
    ys = [1.0, -1.0]
    loss = sum((model(x) - y) ** 2 for x, y in zip(xs, ys))
    t = trace(loss)
    assert t.derivatives == "observed"
    assert {"ReLU", "+", "*", "**2"} <= {n["op"] for n in t.nodes}
    model.zero_grad()
    loss.backward()
    by_data = {}
    for n in t.nodes:
        if not n["parents"]:
            by_data.setdefault(n["data"], []).append(n["grad"])
    for p in model.parameters():
        if len(by_data[float(p.data)]) == 1:  # weights are distinct random numbers
            assert by_data[float(p.data)][0] == pytest.approx(p.grad, rel=1e-12, abs=1e-12)
    assert vizgrad.gradcheck(t, h=1e-6)[0]["error"] < 1e-6


PROGRAM = """
from micrograd.engine import Value
import vizgrad
xs = [Value(float(v)) for v in (0.5, -1.5, 2.0, 3.0, -0.25)]
h = (xs[0] * xs[1] + xs[2]).relu() * (xs[3] - xs[4]) ** 2
y = h * h + xs[0] + xs[0] - h / xs[3]
print(vizgrad.trace(y).to_json())
print(vizgrad.to_json(vizgrad.to_networkx(y)))
"""


def test_micrograd_trace_is_byte_identical_across_processes():
    outs = []
    for seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": seed}
        outs.append(subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, env=env,
                                   cwd=ROOT, check=True, timeout=60).stdout)
    assert outs[0] == outs[1] == outs[2]
    assert b'"observed": true' in outs[0] and b'"derivatives": "observed"' in outs[0]

"""The names, samples and kinds of a net's values on the graphs that are easy to get wrong:
an input Value shared by two forward passes, a value used twice, a penalty on a weight, and
the same records read back from a file of an older format (dicts, any ids).

Every expected row is written out by hand from the rules in vizgrad.tracing.names."""

from __future__ import annotations

import pytest

from vizgrad import Value
from vizgrad.core.nn import MLP
from vizgrad.tracing.recorder import Trace, trace

mg_nn = pytest.importorskip("micrograd.nn", reason="micrograd==0.1.0 is a test dependency")
mg_engine = pytest.importorskip("micrograd.engine", reason="micrograd==0.1.0 is a test dependency")

N = "L0/N0"
#: (id, group, kind, name, sample) of shared_batch()'s trace, in order
SHARED = [
    ("v0", N, "input", "L0.N0.b", None),
    ("v1", N, "input", "L0.N0.w0", None),
    ("v2", None, "input", "x[0][0]", None),  # both passes read it: no sample; named at first use
    ("v3", N, "op", "L0.N0.w0·x0[0]", 0),
    ("v4", N, "op", "L0.N0.Σ[0]", 0),
    ("v5", N, "op", "ŷ[0]", 0),
    ("v6", None, "const", "−y[0]", 0),
    ("v7", None, "op", "ŷ[0] − y[0]", 0),
    ("v8", None, "op", "prod₁", 0),  # d·d: too long to spell out, named by its op
    ("v9", N, "op", "L0.N0.w0·x0[1]", 1),
    ("v10", N, "op", "L0.N0.Σ[1]", 1),
    ("v11", N, "op", "ŷ[1]", 1),
    ("v12", None, "const", "−y[1]", 1),
    ("v13", None, "op", "ŷ[1] − y[1]", 1),
    ("v14", None, "op", "(ŷ[1] − y[1])²", 1),
    ("v15", None, "op", "sum₁", None),  # made from prod₁: named by its op
    ("v16", None, "op", "L0.N0.w0·L0.N0.w0", None),  # the penalty: outside the neuron
    ("v17", None, "const", "0.01", None),
    ("v18", None, "op", "prod₂", None),
    ("v19", None, "output", "loss", None),
]


def shared_batch():
    """Two samples through one neuron (vizgrad.core.nn), both reading the same Value u."""
    net = MLP(1, [1], seed=0)
    u = Value(0.5)
    d0 = net([u]) - 1.0
    d1 = net([u]) + 1.0
    w0 = net.layers[0].neurons[0].w[0]
    return (d0 * d0 + d1 ** 2) + (w0 * w0) * 0.01


def rows(nodes):
    return [(r["id"], r["group"], r["kind"], r["name"], r["sample"]) for r in nodes]


def test_a_shared_input_a_value_used_twice_and_a_penalty_are_named_by_the_rules():
    t = trace(shared_batch())
    assert rows(t.nodes) == SHARED
    assert [r["parents"] for r in t.nodes][8] == ["v7", "v7"]  # the value used twice


def test_the_records_of_an_older_file_get_the_same_names_whatever_their_ids():
    d = trace(shared_batch()).to_dict()
    d["format"] = "vizgrad.trace/2"  # no names: worked out from the dict records
    rename = {f"v{i}": f"n{19 - i}" for i in range(20)}  # ids that are not positions
    for r in d["nodes"]:
        del r["name"], r["sample"]
        r["id"] = rename[r["id"]]
        r["parents"] = [rename[p] for p in r["parents"]]
    d["root"] = rename[d["root"]]
    for s in d["steps"]:
        s.get("node") and s.update(node=rename[s["node"]])
    got = rows(Trace.from_dict(d).nodes)
    assert got == [(rename[i], g, k, name, s) for i, g, k, name, s in SHARED]  # never an id


def test_a_micrograd_net_given_as_model_names_a_shared_input_and_a_penalty():
    """micrograd's MLP(1, [1]) is linear: its output is the neuron's sum, b + w0·u."""
    import random

    random.seed(0)
    net = mg_nn.MLP(1, [1])
    u = mg_engine.Value(0.5)
    d0, d1 = net([u]) - 1.0, net([u]) - 2.0
    loss = (d0 * d0 + d1 ** 2) + net.parameters()[0] ** 2
    t = trace(loss, model=net)
    got = [(r["label"], r["group"], r["kind"], r["name"], r["sample"]) for r in t.nodes]
    assert [r[3] for r in got] == [
        "L0.N0.b", "L0.N0.w0", "x[0][0]", "L0.N0.w0·x0[0]", "ŷ[0]", "−y[0]", "ŷ[0] − y[0]",
        "prod₁", "L0.N0.w0·x0[1]", "ŷ[1]", "−y[1]", "ŷ[1] − y[1]", "(ŷ[1] − y[1])²", "sum₁",
        "L0.N0.w0²", "loss"]
    assert [r[4] for r in got] == [None, None, None, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, None,
                                   None, None]
    assert got[2][:3] == ("", N, "input")  # u joins the neuron that reads it
    assert got[5][:3] == ("", None, "const") and t.nodes[5]["data"] == -1.0
    assert got[14][1] is None  # w0**2, a penalty on a parameter: no neuron's, the loss's
    assert [r[0] for r in got if r[0]] == ["L0.N0.b", "L0.N0.w0"]  # labelled by model=


def test_an_l2_penalty_s_squares_join_no_neuron_and_keep_a_true_name():
    """p * p reads a parameter twice: the loss's penalty, not a neuron's product w·x."""
    import random

    random.seed(1)
    net = mg_nn.MLP(2, [2, 1])
    out = net([mg_engine.Value(0.5), mg_engine.Value(-1.0)])
    loss = (out - 1.0) ** 2 + 0.01 * sum((p * p for p in net.parameters()), mg_engine.Value(0.0))
    t = trace(loss, model=net)
    ids = {r["id"]: r for r in t.nodes}
    squares = [r for r in t.nodes if r["op"] == "*" and len(set(r["parents"])) == 1]
    assert len(squares) == len(net.parameters()) == 9
    for r in squares:
        p = ids[r["parents"][0]]
        assert r["group"] is None and r["name"] == f"{p['label']}·{p['label']}"

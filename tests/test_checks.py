"""gradcheck: central differences computed independently of backpropagation."""

from __future__ import annotations

import json
import math

import pytest

import vizgrad
from vizgrad import Value, VizgradError
from vizgrad.graph.gradcheck import gradcheck
from vizgrad.core.value import add_with_overwrite_bug
from vizgrad.exceptions import DomainError, GraphFormatError, NumericOverflowError
from vizgrad.graph.convert import from_json, to_json, to_networkx
from vizgrad.tracing.recorder import trace


def fork_f(a, b):
    return (a * b) * (a + b)


def central(f, xs, i, h):
    plus, minus = list(xs), list(xs)
    plus[i] += h
    minus[i] -= h
    return (f(*plus) - f(*minus)) / (2 * h)


def test_fork_error_for_a_is_the_chapters_number(fork):
    rows = gradcheck(fork[0], h=1e-6)
    assert [r["input"] for r in rows] == ["a", "b"]
    assert f"{rows[0]['error']:.4e}" == "4.1933e-10"  # the lab's "误差 4.1933e-10"
    assert rows[0]["backprop"] == -3.0 and rows[1]["backprop"] == -8.0
    for i, r in enumerate(rows):
        numeric = central(fork_f, (-2.0, 3.0), i, 1e-6)
        assert r["numeric"] == pytest.approx(numeric, rel=1e-12)
        assert r["error"] == pytest.approx(abs(numeric - r["backprop"]), rel=1e-6, abs=1e-15)
        assert set(r) >= {"input", "backprop", "numeric", "error"}


@pytest.mark.parametrize("h", [1e-2, 1e-4, 1e-6, 1e-8], ids=lambda h: f"h={h:g}")
def test_fork_at_the_labs_four_step_sizes(fork, h):
    """Quadratic in each input: no truncation error, only rounding (2.3's explanation)."""
    rows = gradcheck(fork[0], h=h)
    for i, r in enumerate(rows):
        numeric = central(fork_f, (-2.0, 3.0), i, h)
        assert r["numeric"] == pytest.approx(numeric, rel=1e-12)
        assert r["error"] < 1e-6


def neuron_f(x1, x2, w1, w2, b):
    return math.tanh(x1 * w1 + x2 * w2 + b)


NEURON = (2.0, 0.0, -3.0, 1.0, 6.8813735870195432)


@pytest.mark.parametrize("h", [1e-2, 1e-3, 1e-4], ids=lambda h: f"h={h:g}")
def test_a_non_polynomial_has_truncation_error_of_order_h_squared(h):
    x1, x2, w1, w2, b = (Value(v, label=n) for v, n in zip(NEURON, ["x1", "x2", "w1", "w2", "b"]))
    o = (x1 * w1 + x2 * w2 + b).tanh()
    rows = gradcheck(o, h=h)
    assert [r["input"] for r in rows] == ["x1", "w1", "x2", "w2", "b"]
    order = [0, 2, 1, 3, 4]  # topological order of the inputs
    for r, i in zip(rows, order):
        numeric = central(neuron_f, NEURON, i, h)
        assert r["numeric"] == pytest.approx(numeric, rel=1e-9, abs=1e-12)
    err = rows[0]["error"]  # x1: the largest third derivative here
    assert 1e-3 * h * h < err < 10 * h * h


def test_smaller_h_is_closer_for_a_smooth_function():
    x = Value(0.3, label="x")
    y = (x * 2).exp().log() + x.tanh() * x
    errors = [gradcheck(y, h=h)[0]["error"] for h in (1e-1, 1e-2, 1e-3)]
    assert errors[0] > errors[1] > errors[2]


@pytest.mark.parametrize("k", [1 / 3, 0.123456789, 2.5, -1.7], ids=repr)
def test_gradcheck_re_evaluates_the_exact_exponent(k):
    x = Value(2.0, label="x")
    (row,) = gradcheck(x**k, h=1e-6)
    numeric = central(lambda v: v**k, (2.0,), 0, 1e-6)
    assert row["numeric"] == pytest.approx(numeric, rel=1e-12)
    assert row["backprop"] == pytest.approx(k * 2.0 ** (k - 1), rel=1e-15)
    assert row["error"] < 1e-8


def test_works_on_a_trace_a_graph_and_a_graph_from_json(fork):
    q = fork[0]
    expected = gradcheck(q)
    t = trace(q)
    G = to_networkx(t)
    loaded = from_json(to_json(G))
    assert gradcheck(t) == expected
    assert gradcheck(G) == expected
    assert gradcheck(loaded) == expected
    assert vizgrad.gradcheck is gradcheck


def test_works_on_micrograd_values():
    from micrograd.engine import Value as MV

    a, b = MV(-2.0), MV(3.0)
    q = (a * b) * (a + b) + (a**2).relu() - b * -1
    rows = gradcheck(q, h=1e-6)
    va, vb = Value(-2.0, label="a"), Value(3.0, label="b")
    mine = gradcheck((va * vb) * (va + vb) + (va**2).relu() - vb * -1, h=1e-6)
    # micrograd values have no labels: inputs are named as the pictures name them (x₁ …),
    # never by id; the -1 is an input there
    assert [r["input"] for r in rows] == ["x₁", "x₂", "x₃", "x₄"]
    assert [r["id"] for r in rows][:2] == ["v0", "v1"]
    assert [r["backprop"] for r in rows][:2] == [r["backprop"] for r in mine]
    assert ([r["numeric"] for r in rows][:2]
            == pytest.approx([r["numeric"] for r in mine], rel=1e-12))
    assert all(r["error"] < 1e-6 for r in rows)


def test_constants_are_not_inputs():
    a = Value(1.5, label="a")
    rows = gradcheck(a * 2 + 3 - a.exp())
    assert [r["input"] for r in rows] == ["a"]


def test_unlabelled_inputs_are_named_as_the_pictures_name_them():
    rows = gradcheck(Value(1.0) * Value(2.0, label="w"))
    assert [(r["input"], r["name"], r["id"]) for r in rows] == [("x₁", "x₁", "v0"),
                                                                ("w", "w", "v1")]


def test_a_float_input_wrapped_once_per_neuron_is_told_apart_by_what_it_feeds():
    """micrograd wraps each float of a sample in a new Value in every neuron's product: the
    check lists one x[0][0] per neuron, each with its own grad, and names which is which."""
    import random

    from micrograd.nn import MLP as MgMLP

    random.seed(3)
    net = MgMLP(2, [3, 1])
    loss = (net([0.5, -1.0]) - 1.0) ** 2
    loss.backward()
    rows = gradcheck(vizgrad.trace(loss, model=net))
    names = [r["input"] for r in rows]
    # L0: 3 neurons of 2 weights and a bias; L1: 3 weights and a bias; 2 floats × 3 neurons
    assert len(names) == len(set(names)) == 3 * 3 + 4 + 2 * 3
    x00 = sorted(n for n in names if n.startswith("x[0][0]"))
    assert x00 == [f"x[0][0] → L0.N{j}.w0·x0" for j in range(3)], x00
    assert all(r["name"] == r["input"] for r in rows)
    plain = gradcheck(Value(1.0, label="a") * Value(2.0, label="b"))
    assert [r["input"] for r in plain] == ["a", "b"]  # names told apart only when they repeat


def test_the_overwrite_bug_is_caught_by_the_numeric_check():
    """The chapter's point in 2.5: an independent check catches 1 where 2 is right."""
    a = Value(3.0, label="a")
    (bad,) = gradcheck(add_with_overwrite_bug(a, a))
    assert bad["backprop"] == 1.0
    assert bad["numeric"] == pytest.approx(2.0, rel=1e-9)
    assert bad["error"] == pytest.approx(1.0, rel=1e-9)
    (good,) = gradcheck(a + a)
    assert good["error"] < 1e-9


def test_gradcheck_has_no_side_effects(fork):
    q, a, b = fork
    a.grad, b.grad = 5.0, 6.0
    gradcheck(q)
    assert (a.data, b.data, a.grad, b.grad) == (-2.0, 3.0, 5.0, 6.0)


@pytest.mark.parametrize("h", [0, 0.0, -1e-6, float("nan"), float("inf"), "1e-6", None, True],
                         ids=repr)
def test_bad_h_is_an_error(fork, h):
    with pytest.raises(DomainError) as info:
        gradcheck(fork[0], h=h)
    assert isinstance(info.value, VizgradError) and isinstance(info.value, ValueError)
    assert "h must be" in str(info.value)


def test_h_past_the_domain_edge_is_an_error_that_suggests_a_smaller_h():
    x = Value(1e-7, label="x")
    with pytest.raises(DomainError, match="smaller h"):
        gradcheck(x.log(), h=1e-6)
    assert gradcheck(x.log(), h=1e-9)[0]["error"] < 1e-3 * 1e7


def test_a_graph_not_made_by_vizgrad_is_refused_clearly():
    import networkx as nx

    H = nx.MultiDiGraph()
    H.add_edge("x", "y")
    with pytest.raises(GraphFormatError, match="to_networkx"):
        gradcheck(H)
    with pytest.raises(TypeError, match="DiGraph"):
        gradcheck(nx.DiGraph())


@pytest.mark.parametrize("bad", ["x", None, 3.0], ids=repr)
def test_gradcheck_of_a_non_value_is_a_type_error(bad):
    with pytest.raises(TypeError) as info:
        gradcheck(bad)
    assert isinstance(info.value, VizgradError)


# -- graphs that cannot be checked, and steps that cannot be taken (issue 20, items 7 and 8) -----


def test_a_collapsed_or_focused_graph_is_refused_with_what_to_check_instead():
    from vizgrad.graph.collapse import collapse, focus

    mlp = vizgrad.examples.graph("mlp")
    for H in (collapse(mlp, "neuron"), from_json(to_json(collapse(mlp, "layer")))):
        with pytest.raises(GraphFormatError, match="this graph is collapsed: its box 'L0"):
            gradcheck(H)
    with pytest.raises(GraphFormatError, match="this graph is focused"):
        gradcheck(focus(mlp, "v39", radius=1))


def test_a_graph_with_merged_constants_is_checked_by_node_id_not_by_position():
    from vizgrad.graph.collapse import merge_constants

    x = Value(2.0, label="x")
    with vizgrad.group("A"):
        with vizgrad.group("n0"):
            u = x * 3.0
        with vizgrad.group("n1"):
            v = x * 3.0  # the second 3.0 of group A: merged with the first
    y = u * v  # 9x², dy/dx = 18x = 36
    y.backward()
    M = from_json(to_json(merge_constants(to_networkx(y), "layer")))
    assert any(n.startswith("c") for n in M)  # ids of their own: position ≠ number in the id
    (row,) = gradcheck(M)
    assert (row["input"], row["backprop"]) == ("x", 36.0)
    assert row["numeric"] == pytest.approx(36.0, rel=1e-8)


def test_a_graph_holding_inf_is_refused_as_the_command_line_refuses_it():
    x = Value(1e-300, label="x")
    y = x * 1e300 * 1e300  # y = 1e300 fits; dy/dx = 1e600 does not
    y.backward()
    assert x.grad == math.inf
    with pytest.raises(NumericOverflowError, match="the graph overflowed: the grad of x is inf"):
        gradcheck(y)


def test_a_step_that_overflows_for_any_h_says_so_and_does_not_advise_a_smaller_h():
    a = Value(1.0, label="a")
    with pytest.raises(NumericOverflowError) as info:
        gradcheck(a**1e308)
    message = str(info.value)
    assert "1.000001 ** 1e+308 overflows a float" in message and "no step helps" in message
    assert "smaller h" not in message and "Numerical result out of range" not in message
    with pytest.raises(NumericOverflowError, match=r"exp\(710.0\) overflows.*use a smaller h"):
        gradcheck(Value(709.0, label="z").exp(), h=1.0)


def test_an_op_with_the_wrong_number_of_operands_is_refused_by_name():
    doc = json.loads(to_json(vizgrad.examples.graph("fork")))  # v2 = a × b
    doc["edges"] = [e for e in doc["edges"] if (e["target"], e["slot"]) != ("v2", 1)]
    for step in doc["graph"]["steps"]:
        step["contributions"] = [c for c in step["contributions"]
                                 if (c["source"], c["slot"]) != ("v2", 1)]
    G = from_json(json.dumps(doc))
    with pytest.raises(GraphFormatError,
                       match=r"re-evaluate u, node 'v2' \(op '\*' with 1 operand\): '\*' takes"):
        gradcheck(G)

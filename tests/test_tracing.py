"""The step trace: the chapter's fork graph (2.3 lab), order, ids, determinism, JSON."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

import vizgrad
from vizgrad import Value, VizgradError
from vizgrad.core.value import add_with_overwrite_bug
from vizgrad.tracing.recorder import Trace, replay, states, trace

ROOT = Path(__file__).resolve().parents[1]
CONTRIBUTION_KEYS = {"source", "target", "slot", "local", "upstream", "amount", "before", "after"}


def by_label(t: Trace) -> dict[str, str]:
    return {n["label"]: n["id"] for n in t.nodes if n["label"]}


def strict_json(text: str):
    def refuse(name):
        raise ValueError(f"non-standard JSON constant {name}")

    return json.loads(text, parse_constant=refuse)


def chapter_order(root, parents=lambda v: v.parents):
    """The chapter's recursive visit (2.3), written out as the oracle for small graphs."""
    order, seen = [], set()

    def visit(v):
        if v in seen:
            return
        seen.add(v)
        for p in parents(v):
            visit(p)
        order.append(v)

    visit(root)
    return order


# -- the fork graph -------------------------------------------------------------------------


def test_fork_steps_are_inputs_forward_seed_backward(fork):
    q, a, b = fork
    t = trace(q)
    assert [s["index"] for s in t.steps] == list(range(8))
    assert [s["kind"] for s in t.steps] == [
        "inputs", "forward", "forward", "forward", "seed", "backward", "backward", "backward"
    ]
    ids = by_label(t)
    names = {v: k for k, v in ids.items()}
    assert [names[s["node"]] for s in t.steps[1:4]] == ["u", "v", "q"]
    assert names[t.steps[4]["node"]] == "q"
    assert [names[s["node"]] for s in t.steps[5:]] == ["q", "v", "u"]


def test_fork_contributions_match_the_chapter(fork):
    q, a, b = fork
    t = trace(q)
    ids = by_label(t)
    names = {v: k for k, v in ids.items()}

    def received(label):
        return [
            (names[c["source"]], c["amount"], c["before"], c["after"])
            for s in t.steps for c in s["contributions"] if c["target"] == ids[label]
        ]

    # "a 收到 −6 和 3，合计 −3；b 收到 −6 和 −2，合计 −8"
    assert received("a") == [("v", -6.0, 0.0, -6.0), ("u", 3.0, -6.0, -3.0)]
    assert received("b") == [("v", -6.0, 0.0, -6.0), ("u", -2.0, -6.0, -8.0)]
    assert received("u") == [("q", 1.0, 0.0, 1.0)]
    assert received("v") == [("q", -6.0, 0.0, -6.0)]
    assert t.node(ids["a"])["grad"] == -3.0 and t.node(ids["b"])["grad"] == -8.0
    assert t.node(ids["q"])["data"] == -6.0


def test_fork_contributions_carry_every_documented_key(fork):
    t = trace(fork[0])
    contributions = [c for s in t.steps for c in s["contributions"]]
    assert len(contributions) == 6
    for c in contributions:
        assert CONTRIBUTION_KEYS <= set(c), c
        assert c["amount"] == c["local"] * c["upstream"]
        assert c["after"] == c["before"] + c["amount"]
    for s in strict_json(t.to_json())["steps"]:
        assert {"index", "kind", "node", "contributions"} <= set(s)
        for c in s["contributions"]:
            assert CONTRIBUTION_KEYS <= set(c)


@pytest.mark.parametrize("a, b", [(-2.0, 3.0), (1.5, 0.25), (4.0, -1.0), (0.0, 2.0)], ids=str)
def test_fork_contributions_follow_the_chain_rule(a, b):
    """Hand-derived: q = ab(a+b); via v, a and b get u = ab; via u, a gets b·v and b gets a·v."""
    va, vb = Value(a, label="a"), Value(b, label="b")
    u = va * vb
    v = va + vb
    t = trace(u * v)
    steps = {s["node"]: s for s in t.steps if s["kind"] == "backward"}
    via_v = [c["amount"] for c in steps["v3"]["contributions"]]
    via_u = [c["amount"] for c in steps["v2"]["contributions"]]
    assert via_v == [a * b, a * b]
    assert via_u == [b * (a + b), a * (a + b)]
    assert t.node("v0")["grad"] == pytest.approx(2 * a * b + b * b, abs=1e-12)
    assert t.node("v1")["grad"] == pytest.approx(a * a + 2 * a * b, abs=1e-12)


def test_step_zero_knows_leaves_only_and_no_grad_at_all(fork):
    t = trace(fork[0])
    ids = by_label(t)
    s0 = t.state(0)
    assert s0.data == {ids["a"]: -2.0, ids["b"]: 3.0}  # u, v, q are pending
    for op in "uvq":
        assert ids[op] not in s0.data
    assert s0.grad == {}  # "not reached", which is not 0
    assert t.to_dict()["steps"][0]["values"] == {ids["a"]: -2.0, ids["b"]: 3.0}


def test_states_replay_forward_then_backward(fork):
    t = trace(fork[0])
    i = by_label(t)
    expected_data = [
        {"a", "b"}, {"a", "b", "u"}, {"a", "b", "u", "v"}, *[{"a", "b", "u", "v", "q"}] * 5
    ]
    expected_grads = [
        {}, {}, {}, {},
        {"q": 1.0},
        {"q": 1.0, "u": 1.0, "v": -6.0},
        {"q": 1.0, "u": 1.0, "v": -6.0, "a": -6.0, "b": -6.0},
        {"q": 1.0, "u": 1.0, "v": -6.0, "a": -3.0, "b": -8.0},
    ]
    all_states = list(states(t.steps))
    assert len(all_states) == 8
    for k, (names, grads) in enumerate(zip(expected_data, expected_grads)):
        s = t.state(k)
        assert s.step == k and s.kind == t.steps[k]["kind"]
        assert set(s.data) == {i[n] for n in names}
        assert s.grad == {i[n]: g for n, g in grads.items()}
        assert (all_states[k].data, all_states[k].grad) == (s.data, s.grad)
    assert t.state(3).data[i["q"]] == -6.0 and t.state(1).data[i["u"]] == -6.0
    assert t.state(7).active == i["u"] and t.state(0).active is None


def test_states_are_independent_copies(fork):
    t = trace(fork[0])
    first, last = list(states(t.steps))[0], t.state(7)
    first.data["x"] = 1.0
    assert "x" not in t.state(0).data and "x" not in last.data


@pytest.mark.parametrize("k", [-1, 8, 100, 1.0, "3", True, None], ids=repr)
def test_replay_out_of_range(fork, k):
    t = trace(fork[0])
    with pytest.raises(IndexError, match="0..7"):
        replay(t.steps, k)


def test_upstream_is_complete_before_a_node_passes_it_back():
    """Reverse topological order: every backward step's upstream is the node's final grad."""
    x, y = Value(0.7, label="x"), Value(-1.3, label="y")
    h = x * y
    z = h.tanh() + h * h + (h + x).exp() * y
    t = trace(z)
    final = {n["id"]: n["grad"] for n in t.nodes}
    for s in t.steps:
        if s["kind"] == "backward":
            assert s["upstream"] == final[s["node"]]
    # contributions chain: each target's before is its previous after, and they sum to its grad
    running = {}
    for s in t.steps:
        for c in s["contributions"]:
            assert c["before"] == running.get(c["target"], 0.0)
            running[c["target"]] = c["after"]
    for node_id, g in running.items():
        assert final[node_id] == g


# -- ids, order, determinism ----------------------------------------------------------------


def _graphs():
    a, b, c = Value(1.5, label="a"), Value(-0.5, label="b"), Value(2.0, label="c")
    yield "fork", (a * b) * (a + b)
    yield "a+a", a + a
    yield "shared", ((a * b) + (b * c)).tanh() * (a - c) / (c + 3)
    yield "diamond", (lambda h: h * h + h.exp())(a * b + c)


@pytest.mark.parametrize("root", [g for _, g in _graphs()], ids=[n for n, _ in _graphs()])
def test_ids_follow_the_chapters_topological_order(root):
    t = trace(root)
    oracle = chapter_order(root)
    assert [n["id"] for n in t.nodes] == [f"v{i}" for i in range(len(oracle))]
    assert [n["order"] for n in t.nodes] == list(range(len(oracle)))
    assert [(n["data"], n["op"]) for n in t.nodes] == [(v.data, v.op) for v in oracle]
    position = {id(v): i for i, v in enumerate(oracle)}
    for n, v in zip(t.nodes, oracle):
        assert n["parents"] == [f"v{position[id(p)]}" for p in v.parents]
        assert all(int(p[1:]) < n["order"] for p in n["parents"])
    assert t.root == t.nodes[-1]["id"]


def test_a_plus_a_lists_the_parent_twice_with_two_contributions():
    a = Value(3.0, label="a")
    t = trace(a + a)
    assert t.nodes[1]["parents"] == ["v0", "v0"]
    cs = t.steps[-1]["contributions"]
    assert [(c["slot"], c["before"], c["after"]) for c in cs] == [(0, 0.0, 1.0), (1, 1.0, 2.0)]
    assert t.node("v0")["grad"] == 2.0


PROGRAM = """
import vizgrad
from vizgrad import Value
a, b = Value(-2.0, label="a"), Value(3.0, label="b")
q = (a * b) * (a + b)
q.backward()
z = [Value(x, label=f"z{i}") for i, x in enumerate((0.0, 3.0, -2.0, 1.0))]
e = [v.exp() for v in z]
s = sum(e)
p = [x / s for x in e]
L = -p[3].log()
w = Value(0.25, label="w")
extra = (w + 2) * (3 - w) ** 2 + w.relu() - 1 / (w + a)
print(vizgrad.trace(q).to_json())
print(vizgrad.trace(L, also=p[:3]).to_json())
print(vizgrad.trace(extra).to_json(indent=1))
"""


def run_in_fresh_process(program: str, hashseed: str) -> bytes:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": hashseed}
    return subprocess.run([sys.executable, "-c", program], capture_output=True, env=env,
                          cwd=ROOT, check=True, timeout=60).stdout


def test_json_is_byte_identical_across_processes():
    first = run_in_fresh_process(PROGRAM, "1")
    second = run_in_fresh_process(PROGRAM, "2")
    assert first == second
    assert len(first.splitlines()) > 3
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        exec(compile(PROGRAM, "<program>", "exec"), {})  # test code only
    assert buffer.getvalue().encode() == first  # and the same as in this process


def test_json_has_no_memory_addresses_or_object_reprs(fork):
    text = trace(fork[0]).to_json()
    assert "0x" not in text and "object at" not in text and "Value(" not in text


def test_constants_are_marked_const():
    a = Value(1.5, label="a")
    y = (a + 2) * (3 * a) - 1
    t = trace(y)
    kinds = {(n["kind"], n["data"]) for n in t.nodes if not n["parents"]}
    assert ("input", 1.5) in kinds
    assert ("const", 2.0) in kinds and ("const", 3.0) in kinds
    assert all(n["kind"] in ("input", "const") for n in t.nodes if not n["parents"])
    assert [n["kind"] for n in t.nodes if n["parents"]][-1] == "output"
    assert {n["kind"] for n in t.nodes if n["parents"]} == {"op", "output"}
    user_leaf = Value(2.0)  # a leaf the user made is an input, even unlabelled
    assert trace(a * user_leaf).node("v1")["kind"] == "input"


# -- side effects, backward_ran, default_step ---------------------------------------------------


def test_trace_restores_grads_and_data(fork):
    q, a, b = fork
    u, v = q.parents
    q.backward()
    for node, g in zip((a, b, u, v, q), (11.0, 12.0, 13.0, 14.0, 15.0)):
        node.grad = g
    before = [(x.data, x.grad) for x in (a, b, u, v, q)]
    t = trace(q)
    assert [(x.data, x.grad) for x in (a, b, u, v, q)] == before
    assert t.node("v0")["grad"] == -3.0  # the trace computed its own backward


def test_trace_of_an_untouched_graph_leaves_grads_at_zero(fork):
    q, a, b = fork
    trace(q)
    assert (a.grad, b.grad, q.grad) == (0.0, 0.0, 0.0)


def test_backward_ran_and_default_step(fork):
    q, a, b = fork
    fresh = trace(q)
    assert fresh.backward_ran is False
    assert fresh.default_step == 3  # the last forward step: grads are not shown yet
    assert fresh.state().grad == {} and len(fresh.state().data) == 5
    assert fresh.to_dict()["default_step"] == 3
    q.backward()
    done = trace(q)
    assert done.backward_ran is True and done.default_step == 7
    assert done.state().grad[by_label(done)["a"]] == -3.0
    assert done.to_dict()["backward_ran"] is True
    # the recorded steps are the same either way
    assert fresh.steps == done.steps and fresh.nodes == done.nodes


def test_trace_of_a_single_leaf():
    t = trace(Value(2.5, label="x"))
    assert [s["kind"] for s in t.steps] == ["inputs", "seed"]
    assert t.nodes[0]["kind"] == "output" and t.nodes[0]["grad"] == 1.0


# -- also: outputs off the backward path ----------------------------------------------------------


def test_also_outputs_are_traced_but_never_given_a_grad():
    a, b = Value(2.0, label="a"), Value(5.0, label="b")
    root = a * b
    side = (a + b).tanh()
    t = trace(root, also=[side])
    side_id = t.also[0]
    assert t.also == [side_id] and t.node(side_id)["kind"] == "output"
    off = [n for n in t.nodes if not n["on_path"]]
    assert {n["op"] for n in off} == {"+", "tanh"} and side_id in {n["id"] for n in off}
    for n in off:
        assert n["grad"] is None
        assert int(n["id"][1:]) > int(t.root[1:])  # ids after the root's graph
    off_ids = {n["id"] for n in off}
    for s in t.steps:
        if s["kind"] == "backward":
            assert s["node"] not in off_ids
        for c in s["contributions"]:
            assert c["target"] not in off_ids and c["source"] not in off_ids
    assert t.state(len(t.steps) - 1).grad.keys().isdisjoint(off_ids)
    assert t.state(len(t.steps) - 1).data[side_id] == pytest.approx(math.tanh(7.0))
    forward_nodes = [s["node"] for s in t.steps if s["kind"] == "forward"]
    assert side_id in forward_nodes
    assert [s["kind"] for s in t.steps].count("backward") == 1
    assert side.grad == 0.0 and a.grad == 0.0


def test_also_does_not_change_the_roots_ids_or_grads(fork):
    q, a, b = fork
    plain = trace(q)
    with_side = trace(q, also=[a - b])
    assert with_side.nodes[: len(plain.nodes)] == plain.nodes
    assert with_side.root == plain.root


# -- foreign and bad inputs ------------------------------------------------------------------------


class Dual:
    """A minimal micrograd-style value written from scratch: parents and op, no _local."""

    def __init__(self, data, parents=(), op=""):
        self.data, self.grad, self.parents, self.op = data, 0.0, tuple(parents), op
        self._backward = lambda: None

    def __add__(self, other):
        out = Dual(self.data + other.data, (self, other), "+")

        def back():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = back
        return out

    def __mul__(self, other):
        out = Dual(self.data * other.data, (self, other), "*")

        def back():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = back
        return out


def test_a_duck_typed_value_class_is_traced_as_observed():
    a, b = Dual(-2.0), Dual(3.0)
    q = (a * b) * (a + b)
    t = trace(q)
    assert t.derivatives == "observed"
    assert [n["grad"] for n in t.nodes[:2]] == [-3.0, -8.0]
    kinds = ["inputs"] + ["forward"] * 3 + ["seed"] + ["backward"] * 3
    assert [s["kind"] for s in t.steps] == kinds
    contributions = [c for s in t.steps for c in s["contributions"]]
    assert contributions and all(c["observed"] is True for c in contributions)
    assert all(CONTRIBUTION_KEYS <= set(c) for c in contributions)
    assert [c["amount"] for c in contributions if c["target"] == "v0"] == [-6.0, 3.0]
    assert (a.grad, b.grad) == (0.0, 0.0)  # restored


def test_a_duck_typed_a_plus_a_gives_one_observed_contribution_of_two():
    a = Dual(3.0)
    t = trace(a + a)
    assert t.nodes[1]["parents"] == ["v0", "v0"]
    (c,) = t.steps[-1]["contributions"]
    assert (c["amount"], c["before"], c["after"], c["observed"]) == (2.0, 0.0, 2.0, True)


@pytest.mark.parametrize("bad", [3.0, "a", None, [Value(1.0)], object()], ids=repr)
def test_non_value_root_is_a_type_error(bad):
    with pytest.raises(TypeError) as info:
        trace(bad)
    assert isinstance(info.value, VizgradError)
    assert type(bad).__name__ in str(info.value)


def test_non_value_in_also_is_a_type_error():
    with pytest.raises(TypeError):
        trace(Value(1.0) * 2, also=[3.0])


def test_non_value_parent_is_a_type_error():
    v = Dual(1.0)
    v.parents = (2.0,)
    with pytest.raises(TypeError, match="not a Value"):
        trace(v)


def test_overwrite_bug_trace_shows_the_overwrite():
    a = Value(3.0, label="a")
    t = trace(add_with_overwrite_bug(a, a))
    cs = t.steps[-1]["contributions"]
    assert [(c["slot"], c["amount"], c["before"], c["after"]) for c in cs] == [
        (0, 1.0, 0.0, 1.0), (1, 1.0, 1.0, 1.0)
    ]
    assert all(c.get("overwrote") is True for c in cs)
    assert t.node("v0")["grad"] == 1.0
    fixed = trace(a + a)
    assert fixed.node("v0")["grad"] == 2.0
    assert all("overwrote" not in c for c in fixed.steps[-1]["contributions"])


# -- JSON ----------------------------------------------------------------------------------------


def _grad_overflow():
    """1e-300 · 1e300 · 1e300 is 1e300, but its gradient by the leaf is 1e600: inf."""
    x = Value(1e-300, label="x")
    y = x * 1e300 * 1e300
    y.backward()
    return y


@pytest.mark.parametrize(
    "make, at, field, expected",
    [
        (lambda: Value(float("nan")) * 2, -1, "data", "nan"),
        (lambda: Value(float("inf")) + 1, -1, "data", "inf"),
        (lambda: Value(float("-inf")) * 1, -1, "data", "-inf"),
        (_grad_overflow, 0, "grad", "inf"),
        (lambda: Value(float("inf")) * 0, -1, "data", "nan"),
    ],
    ids=["nan", "inf", "-inf", "grad-overflow-to-inf", "inf*0"],
)
def test_non_finite_numbers_are_strings_in_strict_json(make, at, field, expected):
    t = trace(make())
    d = strict_json(t.to_json())
    assert d["nodes"][at][field] == expected
    assert strict_json(t.to_json(indent=2)) == d
    assert "NaN" not in t.to_json() and "Infinity" not in t.to_json()


def test_to_dict_and_json_agree_and_document_the_format(fork):
    t = trace(fork[0])
    d = t.to_dict()
    assert strict_json(t.to_json()) == json.loads(json.dumps(d))
    assert d["format"] == "vizgrad.trace/3"
    assert set(d) >= {"root", "also", "derivatives", "backward_ran", "default_step", "nodes",
                      "steps"}
    for n in d["nodes"]:
        assert {"id", "label", "name", "op", "kind", "data", "grad", "group", "sample"} <= set(n)
    assert [n["name"] for n in d["nodes"]] == ["a", "b", "u", "v", "q"]
    again = Trace.from_dict(json.loads(t.to_json()))
    assert again.to_json() == t.to_json()


def test_format_1_without_groups_still_reads(fork):
    d = json.loads(trace(fork[0]).to_json())
    d["format"] = "vizgrad.trace/1"
    for n in d["nodes"]:
        del n["group"]
    old = Trace.from_dict(d)
    G = vizgrad.to_networkx(old)
    assert G.nodes["v0"]["group"] is None and G.nodes["v0"]["grad"] == -3.0
    assert old.to_dict()["format"] == "vizgrad.trace/3"
    assert [n["name"] for n in old.nodes] == ["a", "b", "u", "v", "q"]


def test_from_dict_names_an_unknown_format():
    from vizgrad.exceptions import GraphFormatError

    with pytest.raises(GraphFormatError, match="unknown trace format 'vizgrad.trace/9'.*trace/1"):
        Trace.from_dict({"format": "vizgrad.trace/9", "nodes": []})


def test_from_dict_rejects_garbage():
    from vizgrad.exceptions import GraphFormatError

    with pytest.raises(GraphFormatError, match="not a vizgrad trace"):
        Trace.from_dict({"nodes": []})


def test_vizgrad_trace_is_the_tracing_function():
    assert vizgrad.trace is trace and vizgrad.Trace is Trace


def _custom_square(x: Value, local: float) -> Value:
    """A user-defined op on vizgrad Values whose recorded local derivative may be wrong."""
    out = Value(x.data**2, (x,), "square")
    out._local = (local,)
    d = 2 * x.data

    def back():
        x.grad += d * out.grad

    out._backward = back
    return out


def test_a_custom_op_with_the_right_local_derivative_is_exact():
    x = Value(3.0, label="x")
    t = trace(_custom_square(x, 6.0) * 2)
    assert t.derivatives == "exact"
    assert t.node("v0")["grad"] == 12.0


def test_a_custom_op_whose_closure_disagrees_is_reported_as_observed():
    x = Value(3.0, label="x")
    t = trace(_custom_square(x, 5.0) * 2)  # the closure really adds 6 * upstream
    assert t.derivatives == "observed"
    (c,) = [c for s in t.steps for c in s["contributions"] if c["target"] == "v0"]
    assert c["observed"] is True and c["amount"] == 12.0 and c["local"] == 6.0
    assert t.node("v0")["grad"] == 12.0  # what backward() really computes


def test_grads_are_restored_even_when_a_backward_closure_fails():
    a, b = Dual(2.0), Dual(5.0)
    y = a * b
    z = y + a

    def broken():
        raise RuntimeError("boom")

    y._backward = broken
    a.grad, b.grad, y.grad, z.grad = 1.0, 2.0, 3.0, 4.0
    with pytest.raises(RuntimeError, match="boom"):
        trace(z)
    assert (a.grad, b.grad, y.grad, z.grad) == (1.0, 2.0, 3.0, 4.0)


# -- repr -----------------------------------------------------------------------------------


def test_repr_names_the_root_and_counts_values_and_steps(fork):
    q, _, _ = fork
    assert repr(trace(q)) == "<Trace of q: 5 values, 8 steps>"
    assert repr(trace(Value(2.0) * 3)) == "<Trace of f: 3 values, 4 steps>"  # no label: its name


def test_repr_of_the_course_mlp_is_one_short_line():
    pytest.importorskip("micrograd.nn", reason="micrograd==0.1.0 is a test dependency")
    spec = importlib.util.spec_from_file_location("mg_model", ROOT / "tests/models/mg_model.py")
    model = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(model)
    loss = model.build(n=4)
    values = chapter_order(loss, parents=lambda v: v._prev)
    operations = sum(1 for v in values if v._prev)
    assert len(values) == 132 + 3 * 88  # the model file's own count, not vizgrad's
    assert repr(trace(loss)) == (f"<Trace of f: {len(values)} values, "
                                 f"{2 + 2 * operations} steps>")  # inputs, forward, seed, backward

"""Odd ``build()`` results and big graphs: ``render`` and ``check`` say what was wrong in one
line (exit 2), or check the graph; never a traceback (issue 31, items 3 and 4)."""

from __future__ import annotations

import json

import pytest

ODD = '''
from micrograd.engine import Value


class Boom(BaseException):
    pass


class BadPrev(Value):
    @property
    def _prev(self):
        raise RuntimeError("no prev")

    @_prev.setter
    def _prev(self, v):
        pass


class Net:
    def parameters(self):
        raise RuntimeError("no parameters")


net = Net()


def cycle():
    a = Value(1.0)
    b = a + 1
    c = b * 2
    a._prev = {c}
    return c


def self_parent():
    a = Value(1.0)
    b = a * 2
    b._prev = {b, a}
    return b


def text_data():
    a = Value(1.0)
    b = a * 2
    a.data = "hello"
    return b


def list_grad():
    a = Value(1.0)
    b = a * 2
    b.grad = [1, 2]
    return b


def huge_int():
    a = Value(1.0)
    b = a * 2
    a.data = 10 ** 400
    return b


def raising_prev():
    return BadPrev(1.0) * 2


def raising_parameters():
    a = Value(1.0)
    return a * 2, net


def base_exception():
    raise Boom("custom")
'''

#: each odd result and a word its one line must hold
CASES = {
    "cycle": "cycle of 3 values",
    "self_parent": "its own parent",
    "text_data": "not a number",
    "list_grad": "list",
    "huge_int": "401 digits",
    "raising_prev": "no prev",
    "raising_parameters": "no parameters",
    "base_exception": "BaseException",
}


@pytest.mark.parametrize("command", ["render", "check"])
@pytest.mark.parametrize("func", list(CASES))
def test_an_odd_build_result_is_one_line_and_exit_2(run, model, tmp_path, command, func):
    path = model(ODD)
    args = [command, f"{path}:{func}"] + (["-o", str(tmp_path / "x.svg")]
                                          if command == "render" else [])
    result = run(*args, code=2)
    error = [line for line in result.output.splitlines() if line.startswith("Error: ")]
    assert len(error) == 1 and CASES[func] in error[0], result.output
    assert not (tmp_path / "x.svg").exists()


CHAIN = '''
from vizgrad import Value


def build(n=2001):
    y = Value(0.5, label="x")
    for i in range(int(n) - 1):
        y = y * 1.0 if i % 2 else y + 0.0
    y.backward()
    return y
'''

NET = '''
import random

from micrograd.nn import MLP

random.seed(7)
n = MLP(3, [8, 8, 1])


def build(samples=68):
    xs = [[random.uniform(-1, 1) for _ in range(3)] for _ in range(int(samples))]
    ys = [random.choice([-1.0, 1.0]) for _ in xs]
    loss = sum((n(x) - y) ** 2 for x, y in zip(xs, ys))
    loss.backward()
    return loss
'''


def test_check_of_a_chain_past_the_node_limit(run, model):
    result = run("check", str(model(CHAIN)), "--tol", "1e-6")  # 2,001 values: a LiteGraph
    lines = result.output.splitlines()
    assert lines[1].split() == ["input", "backprop", "numeric", "abs", "error"]
    assert lines[2].split()[:2] == ["x", "1.0000000000"]  # d/dx of x + 0 * 1 + 0 ...


def test_check_of_a_16000_value_micrograd_net(run, model):
    from vizgrad import trace
    from vizgrad.cli.model_file import load_model

    path = model(NET)
    root, _ = load_model(f"{path}:build")
    assert 16_000 <= len(trace(root).nodes) <= 17_000
    result = run("check", str(path), "--json", "--tol", "1e-4")
    rows = json.loads(result.output)["rows"]
    params = {r["input"] for r in rows if r["input"].startswith("L")}
    assert len(params) == 3 * 8 + 8 + 8 * 8 + 8 + 8 + 1  # MLP(3, [8, 8, 1]): 113 parameters
    assert max(r["error"] for r in rows) < 1e-6


FUZZ = '''
import math

from micrograd.engine import Value

SPEC = {spec!r}


class BadPrev(Value):
    @property
    def _prev(self):
        raise ValueError("a _prev that raises")

    @_prev.setter
    def _prev(self, v):
        pass


class Net:
    def parameters(self):
        raise RuntimeError("a parameters() that raises")


ODD = {{"text": "hello", "list": [1, 2], "none": None, "huge": 10 ** 400, "nan": math.nan,
        "inf": -math.inf, "bool": True, "neg_huge": -10 ** 330, "tuple": (1.0,)}}


def build():
    vals = []
    for node in SPEC["nodes"]:
        if node[0] == "leaf":
            vals.append(Value(node[1]))
        elif node[0] == "tanh":
            vals.append(vals[node[1] % len(vals)].tanh())
        else:
            a, b = vals[node[1] % len(vals)], vals[node[2] % len(vals)]
            vals.append(a + b if node[0] == "+" else a * b)
    root = vals[-1]
    if SPEC["backward"]:
        root.backward()
    for what, i, j in SPEC["odd"]:
        v = vals[i % len(vals)]
        if what == "prev":
            v._prev = set(v._prev) | {{vals[j % len(vals)]}}
        elif what == "raise_prev":
            v.__class__ = BadPrev
        else:
            setattr(v, what, ODD[j])
    return (root, Net()) if SPEC["net"] else root
'''


def test_odd_graphs_never_print_a_traceback(run, model, tmp_path):
    """A property test: small micrograd graphs with cycles, self-parents, odd data and grads,
    a raising ``_prev`` or ``parameters()``, huge ints; every run ends in a line, no
    traceback, whatever ``check`` and ``render -o x.json`` make of it."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    kinds = ["text", "list", "none", "huge", "nan", "inf", "bool", "neg_huge", "tuple"]
    leaf = st.tuples(st.just("leaf"), st.floats(-3, 3, allow_nan=False))
    op = st.tuples(st.sampled_from(["+", "*"]), st.integers(0, 9), st.integers(0, 9))
    unary = st.tuples(st.just("tanh"), st.integers(0, 9), st.just(0))
    odd = st.one_of(
        st.tuples(st.just("prev"), st.integers(0, 9), st.integers(0, 9)),
        st.tuples(st.just("raise_prev"), st.integers(0, 9), st.just(0)),
        st.tuples(st.sampled_from(["data", "grad"]), st.integers(0, 9), st.sampled_from(kinds)))
    spec = st.fixed_dictionaries({
        "nodes": st.tuples(leaf, st.lists(st.one_of(leaf, op, unary), min_size=1, max_size=8))
        .map(lambda t: [t[0], *t[1]]),
        "odd": st.lists(odd, max_size=3), "backward": st.booleans(), "net": st.booleans()})

    @settings(max_examples=120, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(spec, st.sampled_from(["check", "render"]))
    def probe(spec: dict, command: str) -> None:
        path = model(FUZZ.format(spec=spec))
        args = [command, str(path)] + (["-o", str(tmp_path / "x.json")]
                                       if command == "render" else [])
        result = run(*args, code=None)
        assert result.exit_code in (0, 1, 2), (spec, result.output, result.exception)
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            spec, repr(result.exception))
        assert "Traceback" not in result.output, (spec, result.output)

    probe()
